import Testing
@testable import NormCache

/// Writing responses: the record keys and field keys of Apollo iOS's format (docs/keys.md), produced
/// from queries and responses, and the fixture's rows as Apollo iOS 1.25.7 wrote them.
@Suite struct WriteTests {
    let cache: NormalizedCache

    init() throws {
        cache = try Support.cache()
    }

    @discardableResult
    func write(_ document: String, _ data: String, variables: String = "{}") throws -> NormalizedCache {
        try cache.write(data: try Support.object(data), for: try cache.operation(document), variables: try Support.object(variables))
        return cache
    }

    @Test func entityKeysAndScalarArguments() throws {
        try write(#"{ hero(episode: JEDI) { id name } human(id: "1000") { id name } }"#,
                  #"{"hero":{"__typename":"Human","id":"1000","name":"Luke"},"human":{"__typename":"Human","id":"1000","name":"Luke"}}"#)
        #expect(cache.keys() == ["Human:1000", "QUERY_ROOT"])
        #expect(Support.fields(cache.record("QUERY_ROOT"))
            == ["hero(episode:JEDI)": .reference("Human:1000"), "human(id:1000)": .reference("Human:1000")])
        #expect(Support.fields(cache.record("Human:1000")) == ["__typename": "Human", "id": "1000", "name": "Luke"])
        #expect(cache.takeWarnings().isEmpty)
    }

