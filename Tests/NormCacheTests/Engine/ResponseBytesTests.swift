import Foundation
import Testing
@testable import NormCache

/// A response written from its JSON bytes (``NormalizedCache/write(responseJSON:for:variables:schema:cause:)``)
/// behaves exactly as the same text parsed (``JSON/parse(bytes:references:)``) and written
/// as a tree (``NormalizedCache/write(response:for:variables:schema:cause:)``): the same
/// records, warnings, changes and learned types, or the same error with the cache left as
/// it was. Each case is written both ways into caches that already hold a record.
@Suite struct ResponseBytesTests {
    /// One response for one operation, and what writing it does.
    struct Case: Sendable, CustomTestStringConvertible {
        enum Expected: Sendable {
            case written
            /// Refused with an error whose text holds this.
            case refused(String)
            /// Written or refused: only the two ways must agree.
            case either
        }

        let name: String
        let operation: String
        let response: [UInt8]
        let expected: Expected
        let variables: String
        /// The endpoint's SDL, given to the write as its schema knowledge.
        let schema: String?
        let policies: TypePolicies?

        init(_ name: String, _ operation: String, bytes response: [UInt8], _ expected: Expected,
             variables: String = "{}", schema: String? = nil, policies: TypePolicies? = nil) {
            self.name = name
            self.operation = operation
            self.response = response
            self.expected = expected
            self.variables = variables
            self.schema = schema
            self.policies = policies
        }

        init(_ name: String, _ operation: String, _ response: String, _ expected: Expected,
             variables: String = "{}", schema: String? = nil, policies: TypePolicies? = nil) {
            self.init(name, operation, bytes: Array(response.utf8), expected, variables: variables, schema: schema, policies: policies)
        }

        var testDescription: String { name }
    }

    /// What came of one write. Text is kept as UTF-8 bytes, compared byte for byte:
    /// Swift's `==` on strings takes canonically equivalent text as equal (`"\u{212A}"` for `"K"`).
    struct Outcome: Equatable {
        var error: CacheError?
        var errorText: [UInt8] = []
        var changes: [UInt8] = []
        var warnings: [UInt8] = []
        var records: [UInt8] = []
        var possibleTypes = PossibleTypes()
        /// Whether the records and learned types are those from before the write.
        var unchanged = false
    }

    typealias Writer = (NormalizedCache, CompiledOperation, CacheObject, SchemaKnowledge?) throws(CacheError) -> Changes

    /// The response parsed into a tree, then written.
    static func viaTree(_ bytes: [UInt8]) -> Writer {
        { cache, operation, variables, schema throws(CacheError) in
            let parsed = bytes.withUnsafeBufferPointer { bytes in Result { () throws(JSONError) in try JSON.parse(bytes: bytes) } }
            switch parsed {
            case .success(let response): return try cache.write(response: response, for: operation, variables: variables, schema: schema)
            case .failure(let error): throw .json(error)
            }
        }
    }

    /// The response written from its bytes, handed over as `bytes` makes them.
    static func viaBytes<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Writer {
        { cache, operation, variables, schema throws(CacheError) in
            try cache.write(responseJSON: bytes, for: operation, variables: variables, schema: schema)
        }
    }

    /// The response read once into a ``JSONText``, as a transport hands it to the client,
    /// then written from its tape.
    static func viaText(_ bytes: [UInt8]) -> Writer {
        { cache, operation, variables, schema throws(CacheError) in
            let text: JSONText
            do throws(JSONError) { text = try JSONText(bytes: bytes) } catch { throw .json(error) }
            return try cache.write(response: text, for: operation, variables: variables, schema: schema)
        }
    }

