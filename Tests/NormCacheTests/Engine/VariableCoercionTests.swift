import Testing
@testable import NormCache

/// GraphQL's input coercion of variables, applied by every read, write and watch: the
/// errors that name a variable, and the one key each accepted value gets.
@Suite struct VariableCoercionTests {
    let cache: NormalizedCache
    let trips: CompiledOperation

    init() throws {
        cache = try Support.cache()
        trips = try cache.operation("query ($first: Int!) { trips(first: $first) { id } }")
    }

    /// The message of the variable error `body` throws, nil if it throws none.
    func variableError(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            guard case .variable(let error)? = error as? CacheError else { return "not a variable error: \(error)" }
            return error.description
        }
    }

    /// `value` (JSON) coerced as a variable of `type`, or the error's message.
    func coerced(_ value: String, as type: String, schema: PossibleTypes = PossibleTypes()) throws -> String {
        let op = try cache.operation("query ($v: \(type)) { f(v: $v) }")
        let cache = self.cache
        cache.possibleTypes = schema
        do {
            return JSON.string(.object(try cache.coerceVariables(try Support.object(#"{"v":\#(value)}"#), for: op)))
        } catch {
            return "\(error)"
        }
    }

    @Test func aMissingRequiredVariableIsAnErrorForReadsWritesAndWatches() throws {
        let message = "$first: missing; the operation requires $first: Int!"
        #expect(variableError { _ = try cache.read(trips) } == message)
        #expect(variableError { try cache.write(data: ["trips": []], for: trips) } == message)
        #expect(variableError { _ = try cache.watch(trips) { _ in } } == message)
        #expect(cache.keys().isEmpty)
        #expect(cache.watchers.isEmpty)
        // Not a silent miss on QUERY_ROOT.trips, and given, it runs.
        try cache.write(data: ["trips": []], for: trips, variables: ["first": 3])
        #expect(cache.record("QUERY_ROOT")?.keys == ["trips(first:3)"])
    }

    @Test func eachBuiltInScalarRefusesTheOtherKinds() throws {
        #expect(try coerced(#""3""#, as: "Int!") == #"$v: Int cannot be "3" (a string)"#)
        #expect(try coerced("3.5", as: "Int") == "$v: Int cannot be 3.5 (a float with a fraction)")
        #expect(try coerced("2147483648", as: "Int") == "$v: Int cannot be 2147483648 (outside the 32 bits of an Int)")
        #expect(try coerced("-2147483648", as: "Int") == #"{"v":-2147483648}"#)
        #expect(try coerced("true", as: "Int") == "$v: Int cannot be true (a boolean)")
        #expect(try coerced(#""1.5""#, as: "Float") == #"$v: Float cannot be "1.5" (a string)"#)
        #expect(try coerced("3", as: "String") == "$v: String cannot be 3 (an integer)")
        #expect(try coerced("4.0", as: "ID") == "$v: ID cannot be 4.0 (a float)")
        #expect(try coerced(#"{"id":4}"#, as: "ID") == #"$v: ID cannot be {"id":4} (an object)"#)
        #expect(try coerced(#""true""#, as: "Boolean") == #"$v: Boolean cannot be "true" (a string)"#)
        #expect(try coerced("1", as: "Boolean") == "$v: Boolean cannot be 1 (an integer)")
        // What each accepts, as it is kept.
        #expect(try coerced("3.0", as: "Int") == #"{"v":3}"#)
        #expect(try coerced("30", as: "Float") == #"{"v":30.0}"#)
        #expect(try coerced("4", as: "ID") == #"{"v":"4"}"#)
        #expect(try coerced(#""Padmé""#, as: "String!") == #"{"v":"Padmé"}"#)
        #expect(try coerced("false", as: "Boolean") == #"{"v":false}"#)
        // Enums, custom scalars and input objects the cache knows nothing of pass as given.
        #expect(try coerced(#""JEDI""#, as: "Episode") == #"{"v":"JEDI"}"#)
        #expect(try coerced(#"{"at":[1,"x"]}"#, as: "JSONObject") == #"{"v":{"at":[1,"x"]}}"#)
    }

    /// `3.0` and `3` are one value of an Int: one key, and a read of one finds the other's write.
    @Test func aWholeFloatForAnIntHasTheKeyOfTheInt() throws {
        try cache.write(data: ["trips": []], for: trips, variables: ["first": 3.0])
        #expect(cache.record("QUERY_ROOT")?.keys == ["trips(first:3)"])
        #expect(try cache.read(trips, variables: ["first": 3]).complete)
        // An ID given as an integer is its string: one key for 2 and "2".
        let trip = try cache.operation("query ($id: ID!) { trip(id: $id) { id } }")
        try cache.write(data: ["trip": ["__typename": "Trip", "id": "2"]], for: trip, variables: ["id": 2])
        #expect(try cache.read(trip, variables: ["id": "2"]).complete)
        #expect(try cache.coerceVariables(["id": 2], for: trip) == ["id": "2"])
    }

    @Test func aSingleValueForAListTypeIsAListOfOne() throws {
        let op = try cache.operation("query ($ids: [ID!]) { trips(ids: $ids) { id } }")
        try cache.write(data: ["trips": []], for: op, variables: ["ids": "1"])
        #expect(try cache.read(op, variables: ["ids": ["1"]]).complete)
        #expect(try coerced("1", as: "[[Int]]") == #"{"v":[[1]]}"#)
        #expect(try coerced("[1,2.0]", as: "[Float!]!") == #"{"v":[1.0,2.0]}"#)
        // Items are coerced one by one; the error says which.
        #expect(try coerced("[1,null]", as: "[Int!]") == "$v[1]: Int! cannot be null")
        #expect(try coerced(#"[[1],["2"]]"#, as: "[[Int]]") == #"$v[1][0]: Int cannot be "2" (a string)"#)
    }

    @Test func nullForANonNullTypeIsAnErrorEvenWithADefault() throws {
        #expect(variableError { _ = try cache.read(trips, variables: ["first": nil]) } == "$first: Int! cannot be null")
        let withDefault = try cache.operation("query ($first: Int! = 3) { trips(first: $first) { id } }")
        #expect(variableError { _ = try cache.read(withDefault, variables: ["first": nil]) } == "$first: Int! cannot be null")
        // Left out, the default stands in.
        try cache.write(data: ["trips": []], for: withDefault)
        #expect(cache.record("QUERY_ROOT")?.keys == ["trips(first:3)"])
    }

    /// A nullable type keeps an explicit null (it is not the same as leaving the variable
    /// out): `trips(first:null)`, not `trips`, and a null list is not wrapped.
    @Test func aNullableTypeKeepsAnExplicitNull() throws {
        let op = try cache.operation("query ($first: Int, $ids: [ID]) { trips(first: $first, ids: $ids) { id } }")
        try cache.write(data: ["trips": []], for: op, variables: ["first": nil, "ids": nil])
        try cache.write(data: ["trips": []], for: op)
        #expect(cache.record("QUERY_ROOT")?.keys.sorted() == ["trips", "trips(first:null,ids:null)"])
    }

    /// Defaults are coerced when the operation is compiled, and refused there if their type does not accept them.
    @Test func defaultsAreCoercedOnceAndCheckedAtCompileTime() throws {
        let op = try cache.operation("query ($min: Float = 3, $ids: [ID] = 7) { ships(min: $min, ids: $ids) { id } }")
        #expect(op.variables.map(\.defaultValue) == [3.0, ["7"]])
        try cache.write(data: ["ships": []], for: op)
        #expect(cache.record("QUERY_ROOT")?.keys == ["ships(ids:[7],min:3.0)"])
        do {
            _ = try cache.operation("query ($first: Int = \"ten\") { trips(first: $first) { id } }")
            Issue.record("a default its type refuses compiled")
        } catch {
            #expect("\(error)" == #"GraphQL error at line 1, column 22: the default of $first: Int cannot be "ten" (a string)"#)
        }
    }

    /// Only declared variables run: a given one the operation does not declare is refused
    /// (a misspelt name would otherwise vanish, and a nullable variable run as null), also
    /// by an operation that declares none. Using an undeclared one in the document, or
    /// declaring one twice, is refused when compiling, as a server's validation would.
    @Test func onlyDeclaredVariablesCount() throws {
        #expect(variableError { _ = try cache.coerceVariables(["first": 3, "frist": 4], for: trips) }
            == "$frist: not declared by the operation (it declares $first: Int!)")
        let none = try cache.operation("{ trips { id } }")
        #expect(variableError { _ = try cache.read(none, variables: ["first": 3]) } == "$first: not declared by the operation (it declares none)")
        #expect(try cache.coerceVariables([:], for: none) == [:])
        for (document, message) in [
            ("query { trips(first: $first) { id } }", "line 1, column 22: $first is used but not declared by the operation"),
            ("query ($a: Int) { t @include(if: $b) { id } }", "line 1, column 34: $b is used but not declared by the operation"),
            ("query ($a: Int, $a: ID) { t(a: $a) }", "line 1, column 17: $a is declared twice"),
        ] {
            #expect(throws: CacheError.self) { _ = try cache.operation(document) }
            do { _ = try cache.operation(document) } catch { #expect("\(error)".hasSuffix(message), "\(error)") }
        }
    }

    /// The fields of an input object the schema knows are coerced to their types.
    @Test func inputObjectFieldsFollowTheSchema() throws {
        let schema = try PossibleTypes(sdl: """
            input Range { min: Float max: Float }
            input SearchFilter { minLength: Int kinds: [ID!] range: Range }
            """)
        #expect(try coerced(#"{"minLength":3.0,"kinds":[1,"b"],"range":{"max":30}}"#, as: "SearchFilter", schema: schema)
            == #"{"v":{"minLength":3,"kinds":["1","b"],"range":{"max":30.0}}}"#)
        #expect(try coerced(#"{"range":{"min":"1"}}"#, as: "SearchFilter!", schema: schema)
            == #"$v.range.min: Float cannot be "1" (a string)"#)
        // A default too, though the compiler knew no schema.
        let withDefault = try cache.operation("query ($r: Range = {max: 30}) { f(r: $r) }")
        #expect(try cache.coerceVariables([:], for: withDefault) == ["r": ["max": 30.0]])
        // Wrappers inside an input object count too: a single value for a list, null for a non-null field.
        let wrapped = try PossibleTypes(sdl: "input Page { ids: [Int!]! after: ID }")
        #expect(try coerced(#"{"ids":2.0}"#, as: "Page", schema: wrapped) == #"{"v":{"ids":[2]}}"#)
        #expect(try coerced(#"{"ids":[1,null]}"#, as: "Page", schema: wrapped)
            == "$v.ids[1]: Int! cannot be null")
    }

    /// An enum the schema knows takes a string naming one of its values, and the error
    /// lists them; without a schema, or a custom scalar, any value passes.
    @Test func anEnumTakesOneOfItsValues() throws {
        let schema = try PossibleTypes(sdl: "enum Episode { NEWHOPE EMPIRE } extend enum Episode { JEDI } scalar Date")
        #expect(try coerced(#""JEDI""#, as: "Episode!", schema: schema) == #"{"v":"JEDI"}"#)
        #expect(try coerced(#"["EMPIRE","JEDI"]"#, as: "[Episode!]", schema: schema) == #"{"v":["EMPIRE","JEDI"]}"#)
        #expect(try coerced(#""JEDIX""#, as: "Episode", schema: schema) == #"$v: "JEDIX" is not a value of Episode (NEWHOPE, EMPIRE, JEDI)"#)
        #expect(try coerced(#""jedi""#, as: "Episode", schema: schema) == #"$v: "jedi" is not a value of Episode (NEWHOPE, EMPIRE, JEDI)"#)
        #expect(try coerced("3", as: "Episode", schema: schema) == "$v: 3 (an integer) is not a value of Episode (NEWHOPE, EMPIRE, JEDI)")
        #expect(try coerced(#"["JEDI","X"]"#, as: "[Episode!]", schema: schema) == #"$v[1]: "X" is not a value of Episode (NEWHOPE, EMPIRE, JEDI)"#)
        #expect(try coerced("null", as: "Episode!", schema: schema) == "$v: Episode! cannot be null")
        #expect(try coerced(#"{"at":1}"#, as: "Date", schema: schema) == #"{"v":{"at":1}}"#)
    }

    /// An input object the schema knows: no field it does not have, every required field
    /// (non-null, no default) given, each field coerced, down nested objects and lists.
    /// A field with a default may be left out, and is not filled in (the server fills it).
    @Test func anInputObjectHasItsFieldsAndNoOthers() throws {
        let schema = try PossibleTypes(sdl: """
            enum Kind { CAT DOG }
            input Pet { name: String! kind: Kind! tags: [String!] = [] }
            input Owner { name: String! pets: [Pet!]! }
            input PetsInput { owners: [[Owner!]!] note: String }
            extend input PetsInput { limit: Int! = 10 }
            """)
        let good = #"{"owners":[[{"name":"Ana","pets":[{"name":"Rex","kind":"DOG"},{"name":"Tom","kind":"CAT","tags":"old"}]}]]}"#
        #expect(try coerced(good, as: "PetsInput!", schema: schema)
            == #"{"v":{"owners":[[{"name":"Ana","pets":[{"name":"Rex","kind":"DOG"},{"name":"Tom","kind":"CAT","tags":["old"]}]}]]}}"#)
        for (value, message) in [
            (#"{"owners":[[{"name":"Ana","pets":[{"name":"Rex","kind":"DOG"},{"kind":"CAT"}]}]]}"#,
             "$v.owners[0][0].pets[1].name: missing; Pet requires name: String!"),
            (#"{"owners":[[{"name":"Ana","pets":[{"name":"Rex","kind":"DOG","age":3}]}]]}"#,
             "$v.owners[0][0].pets[0].age: Pet has no field age (its fields: name, kind, tags)"),
            (#"{"owners":[[{"name":"Ana","pets":[{"name":"Rex","kind":"BIRD"}]}]]}"#,
             #"$v.owners[0][0].pets[0].kind: "BIRD" is not a value of Kind (CAT, DOG)"#),
            (#"{"owners":[[{"name":"Ana","pets":null}]]}"#, "$v.owners[0][0].pets: [Pet!]! cannot be null"),
            (#"{"owners":[[{"name":"Ana"}]]}"#, "$v.owners[0][0].pets: missing; Owner requires pets: [Pet!]!"),
            // A single value for a list is a list of one: "Ana" stands for [["Ana"]]'s item.
            (#"{"owners":["Ana"]}"#, #"$v.owners[0]: Owner cannot be "Ana" (a string, not an object)"#),
            (#"{"note":"x","limit":null}"#, "$v.limit: Int! cannot be null"),
        ] {
            let refusal = try coerced(value, as: "PetsInput", schema: schema)
            #expect(refusal == message, "\(refusal)")
        }
    }

    /// A `@oneOf` input object takes exactly one field, and not null; the error names the fields given.
    @Test func aOneOfInputObjectTakesExactlyOneField() throws {
        let schema = try PossibleTypes(sdl: "input SearchInput @oneOf { name: String id: ID byOwner: SearchInput }")
        #expect(try coerced(#"{"id":7}"#, as: "SearchInput!", schema: schema) == #"{"v":{"id":"7"}}"#)
        #expect(try coerced(#"{"byOwner":{"name":"Ana"}}"#, as: "SearchInput", schema: schema) == #"{"v":{"byOwner":{"name":"Ana"}}}"#)
        #expect(try coerced(#"{"name":"Rex","id":"7"}"#, as: "SearchInput", schema: schema)
            == "$v: @oneOf SearchInput takes exactly one field, got 2 (name, id)")
        #expect(try coerced("{}", as: "SearchInput", schema: schema) == "$v: @oneOf SearchInput takes exactly one field, got 0")
        #expect(try coerced(#"{"name":null}"#, as: "SearchInput", schema: schema)
            == "$v.name: @oneOf SearchInput takes exactly one field, and not null")
        #expect(try coerced(#"{"byOwner":{}}"#, as: "SearchInput", schema: schema)
            == "$v.byOwner: @oneOf SearchInput takes exactly one field, got 0")
        #expect(try coerced(#"{"nick":"Rex"}"#, as: "SearchInput", schema: schema)
            == "$v.nick: SearchInput has no field nick (its fields: name, id, byOwner)")
    }

    /// An introspection result says the same as SDL: enum values, input fields with their
    /// defaults, `isOneOf`. One without `enumValues` knows the enum but not its values.
    @Test func anIntrospectedSchemaChecksTheSame() throws {
        func type(_ kind: String, _ name: String, _ members: KeyValuePairs<String, CacheValue>) -> CacheValue {
            var object: CacheObject = ["kind": .string(kind), "name": .string(name)]
            for (key, value) in members { object.appendNew(key, value) }
            return .object(object)
        }
        let int: CacheValue = ["kind": "NON_NULL", "ofType": ["kind": "SCALAR", "name": "Int"]]
        let schema = try PossibleTypes(introspection: ["__schema": ["types": [
            type("ENUM", "Episode", ["enumValues": [["name": "NEWHOPE"], ["name": "JEDI"]]]),
            type("ENUM", "Color", [:]),
            type("INPUT_OBJECT", "ReviewInput", ["inputFields": [["name": "stars", "type": int, "defaultValue": nil],
                                                                 ["name": "max", "type": int, "defaultValue": "5"]]]),
            type("INPUT_OBJECT", "SearchInput", ["isOneOf": true, "inputFields": [["name": "name", "type": ["kind": "SCALAR", "name": "String"]],
                                                                                  ["name": "id", "type": ["kind": "SCALAR", "name": "ID"]]]]),
        ]]])
        #expect(try coerced(#""EMPIRE""#, as: "Episode", schema: schema) == #"$v: "EMPIRE" is not a value of Episode (NEWHOPE, JEDI)"#)
        #expect(try coerced(#""ANY""#, as: "Color", schema: schema) == #"{"v":"ANY"}"#)
        #expect(try coerced(#"{"max":4}"#, as: "ReviewInput", schema: schema) == "$v.stars: missing; ReviewInput requires stars: Int!")
        #expect(try coerced(#"{"stars":4}"#, as: "ReviewInput", schema: schema) == #"{"v":{"stars":4}}"#)
        #expect(try coerced(#"{"name":"a","id":"b"}"#, as: "SearchInput", schema: schema)
            == "$v: @oneOf SearchInput takes exactly one field, got 2 (name, id)")
    }

    /// One variable's value is checked as the whole set checks it, the others aside (a
    /// required one not given is no error here): what the workbench's `.vars` asks.
    @Test func oneVariableIsCheckedAsTheSetChecksIt() throws {
        let schema = SchemaKnowledge(possibleTypes: try PossibleTypes(sdl: "enum Episode { NEWHOPE JEDI }"))
        let hero = try cache.operation("query ($episode: Episode, $first: Int!) { hero(episode: $episode, first: $first) { id } }")
        #expect(try cache.coerceVariable("episode", "JEDI", for: hero, schema: schema) == "JEDI")
        #expect(try cache.coerceVariable("first", 3.0, for: hero) == 3)
        #expect(variableError { _ = try cache.coerceVariable("episode", "JEDIX", for: hero, schema: schema) }
            == #"$episode: "JEDIX" is not a value of Episode (NEWHOPE, JEDI)"#)
        #expect(variableError { _ = try cache.coerceVariable("ep", "JEDI", for: hero, schema: schema) }
            == "$ep: not declared by the operation (it declares $episode: Episode, $first: Int!)")
    }

    /// New variables for a watcher are coerced too; refused ones leave the watcher as it was.
    @Test func setVariablesCoercesOrChangesNothing() throws {
        try cache.write(data: ["trips": []], for: trips, variables: ["first": 3])
        let recorder = Recorder()
        let watch = try cache.watch(trips, variables: ["first": 2], onEmission: recorder.callback)
        try cache.setVariables(of: watch, to: ["first": 3.0])
        #expect(recorder.emissions.last?.result.complete == true)
        #expect(variableError { try cache.setVariables(of: watch, to: ["first": "3"]) } == #"$first: Int cannot be "3" (a string)"#)
        #expect(recorder.emissions.count == 2)
        try cache.write(data: ["trips": [["__typename": "Trip", "id": "1"]]], for: trips, variables: ["first": 3])
        #expect(recorder.emissions.count == 3)
    }
}
