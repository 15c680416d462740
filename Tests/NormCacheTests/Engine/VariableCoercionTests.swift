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
        let message = "variable $first of type Int! was not given"
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
        #expect(try coerced(#""3""#, as: "Int!") == #"variable $v of type Int! cannot be "3" (a string)"#)
        #expect(try coerced("3.5", as: "Int") == "variable $v of type Int cannot be 3.5 (a float with a fraction)")
        #expect(try coerced("2147483648", as: "Int") == "variable $v of type Int cannot be 2147483648 (outside the 32 bits of an Int)")
        #expect(try coerced("-2147483648", as: "Int") == #"{"v":-2147483648}"#)
        #expect(try coerced("true", as: "Int") == "variable $v of type Int cannot be true (a boolean)")
        #expect(try coerced(#""1.5""#, as: "Float") == #"variable $v of type Float cannot be "1.5" (a string)"#)
        #expect(try coerced("3", as: "String") == "variable $v of type String cannot be 3 (an integer)")
        #expect(try coerced("4.0", as: "ID") == "variable $v of type ID cannot be 4.0 (a float)")
        #expect(try coerced(#"{"id":4}"#, as: "ID") == #"variable $v of type ID cannot be {"id":4} (an object)"#)
        #expect(try coerced(#""true""#, as: "Boolean") == #"variable $v of type Boolean cannot be "true" (a string)"#)
        #expect(try coerced("1", as: "Boolean") == "variable $v of type Boolean cannot be 1 (an integer)")
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
        #expect(try coerced("[1,null]", as: "[Int!]") == "variable $v of type [Int!]: $v[1] of type Int! cannot be null")
        #expect(try coerced(#"[[1],["2"]]"#, as: "[[Int]]") == #"variable $v of type [[Int]]: $v[1][0] of type Int cannot be "2" (a string)"#)
    }

    @Test func nullForANonNullTypeIsAnErrorEvenWithADefault() throws {
        #expect(variableError { _ = try cache.read(trips, variables: ["first": nil]) } == "variable $first of type Int! cannot be null")
        let withDefault = try cache.operation("query ($first: Int! = 3) { trips(first: $first) { id } }")
        #expect(variableError { _ = try cache.read(withDefault, variables: ["first": nil]) } == "variable $first of type Int! cannot be null")
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
            #expect("\(error)" == #"GraphQL error at line 1, column 22: the default of $first (Int) cannot be "ten" (a string)"#)
        }
    }

    /// Only declared variables run (a server ignores others); using an undeclared one, or
    /// declaring one twice, is refused when compiling, as a server's validation would.
    @Test func onlyDeclaredVariablesCount() throws {
        #expect(try cache.coerceVariables(["first": 3, "extra": "x"], for: trips) == ["first": 3])
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
        #expect(try coerced(#"{"minLength":3.0,"kinds":[1,"b"],"range":{"max":30},"other":"x"}"#, as: "SearchFilter", schema: schema)
            == #"{"v":{"minLength":3,"kinds":["1","b"],"range":{"max":30.0},"other":"x"}}"#)
        #expect(try coerced(#"{"range":{"min":"1"}}"#, as: "SearchFilter!", schema: schema)
            == #"variable $v of type SearchFilter!: $v.range.min of type Float cannot be "1" (a string)"#)
        // A default too, though the compiler knew no schema.
        let withDefault = try cache.operation("query ($r: Range = {max: 30}) { f(r: $r) }")
        #expect(try cache.coerceVariables([:], for: withDefault) == ["r": ["max": 30.0]])
        // Wrappers inside an input object count too: a single value for a list, null for a non-null field.
        let wrapped = try PossibleTypes(sdl: "input Page { ids: [Int!]! after: ID }")
        #expect(try coerced(#"{"ids":2.0}"#, as: "Page", schema: wrapped) == #"{"v":{"ids":[2]}}"#)
        #expect(try coerced(#"{"ids":[1,null]}"#, as: "Page", schema: wrapped)
            == "variable $v of type Page: $v.ids[1] of type Int! cannot be null")
    }

    /// New variables for a watcher are coerced too; refused ones leave the watcher as it was.
    @Test func setVariablesCoercesOrChangesNothing() throws {
        try cache.write(data: ["trips": []], for: trips, variables: ["first": 3])
        let recorder = Recorder()
        let watch = try cache.watch(trips, variables: ["first": 2], onEmission: recorder.callback)
        try cache.setVariables(of: watch, to: ["first": 3.0])
        #expect(recorder.emissions.last?.result.complete == true)
        #expect(variableError { try cache.setVariables(of: watch, to: ["first": "3"]) } == #"variable $first of type Int! cannot be "3" (a string)"#)
        #expect(recorder.emissions.count == 2)
        try cache.write(data: ["trips": [["__typename": "Trip", "id": "1"]]], for: trips, variables: ["first": 3])
        #expect(recorder.emissions.count == 3)
    }
}