    /// Writes `test`'s response with `write` into a fresh cache that holds one trip already.
    static func outcome(of test: Case, _ write: Writer) throws -> Outcome {
        let cache = try Support.cache()
        if let policies = test.policies { cache.typePolicies = policies }
        try cache.write(response: try JSON.parse(#"{"data":{"trip":{"__typename":"Trip","id":"1","name":"Lisbon"}}}"#),
                        for: try cache.operation("{ trip(id: 1) { id name } }"))
        _ = cache.takeWarnings()
        let before = (JSON.utf8(cache.extract(), sortedKeys: true), cache.possibleTypes)
        let operation = try cache.operation(test.operation)
        let schema = try test.schema.map { SchemaKnowledge(possibleTypes: try PossibleTypes(sdl: $0)) }
        let variables = try Support.object(test.variables)
        var outcome = Outcome()
        do { outcome.changes = Array(try write(cache, operation, variables, schema).keys.joined(separator: "\n").utf8) }
        catch {
            outcome.error = error
            outcome.errorText = Array("\(error)".utf8)
        }
        outcome.warnings = Array(cache.takeWarnings().joined(separator: "\n").utf8)
        outcome.records = JSON.utf8(cache.extract(), sortedKeys: true)
        outcome.possibleTypes = cache.possibleTypes
        outcome.unchanged = (outcome.records, outcome.possibleTypes) == before
        return outcome
    }

    /// Both ways give one outcome, the one `test` expects.
    static func expectAlike(_ test: Case, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let tree = try outcome(of: test, viaTree(test.response))
        let bytes = try outcome(of: test, viaBytes(test.response))
        let text = try outcome(of: test, viaText(test.response))
        #expect(bytes == tree, "\(test.name)", sourceLocation: sourceLocation)
        #expect(text == tree, "\(test.name), from a JSONText", sourceLocation: sourceLocation)
        switch test.expected {
        case .written:
            #expect(tree.error == nil, "\(test.name): \(tree.error.map { "\($0)" } ?? "")", sourceLocation: sourceLocation)
        case .refused(let words):
            let text = tree.error.map { "\($0)" } ?? "written"
            #expect(text.contains(words), "\(test.name): \(text)", sourceLocation: sourceLocation)
            #expect(tree.unchanged && tree.changes.isEmpty, "\(test.name) left a trace", sourceLocation: sourceLocation)
        case .either: break
        }
    }

    @Test(arguments: cases) func bytesWriteAsTheTreeDoes(_ test: Case) throws {
        try Self.expectAlike(test)
    }

    static let cases = keys + selections + shapes + StarWars.cases + wide + duplicates + equivalentNames + malformed

    static let trip = "{ trip(id: 1) { id name } }"

    static func policies(defaultKeyFields: [String] = ["id"], _ types: [String: TypePolicies.Policy] = [:]) -> TypePolicies {
        var policies = TypePolicies()
        policies.defaultKeyFields = defaultKeyFields
        for (type, policy) in types { policies[type] = policy }
        return policies
    }

    static let keys: [Case] = [
        Case("entity keys", #"{ hero(episode: JEDI) { id name } human(id: "1000") { id name } }"#,
             #"{"data":{"hero":{"__typename":"Human","id":"1000","name":"Luke"},"human":{"__typename":"Human","id":"1000","name":"Luke"}}}"#, .written),
        Case("path keys", "{ hero(episode: JEDI) { name friends { name } } }",
             #"{"data":{"hero":{"__typename":"Human","id":"1000","name":"Luke","friends":[{"__typename":"Human","name":"Han"},{"__typename":"Droid","name":"R2"}]}}}"#,
             .written, policies: policies(defaultKeyFields: [])),
        Case("path keys below an entity, lists of lists", "{ hero { id stats { score best { score } } grid { v } } }", """
             {"data":{"hero":{"__typename":"Human","id":"1000","stats":{"__typename":"Stats","score":42,"best":{"__typename":"Stats","score":50}},
               "grid":[[{"__typename":"Cell","v":1}],[null,{"__typename":"Cell","v":2}],[]]}}}
             """, .written, policies: policies(["Stats": .notNormalized])),
        Case("ids with escapes and non-ASCII", "{ items { id name } }", #"""
             {"data":{"items":[{"__typename":"Item","id":"a\"b","name":"q\\uote"},{"__typename":"Item","id":"é","name":"plain"},
               {"__typename":"Item","id":"\u00e9","name":"escaped, the same record"},{"__typename":"It\u0065m","id":"\ud83d\ude00","name":"\t\/\b\f\n\r"},
               {"__typename":"Item","id":"😀","name":"the surrogate pair's record"},{"__typename":"Item","id":"e\u0301","name":"decomposed"},
               {"__typename":"Item","id":"","name":"empty"}]}}
             """#, .written),
        Case("several key fields, escaped", "{ seats { flight number row } }", #"""
             {"data":{"seats":[{"__typename":"Seat","flight":"LH123","number":"14C","row":14},
               {"__typename":"Seat","flight":"A+B","number":"c\\d","row":1},{"__typename":"Seat","flight":"X","number":7,"row":2},
               {"__typename":"Seat","flight":"\u00c5","number":1.5,"row":3},{"__typename":"Seat","flight":"Y","number":true,"row":4}]}}
             """#, .written, policies: policies(["Seat": .keyFields(["flight", "number"])])),
        Case("key values of every kind", "{ omegas { id } }", """
             {"data":{"omegas":[{"__typename":"Omega","id":true},{"__typename":"Omega","id":null},{"__typename":"Omega","id":[1]},
               {"__typename":"Omega","id":{"a":1}},{"__typename":"Omega","id":42},{"__typename":"Omega","id":2.5},{"__typename":"Omega","id":-0},
               {"__typename":"Omega","id":1e2},{"__typename":"Omega","id":-9223372036854775808},{"__typename":"Omega","id":0.1},
               {"__typename":"Omega","id":1E-7},{"__typename":"Omega","id":-0.0}]}}
             """, .written),
        Case("a key group", "{ a: node(id: 42) { id name } b: node(id: 43) { id name } }",
             #"{"data":{"a":{"__typename":"Human","id":"42","name":"Luke"},"b":{"__typename":"Droid","id":"43","name":"R2"}}}"#, .written,
             policies: policies(["Human": .keyFields(["id"], group: "Node"), "Droid": .keyFields(["id"], group: "Node")])),
        Case("an id holding NUL", "{ items { id } }", #"{"data":{"items":[{"__typename":"Item","id":"a\u0000"}]}}"#,
             .refused(#"data.items[0]: cannot build the entity key of "Item": text contains a NUL byte"#)),
        Case("long plain keys", "{ items { id } }", """
             {"data":{"items":[{"__typename":"Item","id":"1"},{"__typename":"Item","id":"\(String(repeating: "x", count: 300))"},{"__typename":"Item","id":"2"}]}}
             """, .written),
        Case("a record that changes type", "{ trip(id: 1) { id name } }", #"{"data":{"trip":{"__typename":"Flight","id":"1","name":"LH1"}}}"#,
             .written, policies: policies(["Flight": .keyFields(["id"], group: "Trip")])),
    ]

    static let heroWithFragment = """
        query HeroWithFragment { hero { __typename name ...GivenFragment } }
        fragment GivenFragment on Character { __typename name ... on Droid { primaryFunction } }
        """
    static let characters = """
        interface Character { name: String! }
        type Human implements Character { name: String! }
        type Droid implements Character { name: String! primaryFunction: String }
        type Query { hero: Character }
        """
    static let undecidedNick = """
        { people { __typename ...NamedNick ... on Crew { nick { short long } } } }
        fragment NamedNick on Named { nick { short } }
        """
    static let tripSchema = """
        enum Kind { CITY BEACH }
        scalar Date
        type Trip { id: ID! seats: Int! price: Float scores: [Int!] kind: Kind starts: Date open: Boolean name: String }
        type Query { trip: Trip trips: [Trip!]! }
        """

    static let selections: [Case] = [
        Case("aliases", "{ trip(id: 1) { tripID: id title: name label: name } }",
             #"{"data":{"trip":{"__typename":"Trip","tripID":"1","title":"Lisbon","label":"Porto"}}}"#, .written),
        Case("members in any order", "{ trip(id: 1) { id name owner { id name } price } }",
             #"{"data":{"trip":{"price":12,"owner":{"name":"Ada","id":"7","__typename":"User"},"name":"Lisbon","__typename":"Trip","id":"1"}}}"#, .written),
        Case("members in any order, errors first", trip, #"{"errors":[],"data":{"trip":{"name":"Porto","id":"1","__typename":"Trip"}},"extensions":{"a":1}}"#, .written),
        Case("a fragment on an interface, nothing known", heroWithFragment,
             #"{"data":{"hero":{"__typename":"Droid","name":"R2-D2","primaryFunction":"Protocol"}}}"#, .written),
        Case("a fragment that does not apply, nothing known", heroWithFragment, #"{"data":{"hero":{"__typename":"Human","name":"Luke"}}}"#, .written),
        Case("a fragment on an interface with a schema", heroWithFragment,
             #"{"data":{"hero":{"__typename":"Droid","name":"R2-D2","primaryFunction":"Protocol"}}}"#, .written, schema: characters),
        Case("a field the schema rules out", heroWithFragment, #"{"data":{"hero":{"__typename":"Human","name":"Luke","primaryFunction":"Jedi"}}}"#,
             .refused("data.hero.primaryFunction: the response has \"primaryFunction\""), schema: characters),
        Case("a fragment whose type is an interface of the object's", "{ all_people { name __typename ...F } } fragment F on Character { side }",
             #"{"data":{"all_people":[{"name":"Luke","__typename":"Person","side":"light"},{"name":"Vader","__typename":"Person","side":"dark"}]}}"#, .written),
        Case("inline fragments on a union", "{ search { ... on Human { id name } ... on Droid { id primaryFunction } ... on Starship { id length } } }", """
             {"data":{"search":[{"__typename":"Human","id":"1","name":"Luke"},{"__typename":"Droid","id":"2","primaryFunction":"P"},
               {"__typename":"Starship","id":"3","length":1.5},{"__typename":"Planet"}]}}
             """, .written),
        Case("a field under fragments nothing decides", "{ search { ... on Human { id name } ... on Droid { id primaryFunction } } }",
             #"{"data":{"search":[{"__typename":"Human","id":"1","name":"Luke"},{"__typename":"Planet","id":"4"}]}}"#, .written),
        Case("a value that fits the selection of a fragment nothing decides", undecidedNick,
             #"{"data":{"people":[{"__typename":"Passenger","nick":{"short":"Al"}},{"__typename":"Crew","nick":{"short":"Bo","long":"Bob"}}]}}"#, .written),
        Case("a value that fits no fragment nothing decides", undecidedNick, #"{"data":{"people":[{"__typename":"Passenger","nick":{"long":"Alfred"}}]}}"#,
             .refused(#"data.people[0].nick.short: missing field "short" ("nick" is selected only under type conditions nothing says a Passenger satisfies"#)),
        Case("@include and @skip", "query ($a: Boolean!, $b: Boolean!) { trip(id: 1) { id name @include(if: $a) price @skip(if: $b) seats @include(if: $b) } }",
             #"{"data":{"trip":{"__typename":"Trip","id":"1","price":3,"seats":4}}}"#, .written, variables: #"{"a":false,"b":true}"#),
        Case("nested lists of objects and of scalars", "{ trip(id: 1) { id grid { v } tags matrix } }", """
             {"data":{"trip":{"__typename":"Trip","id":"1","grid":[[{"__typename":"Cell","v":1}],[null,{"__typename":"Cell","v":[2,[3]]}]],
               "tags":["a","b\\u00e9"],"matrix":[[1,2.5,-3e3],[],[null,true,false,"x",{"o":[]}]]}}}
             """, .written),
        Case("custom scalars holding objects and lists", "{ trip(id: 1) { id meta when } }", #"""
             {"data":{"trip":{"__typename":"Trip","id":"1","meta":{"a":[1,{"b":null}],"\u00e9":"é","":{},"x":{"y":{"z":[[],{}]}}},"when":[{"id":"2","__typename":"Trip"}]}}}
             """#, .written),
        Case("a record met twice", "{ trips { id name price } }", """
             {"data":{"trips":[{"__typename":"Trip","id":"1","name":"Lisbon","price":10},{"__typename":"Trip","id":"1","name":"Porto","price":10}]}}
             """, .written),
        Case("an object nested in itself", "{ user(id: 1) { id name best { id name nick } nick } }", """
             {"data":{"user":{"__typename":"User","id":"1","name":"Ada","best":{"__typename":"User","id":"1","name":"Lovelace","nick":"L"},"nick":"A"}}}
             """, .written),
        Case("a mutation", #"mutation { renameTrip(id: 1, name: "Porto") { id name } }"#,
             #"{"data":{"renameTrip":{"__typename":"Trip","id":"1","name":"Porto"}}}"#, .written),
        Case("values that fit the schema", "{ trip { id seats price scores kind starts open name } }", """
             {"data":{"trip":{"__typename":"Trip","id":"1","seats":2.0,"price":3,"scores":[1],"kind":"CRUISE","starts":{"y":2025},"open":true,"name":"L"}}}
             """, .written, schema: tripSchema),
        Case("a schema misfit inside a list", "{ trip { id scores } }", #"{"data":{"trip":{"__typename":"Trip","id":"1","scores":[1,null]}}}"#,
             .refused("data.trip.scores[1]: the schema's Trip.scores is [Int!], not null"), schema: tripSchema),
        Case("a schema misfit in a list of objects", "{ trips { id seats } }", """
             {"data":{"trips":[{"__typename":"Trip","id":"1","seats":1},{"__typename":"Trip","id":"2","seats":3000000000}]}}
             """, .refused("data.trips[1].seats: the schema's Trip.seats is Int!, not 3000000000"), schema: tripSchema),
        Case("a misfit allowed beside errors", "{ trip { id seats } }", #"{"data":{"trip":{"__typename":"Trip","id":"1","seats":null}},"errors":[{}]}"#,
             .written, schema: tripSchema),
    ]

    static let shapes: [Case] = [
        Case("partial data with errors", "{ trip(id: 1) { id name price } }",
             #"{"data":{"trip":{"__typename":"Trip","id":"1","name":"Porto"}},"errors":[{"message":"price failed","path":["trip","price"]}]}"#, .written),
        Case("missing data without errors", "{ trip(id: 1) { id name price } }", #"{"data":{"trip":{"__typename":"Trip","id":"1","name":"Porto"}}}"#,
             .refused(#"data.trip.price: missing field "price""#)),
        Case("an empty errors list is no errors", "{ trip(id: 1) { id name price } }",
             #"{"data":{"trip":{"__typename":"Trip","id":"1","name":"Porto"}},"errors":[]}"#, .refused(#"missing field "price""#)),
        Case("errors null", trip, #"{"data":{"trip":{"__typename":"Trip","id":"1"}},"errors":null}"#, .refused(#"missing field "name""#)),
        Case("a missing field deep in a list", "{ trips { id name } }", """
             {"data":{"trips":[{"__typename":"Trip","id":"1","name":"a"},{"__typename":"Trip","id":"2","name":"b"},{"__typename":"Trip","id":"3","name":"c"},{"__typename":"Trip","id":"4"}]}}
             """, .refused(#"data.trips[3].name: missing field "name""#)),
        Case("data null", trip, #"{"data":null,"errors":[{"message":"down"}]}"#, .written),
        Case("data absent", trip, #"{"errors":[{"message":"down"}]}"#, .written),
        Case("an empty response", trip, "{}", .written),
        Case("a list", trip, "[]", .refused("a response must be a JSON object, not a list")),
        Case("a string", trip, #""data""#, .refused("a response must be a JSON object, not a string")),
        Case("null", trip, "null", .refused("a response must be a JSON object, not null")),
        Case("data a list", trip, #"{"data":[]}"#, .refused(#"a response's "data" must be an object, not a list"#)),
        Case("data a number", trip, #"{"data":1.5}"#, .refused(#"a response's "data" must be an object, not a float"#)),
        Case("errors an object", trip, #"{"data":{},"errors":{}}"#, .refused(#"a response's "errors" must be a list, not an object"#)),
        Case("errors a string", trip, #"{"errors":"x"}"#, .refused(#"a response's "errors" must be a list, not a string"#)),
        Case("__typename not a string", trip, #"{"data":{"trip":{"__typename":5,"id":"1","name":"x"}}}"#,
             .refused("data.trip.__typename: __typename is an integer, not a string")),
        Case("__typename null", trip, #"{"data":{"trip":{"__typename":null,"id":"1","name":"x"}}}"#, .written),
        Case("a scalar where an object belongs", "{ trip(id: 1) { id owner { id } } }", #"{"data":{"trip":{"__typename":"Trip","id":"1","owner":"Ada"}}}"#,
             .refused(#"expected an object or null for "owner", found a string"#)),
        Case("a list of scalars where objects belong", "{ trips { id } }", #"{"data":{"trips":[{"__typename":"Trip","id":"1"},7]}}"#,
             .refused("data.trips[1]")),
    ]

    /// The Apollo iOS 1.25.7 fixture's three exchanges, keyed as Apollo iOS was, with and without its schema.
    enum StarWars {
        static var cases: [Case] {
            let policies = ResponseBytesTests.policies(defaultKeyFields: [], ["Human": .keyFields(["id"]), "Droid": .keyFields(["id"]), "Starship": .keyFields(["id"])])
            return StarWarsFixture.exchanges.enumerated().flatMap { index, exchange in [
                Case("Star Wars \(index) with its schema", exchange.operation, exchange.response, .written, variables: exchange.variables,
                     schema: StarWarsFixture.schema, policies: policies),
                Case("Star Wars \(index), no schema, default keys", exchange.operation, exchange.response, .written,
                     variables: exchange.variables.replacingOccurrences(of: #""max":30"#, with: #""max":30.0"#)),
            ] }
        }
    }

    /// `count` members `"f0":0`, `"f1":1`, … (and `extra` after them), as JSON object text.
    static func wideObject(_ count: Int, extra: String = "") -> String {
        "{" + (0..<count).map { #""f\#($0)":\#($0)"# }.joined(separator: ",") + extra + "}"
    }

    /// A selection of `count` fields `f0` … and a response whose objects carry them.
    static let wideSelection = "{ wides { id " + (0..<20).map { "f\($0)" }.joined(separator: " ") + " } }"
    static func wides(_ objects: [String]) -> String {
        #"{"data":{"wides":["# + objects.map { #"{"__typename":"W","id":"1","# + $0.dropFirst() }.joined(separator: ",") + "]}}"
    }

    static let wide: [Case] = [
        Case("a custom scalar of 40,000 members", "{ trip(id: 1) { id meta } }",
             #"{"data":{"trip":{"__typename":"Trip","id":"1","meta":\#(wideObject(40_000))}}}"#, .written),
        Case("objects of over 16 members, each its shape", wideSelection, wides([wideObject(20), wideObject(20), wideObject(20, extra: #","g":1"#)]), .written),
        Case("objects of over 16 members that differ", wideSelection,
             wides([wideObject(20, extra: #","g":1"#), "{" + (0..<20).reversed().map { #""f\#($0)":0"# }.joined(separator: ",") + "}"]), .written),
    ]

    static let duplicates: [Case] = [
        Case("a duplicate member", trip, #"{"data":{"trip":{"__typename":"Trip","id":"1","id":"2","name":"x"}}}"#, .refused(#"duplicate member "id""#)),
        Case("a duplicate data", trip, #"{"data":{},"data":{}}"#, .refused(#"duplicate member "data""#)),
        Case("a duplicate written with an escape", trip, #"{"data":{"trip":{"__typename":"Trip","id":"1","\u0069d":"2","name":"x"}}}"#,
             .refused(#"duplicate member "id""#)),
        Case("a duplicate in the second object of a list", "{ trips { id } }",
             #"{"data":{"trips":[{"__typename":"Trip","id":"1"},{"__typename":"Trip","__typename":"Trip","id":"1"}]}}"#, .refused("duplicate member \"__typename\"")),
        Case("a duplicate after an object's shape", "{ trips { id } }",
             #"{"data":{"trips":[{"__typename":"Trip","id":"1"},{"__typename":"Trip","id":"1","id":"2"}]}}"#, .refused(#"column 88 (data.trips[1]): duplicate member "id""#)),
        Case("a duplicate in a wide custom scalar", "{ trip(id: 1) { id meta } }",
             #"{"data":{"trip":{"__typename":"Trip","id":"1","meta":\#(wideObject(40_000, extra: #","f39999":0"#))}}}"#, .refused(#"duplicate member "f39999""#)),
        Case("a duplicate past 16 members", wideSelection, wides([wideObject(20, extra: #","f\u0031\u0037":0"#)]), .refused(#"duplicate member "f17""#)),
        Case("a duplicate after a wide shape", wideSelection, wides([wideObject(20), wideObject(20, extra: #","f3":0"#)]), .refused(#"duplicate member "f3""#)),
        Case("a duplicate after a wide object differs", wideSelection,
             wides([wideObject(20), "{" + (0..<20).reversed().map { #""f\#($0)":0"# }.joined(separator: ",") + #","f19":1}"#]), .refused(#"duplicate member "f19""#)),
    ]

    /// A response with something of every kind, to cut short and break.
    static let sample = #"{"data":{"trip":{"__typename":"Trip","id":"\u00e9\"1","name":"Lisboa é","price":-12.5e1,"tags":[true,null,0]}}}"#
    static let sampleOperation = "{ trip(id: 1) { id name price tags } }"

    static let malformed = badText.map { Case($0.name, trip, $0.text, .refused($0.words)) }
        + badBytes.map { Case($0.name, trip, bytes: $0.bytes, .refused("invalid JSON at line 1")) } + edges

    /// JSON text refused, with words of the error.
    static let badText: [(name: String, text: String, words: String)] = [
        ("empty input", "", "empty input"), ("only whitespace", " \n\t", "empty input"),
        ("cut short in a name", #"{"data":{"na"#, "unterminated string"), ("cut short after a value", #"{"data":null"#, "expected ',' or '}'"),
        ("cut short in a list", #"{"errors":[1,"#, "unexpected end of input"), ("cut short in a word", #"{"data":nul"#, "expected a value"),
        ("trailing garbage", #"{"data":null} x"#, "unexpected 'x' after the value"), ("two documents", #"{}{}"#, "after the value"),
        ("a trailing comma", #"{"data":null,}"#, "expected a member name"), ("a trailing comma in a list", #"{"errors":[1,]}"#, "expected a value"),
        ("a missing colon", #"{"data" null}"#, "expected ':'"), ("a name not in quotes", #"{data:null}"#, "expected a member name"),
        ("single quotes", "{'data':null}", "expected a member name"), ("a comment", "{} // done", "after the value"),
        ("a bad escape", #"{"data":{"trip":{"__typename":"Trip","id":"\x","name":"a"}}}"#, "invalid escape"),
        ("a short \\u escape", #"{"errors":["\u12"]}"#, "invalid hex digit"), ("a \\u escape cut short", #"{"errors":["\u12"#, "truncated \\u escape"),
        ("a lone high surrogate", #"{"errors":["\uD800"]}"#, "unpaired surrogate"), ("a lone low surrogate", #"{"errors":["\udc00"]}"#, "unpaired surrogate"),
        ("a high surrogate and no low one", #"{"errors":["\ud800\u0041"]}"#, "unpaired surrogate"),
        ("a raw tab in a string", "{\"errors\":[\"a\tb\"]}", "control character"), ("a raw newline in a name", "{\"da\nta\":null}", "control character"),
        ("a NUL byte", "{\"data\":null}\0", "after the value"),
        ("a leading zero", #"{"data":{"trip":{"__typename":"Trip","id":01,"name":"a"}}}"#, "leading zero"),
        ("a negative leading zero", #"{"errors":[-01]}"#, "leading zero"), ("a lone minus", #"{"errors":[-]}"#, "a digit after '-'"),
        ("a plus", #"{"errors":[+1]}"#, "expected a value"), ("a bare fraction", #"{"errors":[.5]}"#, "expected a value"),
        ("no digits after the point", #"{"errors":[1.]}"#, "digits after '.'"), ("no exponent digits", #"{"errors":[1e]}"#, "exponent"),
        ("an integer over 64 bits", #"{"data":{"trip":{"__typename":"Trip","id":9223372036854775808,"name":"a"}}}"#, "does not fit in 64 bits"),
        ("an integer under 64 bits", #"{"errors":[-9223372036854775809]}"#, "does not fit in 64 bits"),
        ("a float out of range", #"{"errors":[1e400]}"#, "out of range"),
        ("True", #"{"data":True}"#, "expected a value"), ("a byte order mark", "\u{FEFF}{}", "expected a value"),
        ("nesting over the limit", #"{"data":{"trip":{"__typename":"Trip","id":"1","name":"# + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "}}}",
         "nesting deeper than 512"),
    ]

    static let badBytes: [(name: String, bytes: [UInt8])] = [
        ("an invalid byte in a value", Array(#"{"data":{"trip":{"__typename":"Trip","id":"1","name":""#.utf8) + [0xFF] + Array(#""}}}"#.utf8)),
        ("an invalid byte in a name", Array(#"{"data":{"trip":{"__typename":"Trip","id":"1","na"#.utf8) + [0xC3] + Array(#"me":"a"}}}"#.utf8)),
        ("an overlong encoding", Array(#"{"errors":[""#.utf8) + [0xC0, 0xAF] + Array(#""]}"#.utf8)),
        ("an encoded surrogate", Array(#"{"errors":[""#.utf8) + [0xED, 0xA0, 0x80] + Array(#""]}"#.utf8)),
        ("an invalid byte after an escape", Array(#"{"errors":["\n"#.utf8) + [0xF8] + Array(#""]}"#.utf8)),
        ("an invalid byte outside strings", Array(#"{"data":"#.utf8) + [0xE9] + Array("}".utf8)),
    ]

    static let edges: [Case] = [
        Case("nesting just under the limit", "{ trip(id: 1) { id meta } }",
             #"{"data":{"trip":{"__typename":"Trip","id":"1","meta":"# + String(repeating: "[", count: 509) + String(repeating: "]", count: 509) + "}}}", .written),
        Case("numbers of every form", "{ trip(id: 1) { id meta } }",
             #"{"data":{"trip":{"__typename":"Trip","id":"1","meta":[0,-0,-0.0,1E+2,1.5e-3,1e-400,9223372036854775807,-9223372036854775808,5e-324,1.7976931348623157e308]}}}"#,
             .written),
        Case("lines and columns after multi-byte text", trip, "{\"data\":\n {\"trip\": {\"__typename\": \"Tr\u{00E9}p😀\", \"id\": \"1\",\n  \"name\": 01}}}", .refused("line 3, column 11")),
    ]

    /// Every prefix of a response, and the response with any one byte left out, write alike.
    @Test func cutAndBrokenResponsesWriteAlike() throws {
        let bytes = Array(Self.sample.utf8)
        try Self.expectAlike(Case("the sample", Self.sampleOperation, bytes: bytes, .written))
        for end in 0..<bytes.count {
            try Self.expectAlike(Case("the first \(end) bytes", Self.sampleOperation, bytes: Array(bytes[..<end]), .refused("invalid JSON")))
        }
        for gap in bytes.indices {
            var broken = bytes
            broken.remove(at: gap)
            try Self.expectAlike(Case("without byte \(gap): \(String(decoding: broken, as: UTF8.self))", Self.sampleOperation, bytes: broken, .either))
        }
    }

    /// The bytes may come in any collection: contiguous or not, each writes the same.
    @Test(arguments: [sample, #"{"data":{"trip":{"__typename":"Trip","id":"1","name":"x"}},"errors":[]}"#, #"{"data":{"trip":{"id":"1","id":"1"}}}"#, "", "{"])
    func anyCollectionOfBytes(_ text: String) throws {
        let test = Case(text, Self.sampleOperation, text, .either)
        let tree = try Self.outcome(of: test, Self.viaTree(test.response))
        let bytes = test.response
        let forms: [(String, Writer)] = [
            ("[UInt8]", Self.viaBytes(bytes)), ("Data", Self.viaBytes(Data(bytes))), ("String.UTF8View", Self.viaBytes(text.utf8)),
            ("a slice", Self.viaBytes(([0x20] + bytes + [0x20])[1..<bytes.count + 1])), ("not contiguous", Self.viaBytes(bytes.lazy.map { $0 })),
        ]
        for (form, write) in forms {
            #expect(try Self.outcome(of: test, write) == tree, "\(form)")
        }
    }

    /// A tape reads back as the value ``JSON/parse(bytes:references:)`` makes, member names
    /// byte for byte and in order, and refuses what it refuses with the same error.
    @Test func aTapeDecodesAsTheParserReads() throws {
        let documents = [
            "{}", "[]", "0", "-0", "-0.0", "1e2", "1E+2", "1.5e-3", "1e-400", "0.1", "123456789012345678", "9223372036854775807",
            "-9223372036854775808", "5e-324", "1.7976931348623157e308", "true", "false", "null", #""""#, #""\u0000""#, #""\ud83d\ude00""#,
            #""é e\u0301 \u212a K""#, #"{"a\"b":1,"\u00e9":2,"é\n":3,"":4,"\/":5,"e\u0301":6,"\u212a":7,"K":8}"#, #"{"a":{"b":[{"c":[[]]},{"c":{}}]}}"#,
            #"[{"a":1,"b":2},{"a":3,"b":4},{"b":5,"a":6},{"a":7},{"a":8,"b":9,"c":10},{}]"#, #"[{"a":1},{"\u0061":2},{"é":3},{"\u00e9":4},{"e\u0301":5},{"K":6},{"\u212a":7}]"#,
            Self.wideObject(40), "[\(Self.wideObject(20)),\(Self.wideObject(20)),\(Self.wideObject(17))]",
            Self.wideObject(40_000), String(repeating: "[", count: 512) + String(repeating: "]", count: 512),
            String(repeating: "[", count: 513) + String(repeating: "]", count: 513), #"{"a":[1,2,{"a":[1,2,{"a":3}]}]}"#, " \n[ 1 , { \"a\" : [ ] } ]\t",
        ].map { Array($0.utf8) } + Self.cases.map(\.response)
        for document in documents { Self.expectTapeAlike(document) }
    }

    static func expectTapeAlike(_ document: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        let parsed = document.withUnsafeBufferPointer { bytes in Result { () throws(JSONError) in try JSON.parse(bytes: bytes) } }
        let decoded = document.withUnsafeBufferPointer { bytes in
            Result { () throws(JSONError) in try JSONTape(reading: bytes).withRoot(text: bytes) { $0.decoded() } }
        }
        let text = String(decoding: document.prefix(200), as: UTF8.self)
        #expect(decoded == parsed, "\(text)", sourceLocation: sourceLocation)
        #expect((try? decoded.get()).map { JSON.utf8($0) } == (try? parsed.get()).map { JSON.utf8($0) }, "names byte for byte: \(text)",
                sourceLocation: sourceLocation)
        // What a transport hands over reads the same: the whole, its kind, and each member alone.
        let read = Result { () throws(JSONError) in try JSONText(bytes: document) }
        #expect(read.map { $0.decoded() } == parsed, "as a JSONText: \(text)", sourceLocation: sourceLocation)
        if case .success(let value) = parsed, case .success(let json) = read {
            #expect(json.kindDescription == value.kindDescription && json.isObject == (value.kindDescription == "an object"),
                    "kind of \(text)", sourceLocation: sourceLocation)
            for name in ["data", "errors", "a", "K", "é", "nothing"] {
                #expect(json.member(name) == value[name], "member \(name) of \(text)", sourceLocation: sourceLocation)
            }
        }
    }