    /// The example rows of Apollo iOS's format (docs/keys.md, "Formats"), from one query and one response.
    @Test func theFormatDocumentsExampleRows() throws {
        let document = """
            query ($ids: [Int], $n: Int) {
              hero(episode: JEDI) {
                id name height meta
                stats { tags score }
                friends(filter: {ids: $ids, kind: A}, first: $n) { id }
              }
            }
            """
        var policies = TypePolicies()
        policies.defaultKeyFields = []
        policies["Human"] = .keyFields(["id"])
        cache.typePolicies = policies
        try write(document, """
            {"hero":{"__typename":"Human","id":"1000","name":"Luke","height":1.72,"meta":null,
              "stats":{"__typename":"Stats","tags":["a","b"],"score":42},
              "friends":[{"__typename":"Human","id":"1002"},null,{"__typename":"Human","id":"1003"}]}}
            """, variables: #"{"ids":[1,2],"n":3}"#)
        let rows = [
            #"QUERY_ROOT|{"hero(episode:JEDI)":{"$reference":"Human:1000"}}"#,
            #"Human:1000|{"stats":{"$reference":"Human:1000.stats"},"name":"Luke","friends([filter:ids:[1, 2],kind:A],first:3)":[{"$reference":"Human:1002"},null,{"$reference":"Human:1003"}],"__typename":"Human","height":1.72,"meta":null,"id":"1000"}"#,
            #"Human:1000.stats|{"tags":["a","b"],"score":42,"__typename":"Stats"}"#,
        ]
        for row in rows {
            let bar = row.firstIndex(of: "|")!
            let expected = try Support.object(String(row[row.index(after: bar)...]), references: .apollo)
            #expect(Support.fields(cache.record(String(row[..<bar]))) == Support.fields(expected), "\(row[..<bar])")
        }
    }

    @Test func inputObjectsAndListsOfInputObjects() throws {
        let document = "query ($text: String!, $filter: SearchFilter) { search(text: $text, filter: $filter) { id } }"
        try write(document, #"{"search":[]}"#, variables: """
            {"text":"Padmé, R2","filter":{"includeDroids":true,"kinds":["Human","Droid","Starship"],"minLength":null,
             "orderBy":[{"desc":false,"field":"name"},{"field":"id"}],"range":{"max":30.0,"min":1.5}}}
            """)
        try write(document, #"{"search":[]}"#, variables: #"{"text":"R2","filter":{}}"#)
        try write(document, #"{"search":[]}"#, variables: #"{"text":"R2","filter":{"orderBy":[]}}"#)
        try write(document, #"{"search":[]}"#, variables: #"{"text":"R2","filter":null}"#)
        try write(document, #"{"search":[]}"#, variables: #"{"text":"R2"}"#)
        #expect(cache.record("QUERY_ROOT")?.keys.sorted() == [
            "search([filter:],text:R2)",
            "search([filter:includeDroids:true,kinds:[Human, Droid, Starship],minLength:null,orderBy:[desc:false,field:name,field:id],[range:max:30.0,min:1.5]],text:Padmé, R2)",
            "search([filter:orderBy:[]],text:R2)",
            "search(filter:null,text:R2)",
            "search(text:R2)",
        ])
    }

    /// JSON has one kind of number: a Float inside an input object variable sent as `30` is
    /// keyed `30.0` once a schema says the input field is a Float (Apollo iOS's typed
    /// variables know it); without a schema it stays `30`. A variable declared `Float`
    /// needs no schema.
    @Test func floatsInsideInputObjectsNeedASchema() throws {
        let document = "query ($f: SearchFilter, $l: [LengthRange], $m: Float) { search(filter: $f, ranges: $l, range: {max: $m}) { id } }"
        let variables = #"{"f":{"minLength":2,"range":{"max":30,"min":1,"unit":"METER"},"kinds":["A"]},"l":[{"max":1}],"m":3}"#
        try write(document, #"{"search":[]}"#, variables: variables)
        #expect(cache.record("QUERY_ROOT")?.keys
            == ["search([filter:kinds:[A],minLength:2,[range:max:30,min:1,unit:METER]],[range:max:3.0],ranges:[max:1])"])
        let typed = try Support.cache()
        typed.possibleTypes = try PossibleTypes(sdl: """
            enum LengthUnit { METER FOOT }
            input LengthRange { min: Float max: Float unit: LengthUnit }
            input SearchFilter { kinds: [String!] minLength: Float range: LengthRange }
            """)
        try typed.write(data: try Support.object(#"{"search":[]}"#), for: try typed.operation(document),
                        variables: try Support.object(variables))
        #expect(typed.record("QUERY_ROOT")?.keys
            == ["search([filter:kinds:[A],minLength:2.0,[range:max:30.0,min:1.0,unit:METER]],[range:max:3.0],ranges:[max:1.0])"])
        // The same from an introspection result.
        let introspected = try Support.cache()
        introspected.possibleTypes = try PossibleTypes(introspection: try JSON.parse("""
            {"__schema":{"types":[{"kind":"INPUT_OBJECT","name":"R","possibleTypes":null,"inputFields":[
              {"name":"max","type":{"kind":"NON_NULL","name":null,"ofType":{"kind":"SCALAR","name":"Float","ofType":null}}},
              {"name":"n","type":{"kind":"SCALAR","name":"Int","ofType":null}}]}]}}
            """))
        try introspected.write(data: ["f": 1], for: try introspected.operation("query ($r: R) { f(r: $r) }"), variables: ["r": ["max": 2, "n": 2]])
        #expect(introspected.record("QUERY_ROOT")?.keys == ["f([r:max:2.0,n:2])"])
    }

    /// Literal input objects in the document key like variables do.
    @Test func literalInputObjects() throws {
        try write(#"{ search(text: "R2", filter: {range: {min: 2.0, unit: METER}}) { id } }"#, #"{"search":[]}"#)
        #expect(cache.record("QUERY_ROOT")?.keys == ["search([filter:[range:min:2.0,unit:METER]],text:R2)"])
    }

    @Test func pathKeysBelowTheRoot() throws {
        cache.typePolicies.defaultKeyFields = []
        try write("{ hero(episode: JEDI) { name friends { name } } }",
                  #"{"hero":{"__typename":"Human","id":"1000","name":"Luke","friends":[{"__typename":"Human","name":"Han"},{"__typename":"Droid","name":"R2"}]}}"#)
        #expect(cache.keys() == ["QUERY_ROOT", "QUERY_ROOT.hero(episode:JEDI)", "QUERY_ROOT.hero(episode:JEDI).friends.0",
                                 "QUERY_ROOT.hero(episode:JEDI).friends.1"])
        #expect(cache.record("QUERY_ROOT.hero(episode:JEDI)")?["friends"]
            == [.reference("QUERY_ROOT.hero(episode:JEDI).friends.0"), .reference("QUERY_ROOT.hero(episode:JEDI).friends.1")])
        #expect(Support.fields(cache.record("QUERY_ROOT.hero(episode:JEDI).friends.1")) == ["__typename": "Droid", "name": "R2"])
    }

    /// An unkeyed object takes the key of its nearest keyed ancestor (`Human:1000.stats`), lists of
    /// lists keep every index, and an unkeyed object inside an unkeyed one extends its path.
    @Test func pathKeysBelowAnEntity() throws {
        cache.typePolicies["Stats"] = .notNormalized
        try write("{ hero { id stats { score best { score } } grid { v } } }", """
            {"hero":{"__typename":"Human","id":"1000","stats":{"__typename":"Stats","score":42,"best":{"__typename":"Stats","score":50}},
              "grid":[[{"__typename":"Cell","v":1}],[null,{"__typename":"Cell","v":2}]]}}
            """)
        #expect(cache.keys() == ["Human:1000", "Human:1000.grid.0.0", "Human:1000.grid.1.1", "Human:1000.stats", "Human:1000.stats.best", "QUERY_ROOT"])
        #expect(cache.record("Human:1000")?["grid"]
            == [[.reference("Human:1000.grid.0.0")], [.null, .reference("Human:1000.grid.1.1")]])
        // Cell objects have no id: each is a path record, with a warning.
        #expect(cache.takeWarnings().count == 2)
    }

    @Test func severalKeyFieldsAreJoinedAndEscaped() throws {
        cache.typePolicies["Seat"] = .keyFields(["flight", "number"])
        try write("{ seats { flight number row } }", #"""
            {"seats":[{"__typename":"Seat","flight":"LH123","number":"14C","row":14},
                      {"__typename":"Seat","flight":"A+B","number":"c\\d","row":1},
                      {"__typename":"Seat","flight":"X","number":7,"row":2}]}
            """#)
        #expect(cache.record("QUERY_ROOT")?["seats"]
            == [.reference("Seat:LH123+14C"), .reference(#"Seat:A\+B+c\\d"#), .reference("Seat:X+7")])
        #expect(cache.record(#"Seat:A\+B+c\\d"#)?["number"] == #"c\d"#)
        // A single key field is the whole id: nothing is escaped.
        cache.typePolicies["Tag"] = .keyFields(["name"])
        try write("{ tags { name } }", #"{"tags":[{"__typename":"Tag","name":"a+b\\c"}]}"#)
        #expect(cache.record("QUERY_ROOT")?["tags"] == [.reference(#"Tag:a+b\c"#)])
    }

    @Test func keyFieldsFoundThroughAliases() throws {
        try write("{ trip(id: 1) { tripID: id name } }", #"{"trip":{"__typename":"Trip","tripID":"1","name":"Lisbon"}}"#)
        #expect(cache.record("QUERY_ROOT")?["trip(id:1)"] == .reference("Trip:1"))
        #expect(cache.record("Trip:1")?["id"] == "1")
    }

    @Test func numbersInKeysAreStrings() throws {
        try write("{ trips { id } }", #"{"trips":[{"__typename":"Trip","id":42},{"__typename":"Trip","id":2.5}]}"#)
        #expect(cache.record("QUERY_ROOT")?["trips"] == [.reference("Trip:42"), .reference("Trip:2.5")])
    }

    /// Apollo iOS takes String, Int and Float key values only: a Boolean, null, list or
    /// object in a key field gives no entity key (never `Omega:true`), only a path key.
    @Test func onlyStringsAndNumbersAreKeyValues() throws {
        let document = "{ omegas { id } }"
        try write(document, #"{"omegas":[{"__typename":"Omega","id":true},{"__typename":"Omega","id":null},{"__typename":"Omega","id":[1]},{"__typename":"Omega","id":{"a":1}}]}"#)
        #expect(cache.record("QUERY_ROOT")?["omegas"]
            == [.reference("QUERY_ROOT.omegas.0"), .reference("QUERY_ROOT.omegas.1"), .reference("QUERY_ROOT.omegas.2"), .reference("QUERY_ROOT.omegas.3")])
        #expect(!cache.keys().contains { $0.hasPrefix("Omega:") })
        let warnings = cache.takeWarnings()
        #expect(warnings.first == "Omega at QUERY_ROOT.omegas.0 has a boolean as its id, not a string or a number: stored under its path key")
        #expect(warnings.count == 4)
        #expect(cache.record("QUERY_ROOT.omegas.0")?["id"] == true)
    }

    @Test func aKeyGroupReplacesTheTypename() throws {
        cache.typePolicies["Human"] = .keyFields(["id"], group: "Node")
        cache.typePolicies["Droid"] = .keyFields(["id"], group: "Node")
        try write("{ a: node(id: 42) { id name } b: node(id: 43) { id name } }",
                  #"{"a":{"__typename":"Human","id":"42","name":"Luke"},"b":{"__typename":"Droid","id":"43","name":"R2"}}"#)
        #expect(cache.keys() == ["Node:42", "Node:43", "QUERY_ROOT"])
        #expect(cache.record("Node:43")?["__typename"] == "Droid")
    }

    @Test func notNormalizedTypesGetPathKeys() throws {
        cache.typePolicies["Money"] = .notNormalized
        try write("{ trip(id: 1) { id price { id amount } } }",
                  #"{"trip":{"__typename":"Trip","id":"1","price":{"__typename":"Money","id":"EUR","amount":12}}}"#)
        #expect(cache.keys() == ["QUERY_ROOT", "Trip:1", "Trip:1.price"])
        #expect(cache.record("Trip:1")?["price"] == .reference("Trip:1.price"))
        // Not normalized on purpose: no warning.
        #expect(cache.takeWarnings().isEmpty)
    }

    /// Apollo iOS has no default key: with `defaultKeyFields = []` only typed policies key.
    @Test func noDefaultKeyFields() throws {
        cache.typePolicies.defaultKeyFields = []
        try write("{ trip(id: 1) { id name } }", #"{"trip":{"__typename":"Trip","id":"1","name":"Lisbon"}}"#)
        #expect(cache.keys() == ["QUERY_ROOT", "QUERY_ROOT.trip(id:1)"])
        #expect(cache.takeWarnings().isEmpty)
        // Another default: `uuid`.
        cache.typePolicies.defaultKeyFields = ["uuid"]
        try write("{ user { uuid } }", #"{"user":{"__typename":"User","uuid":"u-1"}}"#)
        #expect(cache.record("QUERY_ROOT")?["user"] == .reference("User:u-1"))
    }

    @Test func aliasesShareOneStoredValue() throws {
        try write("{ trip(id: 1) { id title: name label: name } }",
                  #"{"trip":{"__typename":"Trip","id":"1","title":"Lisbon","label":"Lisbon"}}"#)
        #expect(Support.fields(cache.record("Trip:1")) == ["__typename": "Trip", "id": "1", "name": "Lisbon"])
        try write(#"{ a: trip(id: 1) { id name } b: trip(id: 1) { id } }"#,
                  #"{"a":{"__typename":"Trip","id":"1","name":"Porto"},"b":{"__typename":"Trip","id":"1"}}"#)
        #expect(cache.record("QUERY_ROOT")?.keys == ["trip(id:1)"])
        #expect(cache.record("Trip:1")?["name"] == "Porto")
    }

    /// Two fields of one selection with one field key (aliases of one field) are one
    /// record field: the later value wins. (Reads and change sets show a field once
    /// however often a record holds it; a second copy would show as the first value.)
    @Test func aliasesOfOneFieldAreOneRecordField() throws {
        let op = try cache.operation("{ trip(id: 1) { id title: name label: name } }")
        let changes = try cache.write(data: try Support.object(#"{"trip":{"__typename":"Trip","id":"1","title":"Lisbon","label":"Porto"}}"#), for: op)
        #expect(changes.keys == ["QUERY_ROOT.trip(id:1)", "Trip:1.__typename", "Trip:1.id", "Trip:1.name"])
        #expect(cache.record("Trip:1")?["name"] == "Porto")
        #expect(cache.record("Trip:1")?.count == 3)
    }

    @Test func anObjectWithoutKeyFieldsGetsAPathKeyAndAWarning() throws {
        try write("{ trip(id: 1) { id place { name } } }",
                  #"{"trip":{"__typename":"Trip","id":"1","place":{"__typename":"Place","name":"Lisbon"}}}"#)
        #expect(cache.record("Trip:1")?["place"] == .reference("Trip:1.place"))
        #expect(cache.record("Trip:1.place")?["name"] == "Lisbon")
        let warnings = cache.takeWarnings()
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("Place") == true)
        #expect(warnings.first?.contains("Trip:1.place") == true)
        #expect(cache.takeWarnings().isEmpty)
    }

    @Test func aRecordThatChangesTypeWarnsAndDropsItsOldFields() throws {
        cache.typePolicies.defaultKeyFields = []
        try write("{ hero { name ... on Human { height } } }", #"{"hero":{"__typename":"Human","name":"Luke","height":1.72}}"#)
        #expect(cache.takeWarnings().isEmpty)
        try write("{ hero { name ... on Droid { primaryFunction } } }",
                  #"{"hero":{"__typename":"Droid","name":"R2","primaryFunction":"Astromech"}}"#)
        let warnings = cache.takeWarnings()
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("QUERY_ROOT.hero") == true)
        #expect(Support.fields(cache.record("QUERY_ROOT.hero")) == ["__typename": "Droid", "name": "R2", "primaryFunction": "Astromech"])
    }

    @Test func partialDataWithErrors() throws {
        let op = try cache.operation("{ trip(id: 1) { id name price } }")
        let response = try JSON.parse("""
            {"data":{"trip":{"__typename":"Trip","id":"1","name":"Lisbon"}},
             "errors":[{"message":"price failed","path":["trip","price"]}]}
            """)
        try cache.write(response: response, for: op)
        #expect(Support.fields(cache.record("Trip:1")) == ["__typename": "Trip", "id": "1", "name": "Lisbon"])
        let read = try cache.read(op)
        #expect(read.missing == ["Trip:1.price"])
        // The same data without errors is refused: a field is missing.
        let cache2 = try Support.cache()
        #expect(throws: CacheError.self) {
            try cache2.write(response: try JSON.parse(#"{"data":{"trip":{"__typename":"Trip","id":"1","name":"Lisbon"}}}"#), for: op)
        }
        #expect(cache2.keys().isEmpty)
        // An empty errors list is no errors.
        #expect(throws: CacheError.self) {
            try cache2.write(response: try JSON.parse(#"{"data":{"trip":{"__typename":"Trip","id":"1"}},"errors":[]}"#), for: op)
        }
    }

    @Test func responsesWithoutDataAndBadShapes() throws {
        let op = try cache.operation("{ trip(id: 1) { id } }")
        try cache.write(response: try JSON.parse(#"{"data":null,"errors":[{"message":"down"}]}"#), for: op)
        try cache.write(response: try JSON.parse(#"{"errors":[{"message":"down"}]}"#), for: op)
        #expect(cache.keys().isEmpty)
        for bad in [#"[]"#, #"{"data":[]}"#, #"{"data":{},"errors":{}}"#] {
            #expect(throws: CacheError.self) { try cache.write(response: try JSON.parse(bad), for: op) }
        }
    }

    @Test func mutationsAndSubscriptionsWriteUnderTheirRoots() throws {
        try write(#"mutation { renameTrip(id: 1, name: "Porto") { id name } }"#, #"{"renameTrip":{"__typename":"Trip","id":"1","name":"Porto"}}"#)
        try write("subscription { tripChanged { id name } }", #"{"tripChanged":{"__typename":"Trip","id":"1","name":"Faro"}}"#)
        #expect(cache.record("MUTATION_ROOT")?["renameTrip(id:1,name:Porto)"] == .reference("Trip:1"))
        #expect(cache.record("SUBSCRIPTION_ROOT")?["tripChanged"] == .reference("Trip:1"))
        #expect(cache.record("Trip:1")?["name"] == "Faro")
    }

    @Test func customScalarsAndNullsAreStoredAsTheyArrived() throws {
        try write("{ trip(id: 1) { id when meta tags size ratio } }", """
            {"trip":{"__typename":"Trip","id":"1","when":"1983-05-25T19:30:00Z","meta":{"a":[1,{"b":null}]},"tags":[],"size":77,"ratio":20.0}}
            """)
        let trip = cache.record("Trip:1")
        #expect(trip?["when"] == "1983-05-25T19:30:00Z")
        #expect(trip?["meta"] == ["a": [1, ["b": nil]]])
        #expect(trip?["tags"] == [])
        #expect(trip?["size"] == .int(77))
        #expect(trip?["ratio"] == .double(20))
    }

    /// The same entity twice in one response: the later one wins, field by field, as two
    /// writes in a row would have it.
    @Test func anEntityMetTwiceKeepsItsLaterValues() throws {
        try write("{ trips { id name price } }", """
            {"trips":[{"__typename":"Trip","id":"1","name":"Lisbon","price":10},
                      {"__typename":"Trip","id":"1","name":"Porto","price":10}]}
            """)
        #expect(Support.fields(cache.record("Trip:1")) == ["__typename": "Trip", "id": "1", "name": "Porto", "price": 10])
        #expect(cache.record("QUERY_ROOT")?["trips"] == [.reference("Trip:1"), .reference("Trip:1")])
    }

    /// An object nested in itself (the same key inside it): its fields land in response
    /// order, so the nested copy wins over the fields before it and loses to those after.
    @Test func anObjectNestedInItselfMergesInResponseOrder() throws {
        try write("{ user(id: 1) { id name best { id name nick } nick } }", """
            {"user":{"__typename":"User","id":"1","name":"Ada","best":{"__typename":"User","id":"1","name":"Lovelace","nick":"L"},"nick":"A"}}
            """)
        #expect(Support.fields(cache.record("User:1"))
            == ["__typename": "User", "id": "1", "name": "Lovelace", "best": .reference("User:1"), "nick": "A"])
    }

    /// Records written under one selection share one array of field ids; one that differs
    /// (a field missing beside errors) gets its own, and a later write to one record
    /// leaves the others as they were.
    @Test func recordsOfOneSelectionStayApart() throws {
        let op = try cache.operation("{ items { id name } }")
        try cache.write(data: try Support.object("""
            {"items":[{"__typename":"Item","id":"1","name":"a"},{"__typename":"Item","id":"2"},
                      {"__typename":"Item","id":"3","name":"c"}]}
            """), for: op, partial: true)
        try write("{ item(id: 3) { id price } }", #"{"item":{"__typename":"Item","id":"3","price":5}}"#)
        #expect(Support.fields(cache.record("Item:1")) == ["__typename": "Item", "id": "1", "name": "a"])
        #expect(Support.fields(cache.record("Item:2")) == ["__typename": "Item", "id": "2"])
        #expect(Support.fields(cache.record("Item:3")) == ["__typename": "Item", "id": "3", "name": "c", "price": 5])
    }

    /// Members are looked for in the selection's order first; any other order finds them too.
    @Test func membersInAnyOrder() throws {
        try write("{ trip(id: 1) { id name owner { id name } price } }", """
            {"trip":{"price":12,"owner":{"name":"Ada","id":"7","__typename":"User"},"name":"Lisbon","__typename":"Trip","id":"1"}}
            """)
        #expect(Support.fields(cache.record("Trip:1"))
            == ["__typename": "Trip", "id": "1", "name": "Lisbon", "owner": .reference("User:7"), "price": 12])
        #expect(Support.fields(cache.record("User:7")) == ["__typename": "User", "id": "7", "name": "Ada"])
    }

    /// Plain entity keys are put together in a buffer each keying keeps: one longer than
    /// the buffer grows it, and shorter ones after it keep the `Type:` before them.
    @Test func plainKeysOfAnyLength() throws {
        let long = String(repeating: "x", count: 40), longer = String(repeating: "y", count: 300)
        try write("{ items { id } }", """
            {"items":[{"__typename":"Item","id":"1"},{"__typename":"Item","id":"\(long)"},
                      {"__typename":"Item","id":"\(longer)"},{"__typename":"Item","id":"2"}]}
            """)
        #expect(cache.keys() == ["Item:1", "Item:\(long)", "Item:\(longer)", "Item:2", "QUERY_ROOT"].sorted())
        #expect(cache.record("Item:\(longer)")?["id"] == .string(longer))
    }

    @Test func recordsMergeFieldByField() throws {
        try write("{ trip(id: 1) { id name } }", #"{"trip":{"__typename":"Trip","id":"1","name":"Lisbon"}}"#)
        try write("{ trip(id: 1) { id price } }", #"{"trip":{"__typename":"Trip","id":"1","price":12}}"#)
        #expect(Support.fields(cache.record("Trip:1")) == ["__typename": "Trip", "id": "1", "name": "Lisbon", "price": 12])
    }

    /// The three operations of the fixture, written with the variables and responses Apollo iOS
    /// 1.25.7 had, give exactly the 12 rows it wrote, field for field.
    @Test func apolloIOSFixtureRows() throws {
        let cache = try Support.apolloConfiguredCache()
        cache.possibleTypes = try PossibleTypes(sdl: StarWarsFixture.schema)
        #expect(StarWarsFixture.exchanges.count == 3)
        for exchange in StarWarsFixture.exchanges {
            let op = try cache.operation(exchange.operation)
            try cache.write(response: try JSON.parse(exchange.response), for: op, variables: try Support.object(exchange.variables))
        }
        #expect(cache.keys() == StarWarsFixture.rows.map(\.key))
        for row in StarWarsFixture.rows {
            let expected = try Support.object(row.record, references: .apollo)
            #expect(Support.fields(cache.record(row.key)) == Support.fields(expected), "\(row.key)")
        }
        #expect(cache.takeWarnings().isEmpty)
    }

    /// The same, with the one Float inside an input object variable given as `30.0`: needs no schema.
    @Test func apolloIOSFixtureRowsWithoutASchema() throws {
        let cache = try Support.apolloConfiguredCache()
        for (index, exchange) in StarWarsFixture.exchanges.enumerated() {
            let op = try cache.operation(exchange.operation)
            let variables = index == 2 ? exchange.variables.replacingOccurrences(of: #""max":30"#, with: #""max":30.0"#) : exchange.variables
            try cache.write(response: try JSON.parse(exchange.response), for: op, variables: try Support.object(variables))
        }
        #expect(cache.keys() == StarWarsFixture.rows.map(\.key))
        for row in StarWarsFixture.rows {
            #expect(Support.fields(cache.record(row.key)) == Support.fields(try Support.object(row.record, references: .apollo)), "\(row.key)")
        }
    }

    /// The same once more with the default `id` keying: the unkeyed objects warn, the rows are the same.
    @Test func apolloIOSFixtureRowsWithDefaultKeying() throws {
        let cache = try Support.cache()
        for (index, exchange) in StarWarsFixture.exchanges.enumerated() {
            let op = try cache.operation(exchange.operation)
            let variables = index == 2 ? exchange.variables.replacingOccurrences(of: #""max":30"#, with: #""max":30.0"#) : exchange.variables
            try cache.write(response: try JSON.parse(exchange.response), for: op, variables: try Support.object(variables))
        }
        #expect(cache.keys() == StarWarsFixture.rows.map(\.key))
        let warnings = cache.takeWarnings()
        #expect(warnings.count == 4)   // modules .0 and .1, appearance twice
    }
}
