import NormCache
import TestSupport
import Testing
@testable import Workbench

/// What Tab completes, from the line up to the cursor, in a session with the bundled plugins.
@Suite struct CompletionTests {
    /// What `line` completes to once `commands` have run.
    func completion(of line: String, after commands: String...) async throws -> Completion {
        try await onThread {
            let session = try Session(output: { _ in }, errors: { _ in })
            for command in commands { session.execute(command) }
            return Completion(for: line, in: session)
        }
    }

    @Test func dotCommands() async throws {
        let several = try await completion(of: ".he")
        #expect(several.word == ".he")
        #expect(several.candidates == [".header", ".help"])
        #expect(several.action == .list([".header", ".help"]))
        #expect(try await completion(of: ".hel").action == .insert("p "))
        #expect(try await completion(of: ".qu").action == .insert("it "))
        #expect(try await completion(of: ".ex").candidates.contains(".exit"))   // aliases too
        #expect(try await completion(of: ".nothing").action == .none)
    }

    /// On a project's endpoint, `.run` and `.watch` complete the project's operations, and
    /// fields complete from the project's schema.
    @Test func aProjectsOperationsAndSchema() async throws {
        let project = fixturesDirectory.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("examples/TripsApp").path
        #expect(try await completion(of: ".run Trip", after: ".project \(project)").candidates == ["TripDetail", "TripList"])
        #expect(try await completion(of: ".watch TripD", after: ".project \(project)").action == .insert("etail "))
        #expect(try await completion(of: "{ trips { destination { ci", after: ".project \(project)").action == .insert("ty "))
        // After `...`, the project's fragments that apply to the selection's type.
        #expect(try await completion(of: "{ trips { ...", after: ".project \(project)").candidates == ["TripHeader", "on"])
        #expect(try await completion(of: "{ trips { ...Tr", after: ".project \(project)").action == .insert("ipHeader "))
        #expect(try await completion(of: "{ trips { journeys { from { ...", after: ".project \(project)").candidates
                == ["JourneyEndpointFields", "on"])
    }

    @Test func commandNamesAfterHelp() async throws {
        #expect(try await completion(of: ".help qu").action == .insert("it "))
        #expect(try await completion(of: ".help .qu").action == .insert("it "))
    }

    @Test func serviceCommands() async throws {
        #expect(try await completion(of: "tri").action == .insert("ps."))
        #expect(try await completion(of: "trips.re").candidates == ["trips.rename"])
        #expect(try await completion(of: "trips.re").action == .insert("name "))
        #expect(try await completion(of: "trips.").candidates.count > 1)
    }

    @Test func anEmptyLineOffersEveryCommand() async throws {
        let candidates = try await completion(of: "").candidates
        #expect(candidates.contains(".help"))
        #expect(candidates.contains("trips."))
    }

    @Test func pluginNamesAfterUse() async throws {
        #expect(try await completion(of: ".use tr").action == .insert("ips "))
        #expect(try await completion(of: ".use ").candidates == ["donuts", "feed", "purls", "trips"])
    }

    /// `.more` completes a running watcher's id, then which page.
    @Test func watcherIdsAndDirectionsAfterMore() async throws {
        #expect(try await completion(of: ".more ", after: ".use feed", #".pager FeedPage {"first":5}"#).candidates == ["1"])
        #expect(try await completion(of: ".more 1 pr").action == .insert("evious "))
        #expect(try await completion(of: ".more 1 ").candidates == ["all", "next", "previous"])
    }

    @Test func recordKeys() async throws {
        let writes = [#".write Trip:1 {"name":"Lisbon"}"#, #".write Trip:2 {"name":"Porto"}"#, #".write User:1 {"name":"Ana"}"#]
        for command in [".inspect", ".refs", ".evict", ".write", ".expect record"] {
            let completion = try await completion(of: command + " Tr", after: writes[0], writes[1], writes[2])
            #expect(completion.action == .insert("ip:"), "\(command)")
        }
        #expect(try await completion(of: ".inspect Trip:", after: writes[0], writes[1]).action == .list(["Trip:1", "Trip:2"]))
        #expect(try await completion(of: ".expect data Tr", after: writes[0]).action == .none)
    }

    @Test func fieldsOfTheEndpointsSchemaInsideAnOperation() async throws {
        #expect(try await completion(of: "{ trips { na", after: ".use trips").action == .insert("me "))
        #expect(try await completion(of: "query { tri", after: ".use trips").action == .insert("p"))
        #expect(try await completion(of: ".watch { trips { desti", after: ".use trips").action == .insert("nation "))
        #expect(try await completion(of: "{ trips { destination { co", after: ".use trips").action == .insert("untry "))
        // A line that continues an operation begun on earlier ones.
        #expect(try await completion(of: "  starts", after: ".use trips", "{", "trips {").action == .insert("On "))
        #expect(try await completion(of: "co", after: ".use trips", "query {", "trips { destination {").candidates == ["country"])
        // Another plugin's schema: its own fields, none of the trips plugin's.
        #expect(try await completion(of: "{ pur", after: ".use purls").action == .insert("ls "))
        #expect(try await completion(of: "{ purls(address: \"a\", page: 1) { items { ti", after: ".use purls").candidates == ["title"])
        #expect(try await completion(of: "{ tri", after: ".use purls").action == .none)
    }

    @Test func anHTTPEndpointCompletesNoFieldBeforeItsSchemaIsKnown() async throws {
        #expect(try await completion(of: "{ tri", after: ".endpoint http://127.0.0.1:9/graphql").action == .none)
    }

    @Test func operationNamesOfTheCurrentPlugin() async throws {
        #expect(try await completion(of: ".run TripL", after: ".use trips").action == .insert("ist "))
        #expect(try await completion(of: ".watch Trip", after: ".use trips").action == .list(["TripDetail", "TripList"]))
        #expect(try await completion(of: ".run ", after: ".use purls").candidates.allSatisfy { !$0.contains("Trip") })
    }

    // MARK: inside an operation, from the schema alone

    static let schema = try! PossibleTypes(sdl: """
        schema { query: Root mutation: Change }
        type Root { trips(first: Int, after: String): [Trip!]! trip(id: ID!): Trip node(id: ID!): Node search(text: String!): [Result!]! }
        type Change { renameTrip(id: ID!, name: String!): Trip }
        interface Node { id: ID! }
        type Trip implements Node { id: ID! name: String! destination: Destination journeys(last: Int): [Journey!]! }
        type Destination { city: String! country: String! }
        type Journey implements Node { id: ID! from: Endpoint! to: Endpoint! }
        union Endpoint = Station | Airport
        union Result = Trip | Station
        type Station implements Node { id: ID! name: String! platform: String }
        type Airport { code: ID! name: String! }
        """)

    /// The candidates for the name at the end of `operation`.
    func candidates(_ operation: String, schema: PossibleTypes? = Self.schema) -> [String] {
        Completion(operation: operation, schema: schema).candidates
    }

    @Test func theFieldsOfTheInnermostSelectionsType() {
        #expect(candidates("{ ") == ["__typename", "node", "search", "trip", "trips"])
        #expect(candidates("query Trips { trips { ") == ["__typename", "destination", "id", "journeys", "name"])
        #expect(candidates("{ trips { destination { c") == ["city", "country"])
        #expect(candidates("{ trips { destination { city } na") == ["name"])   // back out of a closed selection
        #expect(candidates("{ trips { id } tr") == ["trip", "trips"])
        #expect(candidates("mutation { re") == ["renameTrip"])
        #expect(candidates("mutation Rename($id: ID!) { renameTrip(id: $id, name: \"x\") { na") == ["name"])
        #expect(candidates("fragment Where on Destination { ci") == ["city"])
        #expect(candidates("{ node(id: 1) { ") == ["__typename", "id"])   // an interface's own fields
    }

    @Test func aliasesArgumentsAndDirectivesAreWalkedPast() {
        #expect(candidates("{ first: trips(first: 1) { where: destination { c") == ["city", "country"])
        #expect(candidates("{ first: ") == ["__typename", "node", "search", "trip", "trips"])
        #expect(candidates(#"{ trip(id: "a{b}(c") @include(if: true) { journeys(last: 2) { from { __t"#) == ["__typename"])
        #expect(candidates("{ trips @skip(if: false) { destination @include(if: true) { ci") == ["city"])
        #expect(candidates("{ trips # a comment { naming nothing\n { na") == ["name"])
        #expect(candidates(#"{ trips(after: """ { """) { na"#) == ["name"])
    }

    @Test func typeConditionsAndInlineFragments() {
        #expect(candidates("{ search(text: \"x\") { ") == ["__typename"])   // a union has no fields of its own
        #expect(candidates("{ search(text: \"x\") { ... ") == ["on"])
        #expect(candidates("{ search(text: \"x\") { ... on ") == ["Result", "Station", "Trip"])
        #expect(candidates("{ node(id: 1) { ...on S") == ["Station"])
        #expect(candidates("{ search(text: \"x\") { ... on Station { pl") == ["platform"])
        #expect(candidates("{ trips { journeys { to { ... on Airport { code } ... on Station { id } na") == [])   // Endpoint has no name
        #expect(candidates("{ node(id: 1) { ... on Trip { destination { ci") == ["city"])
        #expect(candidates("{ node(id: 1) { ... @include(if: true) { i") == ["id"])   // no type condition: the same type
        #expect(candidates("{ trips { ...TripFields na") == ["name"])
        #expect(Completion(operation: "{ trips { ... o", schema: Self.schema).action == .insert("n "))
    }

    @Test func argumentNamesAndVariables() {
        #expect(candidates("{ trips(") == ["after:", "first:"])
        #expect(candidates("{ trips(first: 2 a") == ["after:"])
        #expect(candidates("{ trips { journeys(") == ["last:"])
        #expect(Completion(operation: "{ trip(i", schema: Self.schema).action == .insert("d: "))
        #expect(candidates("{ trips(first: ") == [])   // a value
        #expect(candidates("{ trips @include(") == [])   // a directive's
        #expect(candidates("query Page($first: Int, $after: String = \"$none\") { trips(first: $") == ["after", "first"])
        #expect(candidates("query Page($first: Int) { trips(first: $f") == ["first"])
        #expect(candidates("query Page($first: Int) { trips(first: $first) { id } } query Other { trips(first: $") == [])
        #expect(candidates("query Page($fi") == [])   // declaring one
    }

    @Test func theSchemasOwnRootTypeNamesAndIntrospection() throws {
        let introspection = try JSON.parse("""
            {"__schema": {"queryType": {"name": "Q"}, "types": [
              {"kind": "OBJECT", "name": "Q", "fields": [
                {"name": "pets", "args": [{"name": "kind"}, {"name": "limit"}], "type": {"kind": "LIST", "ofType": {"kind": "INTERFACE", "name": "Pet"}}}]},
              {"kind": "INTERFACE", "name": "Pet", "fields": [{"name": "name", "args": [], "type": {"kind": "SCALAR", "name": "String"}}],
               "possibleTypes": [{"kind": "OBJECT", "name": "Dog"}]},
              {"kind": "OBJECT", "name": "Dog", "fields": [{"name": "barks", "args": [], "type": {"kind": "SCALAR", "name": "Boolean"}}]}]}}
            """)
        let schema = try PossibleTypes(introspection: introspection)
        #expect(candidates("{ pets(", schema: schema) == ["kind:", "limit:"])
        #expect(candidates("{ pets { ", schema: schema) == ["__typename", "name"])
        #expect(candidates("{ pets { ... on ", schema: schema) == ["Dog", "Pet"])
        #expect(candidates("{ pets { ... on Dog { b", schema: schema) == ["barks"])
    }

    @Test func nothingWithoutASchemaOrWhereNoNameFits() {
        #expect(candidates("{ tri", schema: nil) == [])
        #expect(candidates("{ tri", schema: PossibleTypes()) == [])
        #expect(candidates("{ trips { name { ") == [])   // a scalar
        #expect(candidates("{ trips { nmae { ") == [])   // a field the schema does not know
        #expect(candidates("{ trips(first: \"na") == [])   // inside a string
        #expect(candidates("{ trips # na") == [])   // inside a comment
        #expect(candidates("{ trips { @") == [])
    }

    /// Half-typed and malformed text of every kind completes to something or nothing, and
    /// never traps: every prefix of an operation, and random strings of GraphQL's characters.
    @Test func malformedTextNeverTraps() {
        let operation = #"""
            query Q($id: ID!, $n: [Int!] = [1, 2]) @live { a: trip(id: $id) { ... on Trip @include(if: true) { journeys(last: $n) {
              from { ... on Station { name } ...Frag } } } # done }
              "\"" """block""" search(text: "}{)(") { __typename } } } fragment Frag on Endpoint { __typename }
            """#
        for end in operation.indices { _ = Completion(operation: String(operation[..<end]), schema: Self.schema) }
        // Its strings, comments, directives and spreads are walked past: what follows completes.
        #expect(candidates(operation + " fragment More on Trip { na") == ["name"])
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("{}()[]:$@!=.\"#\n ,a_1on")
        for _ in 0..<2000 {
            let text = String((0..<Int.random(in: 0...24, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
            _ = Completion(operation: text, schema: Self.schema)
            _ = Completion(operation: "{ trips { " + text, schema: Self.schema)
        }
    }

    @Test func columnsFitTheWidth() {
        let candidates = ["CreateTrip", "DeleteTrip", "RenameTrip", "TripDetail", "TripList"]
        #expect(Completion.columns(candidates, width: 40) == ["CreateTrip  DeleteTrip  RenameTrip", "TripDetail  TripList"])
        #expect(Completion.columns(candidates, width: 5) == candidates)
    }
}