    /// Member names that are equal as Swift strings (canonically equivalent: `é` and
    /// `e\u0301`, the Kelvin sign `\u212a` and `K`) but not as bytes, which is how JSON
    /// compares them (RFC 8259, 8.3): two members, not a duplicate, each kept as sent.
    static let equivalentNames: [Case] = [
        Case("two names equal as text, not as bytes", "{ trip(id: 1) { id meta } }",
             #"{"data":{"trip":{"__typename":"Trip","id":"1","meta":{"é":1,"e\u0301":2}}}}"#, .written),
        // The parser shares an object's names with the last object of its depth once a few
        // objects are read: the sixth and eighth here.
        Case("objects of a list whose names are equal as text, not as bytes", "{ trip(id: 1) { id meta } }",
             #"{"data":{"trip":{"__typename":"Trip","id":"1","meta":[{"K":0},{"K":0},{"K":0},{"K":0},{"K":1},{"\u212a":2},{"é":3},{"e\u0301":4}]}}}"#,
             .written),
        // Looked up by field name, a member is found as Swift compares strings, from a tree
        // and from a tape alike (no GraphQL server sends such a name).
        Case("a member whose name is a field's as text, not as bytes", "{ trip(id: 1) { id Kind } }",
             #"{"data":{"trip":{"__typename":"Trip","id":"1","\u212aind":"x"}}}"#, .written),
    ]
}
