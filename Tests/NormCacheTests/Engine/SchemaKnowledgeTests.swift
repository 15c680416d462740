import Testing
@testable import NormCache

/// Schema knowledge belongs to the endpoint it came from: each read, write and watcher
/// goes by the knowledge it is given, a field the response carries is never dropped, and
/// where nothing is known the response's `__typename` and fields teach.
@Suite struct SchemaKnowledgeTests {
    let cache: NormalizedCache

    init() throws { cache = try Support.cache() }

    static let heroWithFragment = """
        query HeroWithFragment { hero { __typename name ...GivenFragment } }
        fragment GivenFragment on Character { __typename name ... on Droid { primaryFunction } }
        """
    static let droid = #"{"hero":{"__typename":"Droid","name":"R2-D2","primaryFunction":"Protocol"}}"#

    /// Another endpoint's schema (a plugin's, with no Character and no Droid).
    static func tripsSchema() throws -> SchemaKnowledge {
        var knowledge = SchemaKnowledge(possibleTypes: try PossibleTypes(sdl: """
            interface Node { id: ID! }
            type Trip implements Node { id: ID! name: String! destination: Airport }
            type Airport { code: String! name: String! }
            type Query { trips: [Trip!]! }
            """))
        knowledge.typePolicies["Airport"] = .keyFields(["code"])
        return knowledge
    }

    /// Apollo iOS's own test case: with no schema known for the endpoint, the fragment on
    /// Character applies to a Droid because the response carries its field.
    @Test func aFragmentOnAnInterfaceIsStoredWhenNothingIsKnown() throws {
        let op = try cache.operation(Self.heroWithFragment)
        try cache.write(data: try Support.object(Self.droid), for: op)
        #expect(cache.record("QUERY_ROOT.hero")?["primaryFunction"] == "Protocol")
        let read = try cache.read(op)
        #expect(read.complete)
        #expect(Support.canonical(read.data) == Support.canonical(try JSON.parse(Self.droid)))
        #expect(cache.possibleTypes.matches("Droid", condition: "Character"))
    }

