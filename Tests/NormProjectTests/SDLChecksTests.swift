import Foundation
@testable import GraphQL
@testable import NormProject
import TestSupport
import Testing

/// Our SDL checks refuse exactly what GraphQLSwift's SDL rules (`validateSDL`, the oracle)
/// refuse, with the same messages (less the rules' "Did you mean" suggestions): at least
/// one broken document per rule, the rules' quirks, and valid documents.
@Suite struct SDLChecksTests {
    /// Documents each of which breaks the rule it is filed under (or, under "accepted",
    /// breaks none), one or more ways.
    static let corpus: [(rule: String, sdl: String)] = [
        ("LoneSchemaDefinition", "schema { query: Query } schema { query: Query } type Query { a: Int }"),
        ("UniqueOperationTypes", "schema { query: Query query: Query } type Query { a: Int }"),
        ("UniqueOperationTypes", "schema { query: Query } extend schema { query: Query mutation: Query } type Query { a: Int }"),
        ("UniqueTypeNames", "type Query { a: Int } type Query { b: Int }"),
        ("UniqueTypeNames", "scalar S enum S { A } input S { a: Int }"),
        ("UniqueEnumValueNames", "enum E { A B A }"),
        ("UniqueEnumValueNames", "enum E { A } extend enum E { B A }"),
        ("UniqueFieldDefinitionNames", "type T { a: Int a: String }"),
        ("UniqueFieldDefinitionNames", "type T { a: Int } extend type T { a: Int }"),
        ("UniqueFieldDefinitionNames", "interface I { a: Int } extend interface I { a: Int } input J { b: Int b: Int }"),
        ("UniqueFieldDefinitionNames", "input J { b: Int } extend input J { b: Int }"),
        ("UniqueArgumentDefinitionNames", "type T { f(a: Int, a: Int): Int }"),
        ("UniqueArgumentDefinitionNames", "directive @d(a: Int, a: Int) on FIELD interface I { f(a: Int, b: Int, a: Int): Int }"),
        ("UniqueArgumentDefinitionNames", "type T { a: Int } extend type T { f(x: Int, x: Int): Int }"),
        ("UniqueDirectiveNames", "directive @d on FIELD directive @d on OBJECT"),
        ("KnownTypeNames", "type T { a: Tirp }"),
        ("KnownTypeNames", "type T implements Nope { a: Int } union U = Nope | T input I { a: [Nope!] }"),
        ("KnownTypeNames", "directive @d(a: Nope) on FIELD schema { query: Query } type T { a(b: Nope): Int }"),
        ("KnownTypeNames", "type T { a: Int } extend type T { b: Nope } extend union U = Nope union U = T"),
        ("KnownDirectives", "type T @nope { a: Int @nope(x: 1) }"),
        ("KnownDirectives", "type T @include(if: true) { a: Int }"),
        ("KnownDirectives", "directive @d on OBJECT type T { a(b: Int @d): Int @d } enum E @d { A @d } scalar S @d union U @d = T"),
        ("KnownDirectives", "directive @d on FIELD schema @d { query: J } extend schema @d input I @d { a: Int @d } interface J @d { a: Int }"),
        ("KnownDirectives", "directive @d on INPUT_FIELD_DEFINITION input I { a: Int } extend input I { b: Int @d }"),
        ("KnownDirectives", "directive @d on OBJECT directive @e(a: Int @d) on FIELD scalar S extend scalar S @d"),
        ("UniqueDirectivesPerLocation", "directive @d on OBJECT | FIELD_DEFINITION type T @d @d { a: Int @d @d }"),
        ("UniqueDirectivesPerLocation", "directive @d on ENUM_VALUE enum E { A @d @d }"),
        ("PossibleTypeExtensions", "extend type Nope { a: Int }"),
        ("PossibleTypeExtensions", "scalar S extend type S { a: Int }"),
        ("PossibleTypeExtensions", "type T { a: Int } extend input T { b: Int } extend union T = T extend enum T { A }"),
        ("PossibleTypeExtensions", "directive @d on SCALAR extend scalar String @d"),
        ("KnownArgumentNamesOnDirectives", #"type T { a: Int @deprecated(why: "x") }"#),
        ("KnownArgumentNamesOnDirectives", "directive @d(a: Int) on OBJECT type T @d(b: 1) { a: Int }"),
        ("UniqueArgumentNames", #"type T { a: Int @deprecated(reason: "x", reason: "y") }"#),
        ("UniqueArgumentNames", "directive @d(a: Int) on OBJECT type T @d(a: 1, a: 2) { a: Int }"),
        ("UniqueInputFieldNames", "directive @d(a: I) on OBJECT input I { x: Int } type T @d(a: {x: 1, x: 2}) { a: Int }"),
        ("UniqueInputFieldNames", "input I { x: Int y: [I] } type T { a(b: I = {y: [{x: 1}, {x: 1, x: 2}]}): Int }"),
        ("UniqueInputFieldNames", "input I { x: Int y: I } input J { i: I = {y: {x: 1, x: 1}, x: 2} }"),
        ("ProvidedRequiredArgumentsOnDirectives", "directive @d(a: Int!, b: [String!]!) on OBJECT type T @d { a: Int }"),
        ("ProvidedRequiredArgumentsOnDirectives", "type T { a: Int } extend type T @include"),
        ("ProvidedRequiredArgumentsOnDirectives", "scalar S @specifiedBy"),
        ("several", "type T @nope { a: Tirp a: Int } extend type Nope { b: Int } enum E { A A }"),
        ("accepted", "directive @Foo on FIELD type T { a: Foo }"),
        ("accepted", "schema { query: Nope } type T { a: Int }"),
        ("accepted", "type T { a: Int } extend type T @include(if: true) @include(if: false)"),
        ("accepted", "directive @d on OBJECT type T @d { a: Int @deprecated @deprecated } extend type T @d"),
        ("accepted", "directive @d repeatable on OBJECT type T @d @d { a: Int }"),
        ("accepted", "directive @d on ARGUMENT_DEFINITION input I { a: Int } extend input I { b: Int @d }"),
        ("accepted", "directive @d(a: Int! = 1) on OBJECT type T @d { a: __Type b: String c(x: ID, y: Float, z: Boolean): Int }"),
        ("accepted", "union U = T type T { a: Int } extend union U = T interface I { a: Int } extend interface I { b: Int @deprecated }"),
        ("accepted", "schema { query: Q } extend schema { mutation: Q } type Q { a: Int } scalar S @specifiedBy(url: \"u\") input O @oneOf { a: Int }"),
        ("accepted", "type T { a: Int } type U { a(b: Int): Int } extend type T { b(x: Int, y: Int): Int }"),
        ("accepted", ProjectDirectory.schema + "\n" + ApolloDirectives.declarations.map(\.value).joined(separator: "\n")
            + "\nextend type Trip @typePolicy(keyFields: \"id\")\nextend type Query @fieldPolicy(forField: \"trip\", keyArgs: \"id\")"),
    ]

    /// The rules' messages, sorted, without their suggestions.
    func rulesMessages(_ document: Document) -> [String] {
        validateSDL(documentAST: document).map { error in
            error.message.range(of: " Did you mean").map { String(error.message[..<$0.lowerBound]) } ?? error.message
        }.sorted()
    }

    @Test(arguments: corpus.indices) func refusesExactlyWhatTheRulesRefuse(_ index: Int) throws {
        let (rule, sdl) = Self.corpus[index]
        let document = try parse(source: Source(body: sdl, name: "schema.graphqls"))
        let ours = try #require(SDLChecks.problems(of: document.definitions))
        let theirs = rulesMessages(document)
        #expect(theirs.isEmpty == (rule == "accepted"), "\(rule): \(sdl)")
        // Our problems name the other places a problem is at in a parenthesis of their own.
        let oursWithoutOtherPlaces = ours.map { $0.message.components(separatedBy: " (also at ")[0] }
        #expect(oursWithoutOtherPlaces.sorted() == theirs, "\(rule): \(sdl)")
        #expect(ours.allSatisfy { $0.file == "schema.graphqls" && $0.line == 1 && $0.column != nil })
        // Whole: building after our checks refuses exactly what building with the rules does.
        let refusedWithTheRules = (try? buildASTSchema(documentAST: document)) == nil
        let refusedWithOurs = !ours.isEmpty || (try? buildASTSchema(documentAST: document, assumeValidSDL: true)) == nil
        #expect(refusedWithOurs == refusedWithTheRules, "\(rule): \(sdl)")
    }

    /// The checks, like the rules, accept a large app's schema; and a document that holds an
    /// operation is left to the rules, which check more of it.
    @Test func aLargeSchemaAndADocumentWithAnOperation() throws {
        let directory = NSTemporaryDirectory() + "normproject-sdl-" + UUID().uuidString
        try GeneratedProject.write(to: directory, types: 300, operations: 1)
        let files = try FileManager.default.subpathsOfDirectory(atPath: directory).filter { $0.hasSuffix(".graphqls") }
        let sdl = try files.map { try String(contentsOfFile: directory + "/" + $0, encoding: .utf8) }.joined(separator: "\n")
            + "\n" + ApolloDirectives.declarations.map(\.value).joined(separator: "\n")
        let document = try parse(source: Source(body: sdl, name: "schema.graphqls"))
        #expect(rulesMessages(document).isEmpty)
        #expect(SDLChecks.problems(of: document.definitions)?.isEmpty == true)
        let withOperation = try parse(source: Source(body: "type Query { a: Int } query Q($v: String) { a }"))
        #expect(SDLChecks.problems(of: withOperation.definitions) == nil)
    }
}
