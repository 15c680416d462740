import NormAPI
import Testing
@testable import NormCache

/// Compiling GraphQL documents into operations, checked through the keys their writes
/// produce and the errors bad documents give.
@Suite struct OperationTests {
    let cache: NormalizedCache

    init() throws {
        cache = try Support.cache()
    }

    /// Writes `data` for `document` and returns the field keys of `record` afterwards.
    func fieldKeys(after document: String, data: String, variables: String = "{}", record: String = "QUERY_ROOT") throws -> [String] {
        let op = try cache.operation(document)
        try cache.write(data: try Support.object(data), for: op, variables: try Support.object(variables))
        return cache.record(record)?.keys.sorted() ?? []
    }

    func compileError(_ document: String, name: String? = nil) -> OperationError? {
        do {
            _ = try cache.operation(document, name: name)
            return nil
        } catch {
            guard case .operation(let error) = error else { return nil }
            return error
        }
    }

    @Test func nameKindAndVariables() throws {
        let op = try cache.operation("query Hero($ep: Episode!, $first: [Int!] = [3], $f: TripFilter) { hero(episode: $ep) { name } }")
        #expect(op.name == "Hero")
        #expect(op.kind == .query)
        #expect(op.variables.map(\.name) == ["ep", "first", "f"])
        #expect(op.variables.map(\.type.description) == ["Episode!", "[Int!]", "TripFilter"])
        #expect(op.variables.map(\.type.namedType) == ["Episode", "Int", "TripFilter"])
        #expect(op.variables[1].defaultValue == [3])
        #expect(op.variables[0].defaultValue == nil)
        #expect(try cache.operation("mutation { a }").kind == .mutation)
        #expect(try cache.operation("subscription S { a }").kind == .subscription)
        #expect(try cache.operation("{ a }").name == nil)
    }

    @Test func severalOperationsNeedAName() throws {
        let document = "query A { a } query B { b }"
        #expect(compileError(document)?.message.contains("2 operations") == true)
        #expect(try cache.operation(document, name: "B").name == "B")
        #expect(try cache.operation(document, name: "A").name == "A")
        #expect(compileError(document, name: "C") != nil)
        #expect(compileError("fragment F on Query { a }") != nil)
    }