    /// The bug: one endpoint's schema (which defines neither type) decided another's response.
    @Test func anotherEndpointsSchemaDoesNotDecide() throws {
        let op = try cache.operation(Self.heroWithFragment)
        let trips = try Self.tripsSchema()
        // A plugin's response, read and written with its schema, leaves the cache's own knowledge alone …
        let tripList = try cache.operation("{ trips { id name } }")
        try cache.write(data: try Support.object(#"{"trips":[{"__typename":"Trip","id":"1","name":"Lisbon"}]}"#), for: tripList, schema: trips)
        #expect(!cache.possibleTypes.fromSchema)
        // … so the HTTP endpoint's response, with no schema of its own, keeps every field.
        try cache.write(data: try Support.object(Self.droid), for: op)
        #expect(cache.record("QUERY_ROOT.hero")?["primaryFunction"] == "Protocol")
        #expect(try cache.read(op).data?["hero"]?["primaryFunction"] == "Protocol")
        // A schema that does not define the response's type does not decide for it either.
        try cache.clear()
        try cache.write(data: try Support.object(Self.droid), for: op, schema: trips)
        #expect(cache.record("QUERY_ROOT.hero")?["primaryFunction"] == "Protocol")
    }

    /// `all_people { name __typename ...F }` with `fragment F on Character { side }`: the
    /// typename (Person) is not the fragment's type, and `side` is kept.
    @Test func aFragmentWhoseTypeIsAnInterfaceOfTheObjectsType() throws {
        let op = try cache.operation("{ all_people { name __typename ...F } } fragment F on Character { side }")
        let data = #"{"all_people":[{"name":"Luke","__typename":"Person","side":"light"},{"name":"Vader","__typename":"Person","side":"dark"}]}"#
        try cache.write(data: try Support.object(data), for: op)
        #expect(cache.record("QUERY_ROOT.all_people.1")?["side"] == "dark")
        let read = try cache.read(op)
        #expect(read.complete)
        #expect(Support.canonical(read.data) == Support.canonical(try JSON.parse(data)))
    }

    /// With nothing known about the types, two fragments select one field with different
    /// selections. The writer writes the value under each selection it fits, and the reader
    /// includes the field by the same rule, so the read is complete and a cache-first
    /// watcher does not go to the network for the other fragment's field.
    @Test func aFieldUnderUndecidedFragmentsIsWrittenAndReadUnderTheSelectionsItFits() throws {
        let op = try cache.operation("""
            { people { __typename ...NamedNick ... on Crew { nick { short long } } } }
            fragment NamedNick on Named { nick { short } }
            """)
        let recorder = Recorder()
        let watch = try cache.watch(op, onEmission: recorder.callback)
        defer { watch.cancel() }
        let data = #"{"people":[{"__typename":"Passenger","nick":{"short":"Al"}},{"__typename":"Crew","nick":{"short":"Bo","long":"Bob"}}]}"#
        try cache.write(data: try Support.object(data), for: op)
        #expect(Support.fields(cache.record("QUERY_ROOT.people.0.nick")) == ["short": "Al"])
        #expect(Support.fields(cache.record("QUERY_ROOT.people.1.nick")) == ["short": "Bo", "long": "Bob"])
        let read = try cache.read(op)
        #expect(read.missing == [])
        #expect(Support.canonical(read.data) == Support.canonical(try JSON.parse(data)))
        #expect(recorder.last?.result.complete == true)
        #expect(Support.canonical(recorder.last?.result.data) == Support.canonical(try JSON.parse(data)))
        // Nothing was learned: the response did not show that a Passenger is a Named.
        #expect(!cache.possibleTypes.matches("Passenger", condition: "Named"))
        // A schema that decides (a Passenger is a Named, not a Crew) reads the same data.
        let schema = SchemaKnowledge(possibleTypes: try PossibleTypes(sdl: """
            interface Named { nick: Nick }
            type Nick { short: String long: String }
            type Passenger implements Named { nick: Nick }
            type Crew implements Named { nick: Nick }
            union Person = Passenger | Crew
            type Query { people: [Person] }
            """))
        #expect(try cache.read(op, schema: schema).complete)
        #expect(try cache.read(op, schema: schema).data == read.data)
    }

    /// A value that fits none of the undecided fragments' selections is refused, with the
    /// first field it misses; the message speaks of no schema, as there is none.
    @Test func aFieldThatFitsNoUndecidedFragmentIsRefused() throws {
        let op = try cache.operation("""
            { people { __typename ...NamedNick ... on Crew { nick { short long } } } }
            fragment NamedNick on Named { nick { short } }
            """)
        let data = #"{"people":[{"__typename":"Passenger","nick":{"long":"Alfred"}}]}"#
        do {
            try cache.write(data: try Support.object(data), for: op)
            Issue.record("the write should have been refused")
        } catch CacheError.response(let error) {
            #expect(error.path == "data.people[0].nick.short")
            #expect(error.message.hasPrefix("missing field \"short\""))
            #expect(error.message.contains("nothing says a Passenger satisfies"))
            #expect(!error.message.contains("schema"))
        }
        #expect(cache.keys().isEmpty)
    }

    /// A response that carries a field the schema says its object cannot have (the fragment's
    /// type condition does not hold) is refused with the field's path, and nothing changes.
    @Test func aFieldTheSchemaRulesOutIsRefusedNotDropped() throws {
        let schema = SchemaKnowledge(possibleTypes: try PossibleTypes(sdl: """
            interface Character { name: String! }
            type Human implements Character { name: String! }
            type Droid implements Character { name: String! primaryFunction: String }
            type Query { hero: Character }
            """))
        let op = try cache.operation(Self.heroWithFragment)
        let human = #"{"hero":{"__typename":"Human","name":"Luke","primaryFunction":"Jedi"}}"#
        do {
            try cache.write(data: try Support.object(human), for: op, schema: schema)
            Issue.record("the write should have been refused")
        } catch CacheError.response(let error) {
            #expect(error.path == "data.hero.primaryFunction")
            #expect(error.message.contains("the schema says Human is not a Droid"))
        }
        #expect(cache.keys().isEmpty)
        // Without the field, the same object is written, and a Droid keeps its field.
        try cache.write(data: try Support.object(#"{"hero":{"__typename":"Human","name":"Luke"}}"#), for: op, schema: schema)
        #expect(try cache.read(op, schema: schema).complete)
        try cache.write(data: try Support.object(Self.droid), for: op, schema: schema)
        #expect(try cache.read(op, schema: schema).data?["hero"]?["primaryFunction"] == "Protocol")
    }

    /// An endpoint's type policies key that endpoint's objects; the cache's own policy
    /// (what the app configures, `.keyfields`) wins for the same type.
    @Test func typePoliciesBelongToTheirEndpoint() throws {
        let op = try cache.operation("{ airports { code name } }")
        let data = try Support.object(#"{"airports":[{"__typename":"Airport","code":"LIS","name":"Lisbon"}]}"#)
        try cache.write(data: data, for: op, schema: try Self.tripsSchema())
        #expect(cache.record("QUERY_ROOT")?["airports"] == [.reference("Airport:LIS")])
        try cache.write(data: data, for: op)
        #expect(cache.record("QUERY_ROOT")?["airports"] == [.reference("QUERY_ROOT.airports.0")])
        cache.typePolicies["Airport"] = .keyFields(["name"])
        try cache.write(data: data, for: op, schema: try Self.tripsSchema())
        #expect(cache.record("QUERY_ROOT")?["airports"] == [.reference("Airport:Lisbon")])
    }

    /// An object of a type the schema does not know (the server's schema grew), under a
    /// field that returns an interface with a type policy, is keyed by the interface's key
    /// fields, under its own type name, as Apollo iOS keys it; the cache's default key
    /// fields do not apply (here there are none, as in Apollo iOS).
    @Test func anObjectOfATypeTheSchemaDoesNotKnowIsKeyedByTheInterfaceItIsReturnedAs() throws {
        cache.typePolicies.defaultKeyFields = []
        var schema = SchemaKnowledge(possibleTypes: try PossibleTypes(sdl: """
            interface Character { code: ID! name: String! friends: [Character!]! }
            type Human implements Character { code: ID! name: String! friends: [Character!]! }
            type Query { hero: Character }
            """))
        schema.typePolicies["Character"] = .keyFields(["code"])
        schema.typePolicies["Human"] = .keyFields(["code"])
        let op = try cache.operation("{ hero { code name friends { code name } } }")
        let data = """
            {"hero":{"__typename":"Wookiee","code":"7","name":"Chewie","friends":[{"__typename":"Ewok","code":"9","name":"Wicket"}]}}
            """
        try cache.write(data: try Support.object(data), for: op, schema: schema)
        #expect(cache.record("QUERY_ROOT")?["hero"] == .reference("Wookiee:7"))
        // Below an object of an unknown type, its fields' types are the interface's.
        #expect(cache.record("Wookiee:7")?["friends"] == [.reference("Ewok:9")])
        #expect(try cache.read(op, schema: schema).complete)
        // A key space the interface's policy names is the unknown type's too.
        schema.typePolicies["Character"] = .keyFields(["code"], group: "Character")
        try cache.write(data: try Support.object(data), for: op, schema: schema)
        #expect(cache.record("QUERY_ROOT")?["hero"] == .reference("Character:7"))
        // A type the schema knows is keyed by its own policy only.
        try cache.write(data: try Support.object(#"{"hero":{"__typename":"Human","code":"1","name":"Han","friends":[]}}"#),
                        for: op, schema: schema)
        #expect(cache.record("QUERY_ROOT")?["hero"] == .reference("Human:1"))
    }

    /// A policy set for an interface, in code (`.keyfields Character code`) or by the
    /// endpoint, keys the object types that implement it (the first interface with one, in
    /// name order), as Apollo iOS keys objects by their interface's key fields and Apollo
    /// Client lets types inherit their supertypes' policies; a type's own policy wins.
    @Test func anInterfacePolicyKeysTheTypesThatImplementIt() throws {
        let schema = SchemaKnowledge(possibleTypes: try PossibleTypes(sdl: """
            interface Character { code: ID! id: ID! }
            type Human implements Character { code: ID! id: ID! }
            type Droid implements Character { code: ID! id: ID! }
            type Query { heroes: [Character!]! }
            """))
        let op = try cache.operation("{ heroes { code id } }")
        let data = try Support.object("""
            {"heroes":[{"__typename":"Human","code":"h","id":"1"},{"__typename":"Droid","code":"d","id":"2"}]}
            """)
        try cache.write(data: data, for: op, schema: schema)
        #expect(cache.record("QUERY_ROOT")?["heroes"] == [.reference("Human:1"), .reference("Droid:2")])
        cache.typePolicies["Character"] = .keyFields(["code"])
        try cache.write(data: data, for: op, schema: schema)
        #expect(cache.record("QUERY_ROOT")?["heroes"] == [.reference("Human:h"), .reference("Droid:d")])
        cache.typePolicies["Droid"] = .keyFields(["id"], group: "Bot")
        try cache.write(data: data, for: op, schema: schema)
        #expect(cache.record("QUERY_ROOT")?["heroes"] == [.reference("Human:h"), .reference("Bot:2")])
    }

    /// A watcher reads with the knowledge it was started with, whatever later writes use.
    @Test func aWatcherReadsWithItsEndpointsKnowledge() throws {
        let schema = SchemaKnowledge(possibleTypes: try PossibleTypes(sdl: """
            interface Character { name: String! }
            type Droid implements Character { name: String! primaryFunction: String }
            type Query { hero: Character }
            """))
        let op = try cache.operation(Self.heroWithFragment)
        let recorder = Recorder()
        let watch = try cache.watch(op, schema: schema, onEmission: recorder.callback)
        defer { watch.cancel() }
        // Written without the field, by a writer that knows nothing: the watcher, whose
        // schema says a Droid has it, reports it missing.
        try cache.write(record: "QUERY_ROOT", fields: ["hero": .reference("Droid:2")])
        try cache.write(record: "Droid:2", fields: ["__typename": "Droid", "name": "R2-D2"])
        #expect(recorder.last?.result.missing == ["Droid:2.primaryFunction"])
        // Read without a schema, nothing says a Droid is a Character: the field is read when
        // present, and never called missing.
        #expect(try cache.read(op).complete)
    }

    /// Records no response taught about (written field by field, or opened from a file):
    /// a fragment's fields are read where the record has them, and are never missing.
    @Test func fragmentsOverRecordsNothingIsKnownAbout() throws {
        try cache.write(record: "QUERY_ROOT", fields: ["hero": .reference("Droid:2")])
        try cache.write(record: "Droid:2", fields: ["__typename": "Droid", "name": "R2-D2", "primaryFunction": "Protocol"])
        let read = try cache.read(try cache.operation(Self.heroWithFragment))
        #expect(read.complete)
        #expect(read.data?["hero"]?["primaryFunction"] == "Protocol")
    }
}

/// Where the endpoint's schema is known, a response value that does not fit its field's
/// type is refused with its path, and the cache is left as it was.
@Suite struct ResponseTypeTests {
    let cache: NormalizedCache
    let schema: SchemaKnowledge
    let trip: CompiledOperation

    static let sdl = """
        enum Kind { CITY BEACH }
        scalar Date
        type Trip { id: ID! seats: Int! price: Float scores: [Int!] kind: Kind starts: Date open: Boolean name: String }
        type Query { trip: Trip }
        """

    init() throws {
        cache = try Support.cache()
        schema = SchemaKnowledge(possibleTypes: try PossibleTypes(sdl: Self.sdl))
        trip = try cache.operation("{ trip { id seats price scores kind starts open name } }")
    }

    /// The trip's data, with the members of `overrides` in place of its own.
    func data(_ overrides: String = "{}") throws -> CacheObject {
        var trip = try Support.object(#"{"__typename":"Trip","id":"1","seats":2,"price":9.5,"scores":[1],"kind":"CITY","starts":"2025-06-01","open":true,"name":"Lisbon"}"#)
        for (key, value) in try Support.object(overrides).members { trip[key] = value }
        return ["trip": .object(trip)]
    }

    /// The write is refused at `path` with a message naming the schema's type, and changes nothing.
    func expectRefused(_ data: CacheObject, at path: String, saying words: String, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            try cache.write(data: data, for: trip, schema: schema)
            Issue.record("the write should have been refused", sourceLocation: sourceLocation)
        } catch CacheError.response(let error) {
            #expect(error.path == path, sourceLocation: sourceLocation)
            #expect(error.message.contains(words), "\(error.message)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("\(error)", sourceLocation: sourceLocation)
        }
        #expect(cache.keys().isEmpty, sourceLocation: sourceLocation)
    }

    @Test func valuesThatFitAreWritten() throws {
        try cache.write(data: try data(#"{"seats":2.0,"price":3,"kind":"CRUISE","starts":{"y":2025}}"#), for: trip, schema: schema)
        #expect(cache.record("Trip:1")?["seats"] == 2.0)
        #expect(cache.record("Trip:1")?["kind"] == "CRUISE", "an enum value the schema does not list yet is a string all the same")
    }

    @Test func valuesThatDoNotFitAreRefusedWithTheirPath() throws {
        expectRefused(try data(#"{"seats":"two"}"#), at: "data.trip.seats", saying: #"the schema's Trip.seats is Int!, not "two" (a string)"#)
        expectRefused(try data(#"{"seats":null}"#), at: "data.trip.seats", saying: "Int!, not null")
        expectRefused(try data(#"{"seats":3000000000}"#), at: "data.trip.seats", saying: "Int!, not 3000000000 (an integer)")
        expectRefused(try data(#"{"price":"9.50"}"#), at: "data.trip.price", saying: "Float")
        expectRefused(try data(#"{"scores":[1,null]}"#), at: "data.trip.scores[1]", saying: "[Int!], not null")
        expectRefused(try data(#"{"scores":1}"#), at: "data.trip.scores", saying: "[Int!], not 1 (an integer)")
        expectRefused(try data(#"{"kind":1}"#), at: "data.trip.kind", saying: "Kind")
        expectRefused(try data(#"{"open":"yes"}"#), at: "data.trip.open", saying: "Boolean")
        expectRefused(try data(#"{"name":["Lisbon"]}"#), at: "data.trip.name", saying: "String")
        expectRefused(try data(#"{"id":true}"#), at: "data.trip.id", saying: "ID!")
    }

    /// With GraphQL errors beside the data, a null may stand for a field that failed.
    @Test func aResponseWithErrorsMayHoldNullsForNonNullFields() throws {
        let response = try JSON.parse(#"{"data":{"trip":{"__typename":"Trip","id":"1","seats":null}},"errors":[{"message":"seats failed"}]}"#)
        try cache.write(response: response, for: try cache.operation("{ trip { id seats } }"), schema: schema)
        #expect(cache.record("Trip:1")?["seats"] == .null)
    }

    /// Without the schema (another endpoint, or none known), values are not checked.
    @Test func withoutTheSchemaNothingIsChecked() throws {
        try cache.write(data: try data(#"{"seats":"two"}"#), for: trip)
        #expect(cache.record("Trip:1")?["seats"] == "two")
    }

    /// A custom scalar holds any JSON value: a list or an object as well as a string.
    @Test func aCustomScalarTakesAnyJSONValue() throws {
        for value in [#"[1,"two",{"three":3}]"#, #"{"y":2025,"tags":["a"]}"#, "true"] {
            try cache.write(data: try data(#"{"starts":\#(value)}"#), for: trip, schema: schema)
            #expect(cache.record("Trip:1")?["starts"] == (try JSON.parse(value)))
            #expect(try cache.read(trip, schema: schema).data?["trip"]?["starts"] == (try JSON.parse(value)))
        }
        // A list of custom scalars takes lists as its items.
        let schema = SchemaKnowledge(possibleTypes: try PossibleTypes(sdl: "scalar Json type Trip { id: ID! notes: [Json!]! } type Query { trip: Trip }"))
        let op = try cache.operation("{ trip { id notes } }")
        try cache.write(data: try Support.object(#"{"trip":{"__typename":"Trip","id":"1","notes":[[1,2],{"a":1},"x"]}}"#), for: op, schema: schema)
        #expect(cache.record("Trip:1")?["notes"] == (try JSON.parse(#"[[1,2],{"a":1},"x"]"#)))
        // So does one an introspected schema declares.
        let introspected = SchemaKnowledge(possibleTypes: try PossibleTypes(introspection: try JSON.parse("""
            {"__schema":{"queryType":{"name":"Query"},"types":[
              {"kind":"SCALAR","name":"Json"},
              {"kind":"OBJECT","name":"Trip","fields":[{"name":"notes","type":{"kind":"SCALAR","name":"Json","ofType":null}}]},
              {"kind":"OBJECT","name":"Query","fields":[{"name":"trip","type":{"kind":"OBJECT","name":"Trip","ofType":null}}]}]}}
            """)))
        try cache.write(data: try Support.object(#"{"trip":{"__typename":"Trip","id":"1","notes":[1]}}"#), for: op, schema: introspected)
        #expect(cache.record("Trip:1")?["notes"] == [1])
    }

    @Test func anIntrospectedSchemaChecksToo() throws {
        let introspection = try JSON.parse("""
            {"__schema":{"queryType":{"name":"Query"},"types":[
              {"kind":"OBJECT","name":"Trip","fields":[{"name":"seats","type":{"kind":"NON_NULL","name":null,"ofType":{"kind":"SCALAR","name":"Int","ofType":null}}}]},
              {"kind":"OBJECT","name":"Query","fields":[{"name":"trip","type":{"kind":"OBJECT","name":"Trip","ofType":null}}]}]}}
            """)
        let introspected = SchemaKnowledge(possibleTypes: try PossibleTypes(introspection: introspection))
        let op = try cache.operation("{ trip { id seats } }")
        #expect(throws: CacheError.self) {
            try cache.write(data: try Support.object(#"{"trip":{"__typename":"Trip","id":"1","seats":"two"}}"#), for: op, schema: introspected)
        }
        try cache.write(data: try Support.object(#"{"trip":{"__typename":"Trip","id":"1","seats":2}}"#), for: op, schema: introspected)
        #expect(cache.record("Trip:1")?["seats"] == 2)
    }

    // MARK: SDL with its cache directives, read in one place

    /// `SchemaKnowledge(sdl:)` is what a project, a plugin's manifest and an HTTP endpoint's
    /// schema all go through: possible types, `@typePolicy` (an interface's inherited by
    /// the types that implement it), and `@fieldPolicy` from an extension.
    @Test func sdlGivesPossibleTypesAndItsCacheDirectives() throws {
        let knowledge = try SchemaKnowledge(sdl: """
            type Query { trip(id: ID!): Trip node(id: ID!): Node }
            interface Node @typePolicy(keyFields: "id") { id: ID! }
            type Trip implements Node { id: ID! name: String! destination: Airport }
            type Airport @typePolicy(keyFields: "code") { code: String! }
            extend type Query @fieldPolicy(forField: "trip", keyArgs: "id")
            """)
        #expect(knowledge.possibleTypes.matches("Trip", condition: "Node"))
        #expect(knowledge.typePolicies["Airport"] == .keyFields(["code"]))
        #expect(knowledge.typePolicies["Trip"] == .keyFields(["id"]))
        #expect(knowledge.fieldPolicies["Query", "trip"] == ["id"])
        #expect(knowledge.fieldPolicies["Query", "node"] == nil)
    }

    /// A directive that names what the schema lacks is an error at its line and column,
    /// not a policy silently dropped.
    @Test func aDirectiveNamingAMissingFieldIsAnErrorAtItsPlace() throws {
        #expect(throws: OperationError("schema: @typePolicy(keyFields:) names \"code\", which Trip does not have", line: 2, column: 11)) {
            try SchemaKnowledge(sdl: """
                type Query { trip: Trip }
                type Trip @typePolicy(keyFields: "code") { id: ID! }
                """)
        }
        #expect(throws: OperationError("schema: @fieldPolicy(keyArgs:) names \"code\", which Query.trip has no argument for", line: 2, column: 19)) {
            try SchemaKnowledge(sdl: """
                type Query { trip(id: ID!): Trip } type Trip { id: ID! }
                extend type Query @fieldPolicy(forField: "trip", keyArgs: "code")
                """)
        }
        #expect(throws: OperationError.self) { try SchemaKnowledge(sdl: "type Query {") }
    }
}
