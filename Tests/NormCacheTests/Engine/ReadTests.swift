import Testing
@testable import NormCache

/// Reading operations back out of the records: complete reads, what is missing, partial
/// reads, dependencies, and fragments on interfaces.
@Suite struct ReadTests {
    let cache: NormalizedCache

    init() throws {
        cache = try Support.cache()
    }

    func write(_ document: String, _ data: String, variables: CacheObject = CacheObject()) throws {
        try cache.write(data: try Support.object(data), for: try cache.operation(document), variables: variables)
    }

    @Test func aCompleteReadGivesTheResponseBack() throws {
        let document = "query ($id: ID!) { trip(id: $id) { id name stops { city nights } price { amount currency } tags } trips { id } }"
        let data = """
            {"trip":{"__typename":"Trip","id":"2","name":"Porto","stops":[{"__typename":"Stop","city":"Porto","nights":2},null],
              "price":{"__typename":"Money","amount":12.5,"currency":"EUR"},"tags":["sea",null]},
             "trips":[{"__typename":"Trip","id":"1"},{"__typename":"Trip","id":"2"}]}
            """
        try write(document, data, variables: ["id": "2"])
        let result = try cache.read(try cache.operation(document), variables: ["id": "2"])
        #expect(result.complete)
        #expect(result.missing.isEmpty)
        #expect(result.stale.isEmpty)
        #expect(Support.canonical(result.data) == Support.canonical(try JSON.parse(data)))
        // In the order the query asked for, __typename first.
        #expect(result.data?["trip"].flatMap { if case .object(let o) = $0 { o.keys } else { nil } }
            == ["__typename", "id", "name", "stops", "price", "tags"])
    }

    @Test func theFixtureReadsBackAsApolloDid() throws {
        let cache = try Support.apolloConfiguredCache()
        var operations: [(CompiledOperation, CacheObject, CacheValue)] = []
        for (index, exchange) in StarWarsFixture.exchanges.enumerated() {
            let op = try cache.operation(exchange.operation)
            let variables = index == 2 ? exchange.variables.replacingOccurrences(of: #""max":30"#, with: #""max":30.0"#) : exchange.variables
            let response = try JSON.parse(exchange.response)
            try cache.write(response: response, for: op, variables: try Support.object(variables))
            operations.append((op, try Support.object(variables), response["data"]!))
        }
        for (op, variables, data) in operations {
            let result = try cache.read(op, variables: variables)
            #expect(result.complete, "\(op.name ?? "")")
            #expect(Support.canonical(result.data) == Support.canonical(data), "\(op.name ?? "")")
        }
        // The fixture's table of further loads.
        let hero = operations[0].0, human = operations[1].0
        #expect(try cache.read(hero, variables: ["first": 3]).missing == ["QUERY_ROOT.hero"])
        #expect(try cache.read(hero, variables: ["episode": nil, "first": 3]).missing == ["QUERY_ROOT.hero(episode:null)"])
        #expect(try cache.read(human, variables: ["id": "1000", "unit": "METER"]).complete)
        #expect(try cache.read(human, variables: ["id": "1000"]).complete)
        #expect(try cache.read(human, variables: ["id": "1000", "unit": "FOOT", "friendsFirst": 4]).missing == ["Human:1000.friends(first:4)"])
    }

    /// A list that mixes references, nulls and nested lists reads back in its shape; a
    /// field that holds a reference, read as a scalar, is a miss.
    @Test func referencesReadBackInTheirPlaces() throws {
        try cache.write(record: "Trip:1", fields: [
            "__typename": "Trip", "id": "1", "owner": .reference("User:7"),
            "stops": [.reference("Stop:a"), nil, [.reference("Stop:b")]],
        ])
        try cache.write(record: "User:7", fields: ["__typename": "User", "id": "7"])
        try cache.write(record: "Stop:a", fields: ["__typename": "Stop", "city": "Porto"])
        try cache.write(record: "Stop:b", fields: ["__typename": "Stop", "city": "Faro"])
        try cache.write(record: "QUERY_ROOT", fields: ["trip(id:1)": .reference("Trip:1")])
        let scalar = try cache.read(try cache.operation("{ trip(id: 1) { owner } }"))
        #expect(scalar.missing == ["Trip:1.owner"])
        let nested = try cache.read(try cache.operation("{ trip(id: 1) { owner { id } stops { city } } }"))
        #expect(nested.complete)
        #expect(nested.data == ["trip": [
            "__typename": "Trip", "owner": ["__typename": "User", "id": "7"],
            "stops": [["__typename": "Stop", "city": "Porto"], nil, [["__typename": "Stop", "city": "Faro"]]],
        ]])
        #expect(cache.referrers(of: "Stop:b") == ["Trip:1"])
        #expect(cache.referrers(of: "Stop:zzz").isEmpty)
    }

    @Test func missingFieldsAreListedExactly() throws {
        let op = try cache.operation("query ($id: ID!) { trip(id: $id) { id name } }")
        var result = try cache.read(op, variables: ["id": "2"])
        #expect(!result.complete)
        #expect(result.data == nil)
        #expect(result.missing == ["QUERY_ROOT.trip(id:2)"])
        try write("{ trip(id: 1) { id } }", #"{"trip":{"__typename":"Trip","id":"1"}}"#)
        result = try cache.read(op, variables: ["id": "1"])
        #expect(result.missing == ["Trip:1.name"])
        #expect(result.data == nil)
        // Every missing field, in the order met, items of lists included.
        try write("{ trips { id } }", #"{"trips":[{"__typename":"Trip","id":"1"},{"__typename":"Trip","id":"3"}]}"#)
        let list = try cache.read(try cache.operation("{ trips { id name price } }"))
        #expect(list.missing == ["Trip:1.name", "Trip:1.price", "Trip:3.name", "Trip:3.price"])
    }

    /// Below a list, a record that comes again under the same selection (the owner of
    /// several trips) reads the same each time; its fields are dependencies and each
    /// missing one is listed once.
    @Test func aRecordSharedByListItemsReadsTheSameUnderEach() throws {
        try write("{ trips { id owner { id name } } }", """
            {"trips":[{"__typename":"Trip","id":"1","owner":{"__typename":"User","id":"7","name":"Ada"}},
                      {"__typename":"Trip","id":"2","owner":{"__typename":"User","id":"7","name":"Ada"}},
                      {"__typename":"Trip","id":"3","owner":{"__typename":"User","id":"8","name":"Bo"}},
                      {"__typename":"Trip","id":"4","owner":{"__typename":"User","id":"7","name":"Ada"}}]}
            """)
        let result = try cache.read(try cache.operation("{ trips { id owner { id name email } } }"), partial: true)
        #expect(result.missing == ["User:7.email", "User:8.email"])
        guard case .list(let trips)? = result.data?["trips"] else { Issue.record("no trips"); return }
        #expect(trips.map { $0["owner"]?["name"] } == ["Ada", "Ada", "Bo", "Ada"])
        #expect(trips.map { $0["owner"]?["id"] } == ["7", "7", "8", "7"])
        let names = Set(cache.names(Set(result.dependencies)))
        #expect(names.isSuperset(of: ["User:7.name", "User:7.email", "User:8.name", "User:8.email", "Trip:4.owner"]))
    }

    @Test func aReferenceToARecordThatIsGone() throws {
        try write("{ trip(id: 1) { id name } }", #"{"trip":{"__typename":"Trip","id":"1","name":"Lisbon"}}"#)
        try cache.evict("Trip:1")
        let result = try cache.read(try cache.operation("{ trip(id: 1) { id name } }"))
        #expect(result.missing == ["Trip:1.__typename", "Trip:1.id", "Trip:1.name"])
    }

    @Test func partialReadsLeaveOutWhatIsMissing() throws {
        try write("{ trip(id: 1) { id name } trips { id } }",
                  #"{"trip":{"__typename":"Trip","id":"1","name":"Lisbon"},"trips":[{"__typename":"Trip","id":"1"},{"__typename":"Trip","id":"2"}]}"#)
        let op = try cache.operation("{ trip(id: 1) { id name price } trips { id name } other }")
        let result = try cache.read(op, partial: true)
        #expect(!result.complete)
        #expect(result.missing == ["Trip:1.price", "Trip:2.name", "QUERY_ROOT.other"])
        #expect(Support.canonical(result.data) == Support.canonical(try JSON.parse("""
            {"trip":{"__typename":"Trip","id":"1","name":"Lisbon"},
             "trips":[{"__typename":"Trip","id":"1","name":"Lisbon"},{"__typename":"Trip","id":"2"}]}
            """)))
        // Partial on an empty cache: an empty object.
        let empty = try Support.cache()
        #expect(try empty.read(try empty.operation("{ a }"), partial: true).data == .object(CacheObject()))
    }

    /// A stored value of the wrong kind for what the operation selects is a miss of that
    /// field, as Apollo iOS's cache read fails on it: a scalar where an object is selected,
    /// a reference where a scalar is, and the same inside lists.
    @Test func aValueOfTheWrongKindIsAMiss() throws {
        try cache.write(record: "QUERY_ROOT", fields: ["user": "Ada", "users": ["Ada", "Bo"], "owner": .reference("User:1"),
                                                       "owners": [.reference("User:1")], "payload": ["a": 1]])
        try cache.write(record: "User:1", fields: ["__typename": "User", "id": "1"])
        let objects = try cache.operation("{ user { id } users { id } }")
        let read = try cache.read(objects, partial: true)
        #expect(read.missing == ["QUERY_ROOT.user", "QUERY_ROOT.users"])
        #expect(read.data == .object(CacheObject()))
        let scalars = try cache.read(try cache.operation("{ owner owners }"), partial: true)
        #expect(scalars.missing == ["QUERY_ROOT.owner", "QUERY_ROOT.owners"])
        #expect(scalars.data == .object(CacheObject()))
        // A JSON object where a scalar is selected is a custom scalar's value: a hit.
        #expect(try cache.read(try cache.operation("{ payload }")).data?["payload"] == ["a": 1])
    }

    /// A watcher whose field holds a value of the wrong kind reports it missing (the
    /// client then asks the network), and is complete once a response replaces it.
    @Test func aWatcherOverAValueOfTheWrongKindWaitsForTheResponse() throws {
        try cache.write(record: "QUERY_ROOT", fields: ["user": "Ada"])
        let op = try cache.operation("{ user { id } }")
        let recorder = Recorder()
        let watch = try cache.watch(op, onEmission: recorder.callback)
        defer { watch.cancel() }
        #expect(recorder.last?.result.missing == ["QUERY_ROOT.user"])
        #expect(recorder.last?.result.data == nil)
        try cache.write(data: try Support.object(#"{"user":{"__typename":"User","id":"1"}}"#), for: op)
        #expect(recorder.count == 2)
        #expect(recorder.last?.result.complete == true)
        #expect(recorder.last?.result.data?["user"]?["id"] == "1")
    }

    @Test func nullsAreHits() throws {
        try write("{ trip(id: 1) { id name place { city } } }", #"{"trip":{"__typename":"Trip","id":"1","name":null,"place":null}}"#)
        let result = try cache.read(try cache.operation("{ trip(id: 1) { id name place { city } } }"))
        #expect(result.complete)
        #expect(result.data?["trip"]?["name"] == .null)
        #expect(result.data?["trip"]?["place"] == .null)
    }

    /// A response without __typename (the document did not ask for it) is accepted: it
    /// must read back complete, like any other accepted response.
    @Test func aResponseWithoutTypenameReadsBackComplete() throws {
        cache.typePolicies.defaultKeyFields = []
        let op = try cache.operation("{ settings { theme } }")
        try cache.write(data: try Support.object(#"{"settings":{"theme":"dark"}}"#), for: op)
        let result = try cache.read(op)
        #expect(result.complete)
        #expect(result.data?["settings"]?["theme"] == "dark")
    }

    @Test func dependenciesAreEveryFieldLookedAt() throws {
        try write("{ trip(id: 1) { id name } }", #"{"trip":{"__typename":"Trip","id":"1","name":"Lisbon"}}"#)
        let result = try cache.read(try cache.operation("{ trip(id: 1) { name price } }"))
        let names = cache.names(Set(result.dependencies))
        #expect(names == ["QUERY_ROOT.trip(id:1)", "Trip:1.__typename", "Trip:1.name", "Trip:1.price"])
        let missing = try cache.read(try cache.operation("{ trip(id: 5) { name } }"))
        #expect(cache.names(Set(missing.dependencies)) == ["QUERY_ROOT.trip(id:5)"])
    }

    @Test func variablesChooseTheRecord() throws {
        let op = try cache.operation("query ($id: ID!) { trip(id: $id) { id name } }")
        try cache.write(data: try Support.object(#"{"trip":{"__typename":"Trip","id":"1","name":"Lisbon"}}"#), for: op, variables: ["id": "1"])
        try cache.write(data: try Support.object(#"{"trip":{"__typename":"Trip","id":"2","name":"Porto"}}"#), for: op, variables: ["id": "2"])
        #expect(try cache.read(op, variables: ["id": "1"]).data?["trip"]?["name"] == "Lisbon")
        #expect(try cache.read(op, variables: ["id": "2"]).data?["trip"]?["name"] == "Porto")
    }

    static let sdl = """
        interface Character { id: ID! name: String! }
        type Human implements Character { id: ID! name: String! height: Float }
        type Droid implements Character { id: ID! name: String! primaryFunction: String }
        type Starship { id: ID! name: String! }
        union SearchResult = Human | Droid | Starship
        type Query { hero: Character search: [SearchResult] }
        """

    @Test func fragmentsOnInterfacesWithASchema() throws {
        cache.possibleTypes = try PossibleTypes(sdl: Self.sdl)
        let document = """
            { search { ... on Character { id name } ... on Human { height } ... on Droid { primaryFunction } ... on Starship { id name } } }
            """
        let data = """
            {"search":[{"__typename":"Human","id":"1","name":"Luke","height":1.72},
                       {"__typename":"Droid","id":"2","name":"R2","primaryFunction":"Astromech"},
                       {"__typename":"Starship","id":"3","name":"X-wing"}]}
            """
        try write(document, data)
        #expect(Support.fields(cache.record("Human:1")) == ["__typename": "Human", "id": "1", "name": "Luke", "height": 1.72])
        #expect(Support.fields(cache.record("Starship:3")) == ["__typename": "Starship", "id": "3", "name": "X-wing"])
        let result = try cache.read(try cache.operation(document))
        #expect(result.complete)
        #expect(Support.canonical(result.data) == Support.canonical(try JSON.parse(data)))
        // A fragment on a type the object is not: not read, not missing.
        let other = try cache.read(try cache.operation("{ search { ... on Droid { primaryFunction } } }"))
        #expect(other.complete)
        #expect(other.data?["search"] == [["__typename": "Human"], ["__typename": "Droid", "primaryFunction": "Astromech"], ["__typename": "Starship"]])
    }

    /// With a schema, a response that lacks a fragment's fields for a type that satisfies it is refused.
    @Test func aSchemaMakesFragmentFieldsRequired() throws {
        cache.possibleTypes = try PossibleTypes(sdl: Self.sdl)
        #expect(throws: CacheError.self) {
            try write("{ hero { ... on Character { id name } } }", #"{"hero":{"__typename":"Human","id":"1"}}"#)
        }
    }

    @Test func fragmentsOnInterfacesLearnedFromResponses() throws {
        let document = "{ hero { ... on Character { id name } ... on Human { height } } }"
        #expect(!cache.possibleTypes.matches("Droid", condition: "Character"))
        try write(document, #"{"hero":{"__typename":"Droid","id":"2","name":"R2"}}"#)
        #expect(cache.possibleTypes.matches("Droid", condition: "Character"))
        #expect(!cache.possibleTypes.fromSchema)
        #expect(Support.fields(cache.record("Droid:2")) == ["__typename": "Droid", "id": "2", "name": "R2"])
        let result = try cache.read(try cache.operation(document))
        #expect(result.complete)
        #expect(Support.canonical(result.data) == Support.canonical(try JSON.parse(#"{"hero":{"__typename":"Droid","id":"2","name":"R2"}}"#)))
        // A type whose objects lack the fragment's fields is not taken to satisfy it.
        try write("{ other { ... on Character { id name } } }", #"{"other":{"__typename":"Planet"}}"#)
        #expect(!cache.possibleTypes.matches("Planet", condition: "Character"))
    }

    @Test func possibleTypesFromIntrospection() throws {
        let introspection = try JSON.parse("""
            {"data":{"__schema":{"queryType":{"name":"Root"},"types":[
              {"kind":"INTERFACE","name":"Character","possibleTypes":[{"name":"Human"},{"name":"Droid"}]},
              {"kind":"OBJECT","name":"Human","possibleTypes":null}]}}}
            """)
        let types = try PossibleTypes(introspection: introspection)
        #expect(types.matches("Human", condition: "Character"))
        #expect(types.matches("Droid", condition: "Character"))
        #expect(!types.matches("Character", condition: "Human"))
        #expect(types.rootTypes[.query] == "Root")
        #expect(types.fromSchema)
    }

    @Test func fragmentsOnTheRootType() throws {
        cache.possibleTypes = try PossibleTypes(sdl: "schema { query: Root } type Root { a: Int }")
        let op = try cache.operation("{ ... on Root { a } ... on Query { b } }")
        try cache.write(data: ["a": 1], for: op)
        #expect(Support.fields(cache.record("QUERY_ROOT")) == ["a": 1])
        #expect(try cache.read(op).data == ["a": 1])
    }
}