    @Test func aliasesAreNeverKeys() throws {
        let keys = try fieldKeys(
            after: "{ first: hero(episode: JEDI) { name } second: hero(episode: EMPIRE) { name } count: heroCount }",
            data: #"{"first":{"__typename":"Droid","id":"2001","name":"R2-D2"},"second":{"__typename":"Human","id":"1000","name":"Luke"},"count":2}"#)
        #expect(keys == ["hero(episode:EMPIRE)", "hero(episode:JEDI)", "heroCount"])
        #expect(cache.record("Droid:2001")?["name"] == "R2-D2")
    }

    @Test func literalArguments() throws {
        let keys = try fieldKeys(
            after: #"{ human(id: "1000") { name } a: f(b: true, i: 7, x: 1.5, s: "Padmé, R2", e: JEDI, n: null, l: [1, 2], o: {z: 1, y: [A, B]}) }"#,
            data: #"{"human":{"__typename":"Human","id":"1000","name":"Luke"},"a":1}"#)
        #expect(keys == ["f(b:true,e:JEDI,i:7,l:[1, 2],n:null,[o:y:[A, B],z:1],s:Padmé, R2,x:1.5)", "human(id:1000)"])
    }

    @Test func variablesAreSubstituted() throws {
        let document = "query ($ep: Episode, $id: ID!, $first: Int) { hero(episode: $ep) { name friends(first: $first) { name } } human(id: $id) { name } }"
        let keys = try fieldKeys(
            after: document,
            data: #"{"hero":{"__typename":"Droid","id":"2001","name":"R2-D2","friends":[]},"human":{"__typename":"Human","id":"1000","name":"Luke"}}"#,
            variables: #"{"ep":"JEDI","id":"1000","first":3}"#)
        #expect(keys == ["hero(episode:JEDI)", "human(id:1000)"])
        #expect(cache.record("Droid:2001")?.keys.contains("friends(first:3)") == true)
    }

    /// `$first: Int = 3` given no `first`: the server runs with 3, so the key says 3.
    @Test func variableDefaultsApplyWhenTheVariableIsLeftOut() throws {
        let document = "query ($ep: Episode = EMPIRE, $first: Int = 3) { hero(episode: $ep) { name friends(first: $first) { name } } }"
        let data = #"{"hero":{"__typename":"Droid","id":"2001","name":"R2-D2","friends":[]}}"#
        #expect(try fieldKeys(after: document, data: data) == ["hero(episode:EMPIRE)"])
        #expect(cache.record("Droid:2001")?.keys.contains("friends(first:3)") == true)
        // A given value wins over the default, an explicit null too.
        #expect(try fieldKeys(after: document, data: data, variables: #"{"ep":"JEDI","first":null}"#).contains("hero(episode:JEDI)"))
        #expect(cache.record("Droid:2001")?.keys.contains("friends(first:null)") == true)
        // Reads use the defaults as well.
        let read = try cache.read(try cache.operation(document))
        #expect(read.complete)
        #expect(read.data?["hero"]?["name"] == "R2-D2")
    }

    @Test func aMissingVariableDropsItsArgument() throws {
        let keys = try fieldKeys(
            after: "query ($ep: Episode, $first: Int) { hero(episode: $ep) { name friends(first: $first) { name } } }",
            data: #"{"hero":{"__typename":"Droid","id":"2001","name":"R2-D2","friends":[]}}"#)
        #expect(keys == ["hero"])
        #expect(cache.record("Droid:2001")?.keys.contains("friends") == true)
    }

    @Test func anExplicitNullStays() throws {
        let keys = try fieldKeys(
            after: "query ($ep: Episode) { hero(episode: $ep) { name } }",
            data: #"{"hero":{"__typename":"Droid","id":"2001","name":"R2-D2"}}"#, variables: #"{"ep":null}"#)
        #expect(keys == ["hero(episode:null)"])
    }

    @Test func floatVariablesAreKeyedAsDoubles() throws {
        let document = "query ($len: Float, $lens: [Float], $n: Int) { ships(minLength: $len, lengths: $lens, n: $n) { name } }"
        let keys = try fieldKeys(
            after: document, data: #"{"ships":[]}"#, variables: #"{"len":30,"lens":[1,2.5],"n":30}"#)
        #expect(keys == ["ships(lengths:[1.0, 2.5],minLength:30.0,n:30)"])
    }

    @Test func inputObjectVariablesWithVariablesInside() throws {
        let document = "query ($ids: [ID], $kind: Kind) { friends(filter: {ids: $ids, kind: $kind}, first: 3) { name } }"
        #expect(try fieldKeys(after: document, data: #"{"friends":[]}"#, variables: #"{"ids":[1,2],"kind":"A"}"#)
            == ["friends([filter:ids:[1, 2],kind:A],first:3)"])
        // A variable left out inside an input object drops that input field.
        #expect(try fieldKeys(after: document, data: #"{"friends":[]}"#, variables: #"{"ids":[1,2]}"#)
            .contains("friends([filter:ids:[1, 2]],first:3)"))
    }

    @Test func namedAndInlineFragments() throws {
        let document = """
            query { hero { ...HeroName ... on Droid { primaryFunction } ... on Human { height } } }
            fragment HeroName on Character { name ...HeroId }
            fragment HeroId on Character { id }
            """
        let op = try cache.operation(document)
        let data = try Support.object(#"{"hero":{"__typename":"Droid","name":"R2-D2","id":"2001","primaryFunction":"Astromech"}}"#)
        try cache.write(data: data, for: op)
        #expect(Support.fields(cache.record("Droid:2001"))
            == ["__typename": "Droid", "name": "R2-D2", "id": "2001", "primaryFunction": "Astromech"])
        let read = try cache.read(op)
        #expect(read.complete)
        #expect(Support.canonical(read.data) == Support.canonical(.object(data)))
    }

    @Test func includeAndSkip() throws {
        let document = """
            query ($withName: Boolean!, $noId: Boolean!) {
              trip(id: 1) { id @skip(if: $noId) name @include(if: $withName) price @include(if: false) seats @skip(if: true) }
            }
            """
        let op = try cache.operation(document)
        try cache.write(data: try Support.object(#"{"trip":{"__typename":"Trip","id":"1","name":"Lisbon"}}"#), for: op,
                        variables: ["withName": true, "noId": false])
        #expect(Support.fields(cache.record("Trip:1")) == ["__typename": "Trip", "id": "1", "name": "Lisbon"])
        // Without the name, the response need not hold it and the read does not ask for it.
        let read = try cache.read(op, variables: ["withName": false, "noId": false])
        #expect(read.complete)
        #expect(read.data?["trip"]?["name"] == nil)
        #expect(read.data?["trip"]?["id"] == "1")
        // A required condition variable left out is an error that names it.
        #expect(throws: CacheError.variable(.init(variable: "withName", path: "", problem: "missing; the operation requires $withName: Boolean!"))) {
            try cache.read(op, variables: ["noId": false])
        }
    }

    /// A variable absent or null counts as false, as Apollo iOS's executor has it: `@skip`
    /// keeps its selection, `@include` drops it. ``InclusionCondition`` decides it for the
    /// engine and for the generated types' type cases alike.
    @Test func anAbsentOrNullConditionVariableIsFalse() throws {
        let op = try cache.operation("query ($brief: Boolean) { trip(id: 1) { id name @skip(if: $brief) price @include(if: $brief) } }")
        for variables: CacheObject in [[:], ["brief": .null]] {
            try cache.write(data: try Support.object(#"{"trip":{"__typename":"Trip","id":"1","name":"Lisbon"}}"#), for: op, variables: variables)
            let read = try cache.read(op, variables: variables)
            #expect(read.complete && read.data?["trip"]?["name"] == "Lisbon" && read.data?["trip"]?["price"] == nil)
        }
        #expect(InclusionCondition(generated: "brief").holds(nil) == false)
        #expect(InclusionCondition(generated: "!brief").holds(nil) == true)
        #expect(InclusionCondition(generated: "!brief") == InclusionCondition(include: false, variable: "brief"))
        #expect(InclusionCondition(include: true, variable: "brief").holds(true))
    }

    @Test func includeOnFragments() throws {
        let op = try cache.operation("query ($more: Boolean!) { trip(id: 1) { id ... on Trip @include(if: $more) { name } ...More @skip(if: $more) } } fragment More on Trip { price }")
        try cache.write(data: try Support.object(#"{"trip":{"__typename":"Trip","id":"1","name":"Lisbon"}}"#), for: op, variables: ["more": true])
        #expect(cache.record("Trip:1")?["name"] == "Lisbon")
        #expect(cache.record("Trip:1")?["price"] == nil)
        try cache.write(data: try Support.object(#"{"trip":{"__typename":"Trip","id":"1","price":12}}"#), for: op, variables: ["more": false])
        #expect(cache.record("Trip:1")?["price"] == 12)
    }

    @Test func typenameIsAddedBelowTheRootOnly() throws {
        let op = try cache.operation("{ hero { name friends { name } } count }")
        #expect(op.selections.fields.map(\.responseKey) == ["hero", "count"])
        let hero = op.selections.fields[0].selections
        #expect(hero?.fields.map(\.responseKey) == ["__typename", "name", "friends"])
        #expect(hero?.fields[2].selections?.fields.map(\.responseKey) == ["__typename", "name"])
        // Written and read back although the document did not ask for it.
        try cache.write(data: try Support.object(#"{"hero":{"__typename":"Human","id":"1","name":"Luke","friends":[]},"count":1}"#), for: op)
        #expect(cache.record("Human:1")?["__typename"] == "Human")
        #expect(cache.record("QUERY_ROOT")?["__typename"] == nil)
        #expect(try cache.read(op).data?["hero"]?["__typename"] == "Human")
        // An explicit __typename is not doubled.
        let explicit = try cache.operation("{ hero { name __typename } }")
        #expect(explicit.selections.fields[0].selections?.fields.map(\.responseKey) == ["name", "__typename"])
    }

    @Test func fieldsWithOneResponseKeyMerge() throws {
        let op = try cache.operation("{ hero { name } hero { id friends { name } } hero { friends { id } } }")
        #expect(op.selections.fields.count == 1)
        let hero = op.selections.fields[0].selections!
        #expect(hero.fields.map(\.responseKey) == ["__typename", "name", "id", "friends"])
        #expect(hero.fields[3].selections?.fields.map(\.responseKey) == ["__typename", "name", "id"])
    }

    @Test func conflictingFieldsAreRefused() {
        let sameAlias = compileError("{\n  hero(episode: JEDI) { name }\n  hero(episode: EMPIRE) { name }\n}")
        #expect(sameAlias?.message.contains("conflict") == true)
        #expect(sameAlias?.line == 3)
        #expect(sameAlias?.column == 3)
        let differentFields = compileError("{ a: name a: id }")
        #expect(differentFields?.message.contains("conflict") == true)
        #expect(differentFields?.line == 1)
        #expect(differentFields?.column == 11)
    }

    @Test func unknownFragment() {
        let error = compileError("{\n  hero {\n    ...Missing\n  }\n}")
        #expect(error?.message.contains("unknown fragment \"Missing\"") == true)
        #expect(error?.line == 3)
        #expect(error?.column == 5)
    }

    @Test func fragmentCycle() {
        let error = compileError("{ hero { ...A } }\nfragment A on Hero { name ...B }\nfragment B on Hero { id ...A }")
        #expect(error?.message.contains("spreads itself") == true)
        #expect(error?.line == 3)
        #expect(compileError("{ ...Self }\nfragment Self on Query { a ...Self }")?.message.contains("spreads itself") == true)
    }

    @Test func fragmentDefinedTwice() {
        #expect(compileError("{ ...A } fragment A on Query { a } fragment A on Query { b }")?.message.contains("defined twice") == true)
    }

    @Test func syntaxErrorsHaveAPlace() {
        let error = compileError("query {\n  hero {\n    name(\n  }\n}")
        #expect(error != nil)
        #expect(error?.line == 4)
        #expect(error?.column != nil)
        let unterminated = compileError("{ hero { name }")
        #expect(unterminated?.line == 1)
        #expect(compileError("") != nil)
        #expect(compileError("type Query { a: Int }")?.message.contains("schema") == true)
    }

    @Test func integerArgumentsBeyondInt64AreRefused() {
        let error = compileError("{ f(n: 9223372036854775808) }")
        #expect(error?.message.contains("64 bits") == true)
        #expect(error?.line == 1)
        #expect(error?.column == 8)
    }

    @Test func deepNestingIsRefusedWithAPlace() {
        let depth = 100_000
        let document = String(repeating: "{ a ", count: depth) + String(repeating: "}", count: depth)
        let error = compileError(document)
        #expect(error?.message.contains("nesting") == true)
        #expect(error?.line == 1)
        #expect(error?.column == 4 * GraphQLParserGuard.maxNesting + 1)
        let lists = "{ f(x: " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + ") }"
        #expect(compileError(lists)?.message.contains("nesting") == true)
        // Braces inside strings and comments do not count.
        #expect(compileError("{ f(s: \"" + String(repeating: "{", count: 1000) + "\") # " + String(repeating: "{", count: 1000) + "\n}") == nil)
    }

    /// Found by the `operation` fuzz target (Tests/Fuzz), this exact input: GraphQLSwift
    /// 4.3.0 reads the four digits of a `\u` escape past the end of the text, a trap. The
    /// compiler, and the schema reader, refuse such text before GraphQLSwift sees it.
    @Test func aUnicodeEscapeCutOffByTheEndIsRefused() {
        let error = compileError("\"}}}}\\u1\u{12}p")
        #expect(error?.message == "the text ends inside the escape \\u, which takes four hex digits")
        #expect(error?.line == 1)
        #expect(error?.column == 6)
        #expect(compileError("{ f(s: \"\\u")?.message.contains("escape \\u") == true)
        // Four digits before the end: GraphQLSwift reads them and finds the string unterminated.
        #expect(compileError("{ f(s: \"\\u00e9")?.message.contains("escape \\u") == false)
        // A string does not run on after its closing quote.
        #expect(compileError("{ f(s: \"\\\\\") u }") == nil)
        #expect(throws: OperationError("schema: the text ends inside the escape \\u, which takes four hex digits", line: 2, column: 2)) {
            try PossibleTypes(sdl: "type Query { a: Int }\n\"\\u12")
        }
    }

    /// Each fragment is shallow, but spreads nest them: the depth that counts is the sum.
    @Test func fragmentChainsAreBoundedLikeBraces() throws {
        func chain(_ count: Int) -> String {
            var document = "{ ...F0 }\n"
            for index in 0..<count { document += "fragment F\(index) on Query { f\(index) \(index + 1 < count ? "...F\(index + 1)" : "") }\n" }
            return document
        }
        let op = try cache.operation(chain(100))
        #expect(op.selections.fields.count == 100)
        for count in [200, 2_000, 100_000] {
            let error = compileError(chain(count))
            #expect(error?.message.contains("nest deeper") == true, "\(count)")
            #expect(error?.line == GraphQLParserGuard.maxNesting + 1, "\(count)")
        }
        // Nesting inside each fragment adds up too.
        var nested = "{ a { ...F0 } }\n"
        for index in 0..<50 { nested += "fragment F\(index) on A { b { c { d \(index + 1 < 50 ? "...F\(index + 1)" : "") } } }\n" }
        #expect(compileError(nested)?.message.contains("nest deeper") == true)
    }

    @Test func planIsCached() throws {
        let document = "query Trips { trips { id name } }"
        let first = try cache.operation(document)
        let second = try cache.operation(document)
        #expect(first === second)
        #expect(first.source == document)
        // Another document is another plan; so is the other operation of one document.
        #expect(try cache.operation(document + " ") !== first)
        let pair = "query A { a } query B { b }"
        #expect(try cache.operation(pair, name: "A") === (try cache.operation(pair, name: "A")))
        #expect(try cache.operation(pair, name: "A") !== (try cache.operation(pair, name: "B")))
        // Its named operations being compiled does not make the name optional.
        #expect(compileError(pair)?.message.contains("2 operations") == true)
        // The only operation of a document, compiled without its name, serves a request by name.
        let single = "query Only { a }"
        #expect(try cache.operation(single) === (try cache.operation(single, name: "Only")))
    }

    /// A document is compiled once per process: another cache gets the same plan, and
    /// interns its field keys into its own field-key interner when it first meets it
    /// (here at other ids than the first cache's, which had met other fields before).
    @Test func planIsSharedByCaches() throws {
        let document = "query Shared($id: ID!) { trip(id: $id) { id name } }"
        let other = try Support.cache()
        _ = try other.operation("{ weather { celsius wind } }")
        let op = try other.operation(document)
        #expect(try cache.operation(document) === op)
        let data = try Support.object(#"{"trip": {"__typename": "Trip", "id": "1", "name": "Porto"}}"#)
        try other.write(data: data, for: op, variables: ["id": "1"])
        try cache.write(data: data, for: op, variables: ["id": "1"])
        #expect(cache.record("Trip:1")?.keys.sorted() == ["__typename", "id", "name"])
        #expect(try cache.read(op, variables: ["id": "1"]).data == (try other.read(op, variables: ["id": "1"]).data))
    }

    /// What a server gets: `__typename` in every selection set below the root, once, in
    /// fields, fragments and after multi-byte text; the root and inline fragments stay as written.
    @Test func networkDocumentAddsTypename() throws {
        let document = """
            query Trip($id: ID!) { trip(id: $id, note: "café") { id ...Header owner { __typename name } \
            journeys { from { ... on Station { name } } } } }
            fragment Header on Trip { name }
            """
        #expect(try cache.operation(document).networkDocument == """
            query Trip($id: ID!) { trip(id: $id, note: "café") { __typename id ...Header owner { __typename name } \
            journeys { __typename from { __typename ... on Station { name } } } } }
            fragment Header on Trip { __typename name }
            """)
        #expect(try cache.operation("{ a }").networkDocument == "{ a }")
    }

    /// Apollo iOS's client-only directives stay home, as apollo-ios-codegen leaves them out
    /// of what it sends; `@defer` and the rest go to the server as written.
    @Test func networkDocumentLeavesOutClientOnlyDirectives() throws {
        let document = """
            query Pets @apollo_client_ios_localCacheMutation @import(module: "Café") { pets { ...Details ... on Dog @defer(label: "d") { bark } } }
            fragment Details on Pet @import(module: "A") @import(module: "B") { name }
            """
        let sent = try cache.operation(document).networkDocument
        #expect(sent == """
            query Pets { pets { __typename ...Details ... on Dog @defer(label: "d") { bark } } }
            fragment Details on Pet { __typename name }
            """)
    }
}
