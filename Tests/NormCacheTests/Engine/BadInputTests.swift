import Testing
@testable import NormCache

/// Bad input: malformed JSON, responses that do not fit their operation, huge numbers and
/// deep nesting are refused with a place, and a refused write leaves every record as it was.
@Suite struct BadInputTests {
    let cache: NormalizedCache

    init() throws {
        cache = try Support.cache()
    }

    func jsonError(_ text: String) -> JSONError? {
        do {
            _ = try JSON.parse(text)
            return nil
        } catch {
            return error
        }
    }

    func responseError(_ document: String, _ data: String, variables: CacheObject = CacheObject()) throws -> ResponseError? {
        let op = try cache.operation(document)
        let object = try Support.object(data)
        do {
            try cache.write(data: object, for: op, variables: variables)
            return nil
        } catch {
            guard case .response(let error) = error else {
                Issue.record("not a response error: \(error)")
                return nil
            }
            return error
        }
    }

    @Test func malformedJSONHasALineAColumnAndAPath() {
        let trailing = jsonError("{\"data\": {\"hero\": [1, 2,]}}")
        #expect(trailing?.line == 1)
        #expect(trailing?.column == 25)
        #expect(trailing?.path == "data.hero[2]")
        let multiline = jsonError("{\n  \"data\": {\n    \"trips\": [\n      {\"name\": \"Lisbon\"},\n      {\"name\": Porto}\n    ]\n  }\n}")
        #expect(multiline?.line == 5)
        #expect(multiline?.column == 16)
        #expect(multiline?.path == "data.trips[1].name")
        #expect(multiline?.description.contains("line 5, column 16") == true)
        for text in ["", "{", "{\"a\" 1}", "{\"a\":1,}", "[1 2]", "{'a':1}", "01", "1.", "-", "nul", "\"\\x\"", "\"a", "{} {}",
                     "{\"a\":1,\"a\":2}", "\"\u{01}\"", "\"\\ud800\"", "// comment\n{}", "NaN", "1e999"] {
            #expect(jsonError(text) != nil, "\(text)")
        }
    }

    @Test func malformedGraphQLHasALineAColumnAndAPlainMessage() {
        #expect(throws: CacheError.operation(OperationError("Expected Name, found }", line: 3, column: 3))) {
            try cache.operation("query Q {\n  trips { id name(\n  }\n}")
        }
    }

    @Test func columnsCountCharactersNotBytes() {
        let error = jsonError("{\"name\": \"Padmé 🔌\", x}")
        #expect(error?.line == 1)
        #expect(error?.column == 21)
    }

    /// The reader checks a string's UTF-8 itself: it must take and refuse exactly what the
    /// standard library's check does, with or without escapes before the bytes.
    @Test func stringsAreCheckedAsUTF8AsTheStandardLibraryChecksThem() {
        var sequences: [[UInt8]] = (0x20...0xFF).flatMap { first in (0x20...0xFF).map { [UInt8(first), UInt8($0)] } }
        let edges: [UInt8] = [0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0]
        for lead in UInt8(0xE0)...0xFF {
            for second in edges {
                for third in edges {
                    sequences.append([lead, second, third])
                    sequences.append([lead, second, third, 0x41])
                    for fourth in edges { sequences.append([lead, second, third, fourth]) }
                }
            }
        }
        var valid = 0, invalid = 0
        for sequence in sequences where !sequence.contains(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            let expected = String(validating: sequence, as: UTF8.self)
            for escaped in [false, true] {
                let text: [UInt8] = [UInt8(ascii: "\"")] + (escaped ? Array(#"\n"#.utf8) : []) + sequence + [UInt8(ascii: "\"")]
                let parsed = try? text.withUnsafeBufferPointer { try JSON.parse(bytes: $0) }
                #expect(parsed == expected.map { .string((escaped ? "\n" : "") + $0) }, "\(sequence)")
                if expected == nil { invalid += 1 } else { valid += 1 }
            }
        }
        #expect(valid > 10_000 && invalid > 10_000)  // both outcomes, many times
    }

    @Test func integersBeyondInt64AreRefused() throws {
        let error = jsonError("{\"data\": {\"n\": 9223372036854775808}}")
        #expect(error?.message.contains("64 bits") == true)
        #expect(error?.path == "data.n")
        #expect(error?.column == 16)
        #expect(jsonError("-9223372036854775809") != nil)
        #expect(try JSON.parse("9223372036854775807") == .int(Int64.max))
        #expect(try JSON.parse("-9223372036854775808") == .int(Int64.min))
        #expect(try JSON.parse("9223372036854775808.0") == .double(9223372036854775808.0))
    }

    @Test func deepNestingIsRefusedWithoutACrash() {
        let depth = 100_000
        let arrays = jsonError(String(repeating: "[", count: depth) + String(repeating: "]", count: depth))
        #expect(arrays?.message.contains("nesting") == true)
        let objects = jsonError(String(repeating: "{\"a\":", count: depth) + "1" + String(repeating: "}", count: depth))
        #expect(objects?.message.contains("nesting") == true)
        #expect(objects?.path.hasPrefix("a.a.a") == true)
        // Just within the limit parses.
        let limit = JSON.maxDepth
        #expect(jsonError(String(repeating: "[", count: limit) + String(repeating: "]", count: limit)) == nil)
        #expect(jsonError(String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)) != nil)
    }

    /// A response nested as deep as the JSON reader allows, for a query as deep as the compiler allows.
    @Test func deepResponsesWriteAndRead() throws {
        let depth = GraphQLParserGuard.maxNesting - 1
        let document = String(repeating: "{ a ", count: depth) + "{ v }" + String(repeating: " }", count: depth)
        let op = try cache.operation(document)
        var value: CacheValue = ["__typename": "T", "v": 1]
        for _ in 1..<depth { value = ["__typename": "T", "a": value] }
        let data: CacheObject = ["a": value]
        try cache.write(data: data, for: op)
        let result = try cache.read(op)
        #expect(result.complete)
        #expect(Support.canonical(result.data) == Support.canonical(.object(data)))
    }

    @Test func aScalarWhereAnObjectBelongsNamesThePath() throws {
        let error = try responseError("{ hero { friends { name } } }",
                                      #"{"hero":{"__typename":"Human","id":"1","friends":[{"__typename":"Human","id":"2","name":"Han"},5]}}"#)
        #expect(error?.path == "data.hero.friends[1]")
        #expect(error?.message.contains("an integer") == true)
        #expect(cache.keys().isEmpty)
        // Nested lists, aliases: the path uses response keys.
        let nested = try responseError("{ grid: cells { v } }", #"{"grid":[[{"__typename":"C","v":1}],[{"__typename":"C","v":2},"x"]]}"#)
        #expect(nested?.path == "data.grid[1][1]")
        let top = try responseError("{ hero { name } }", #"{"hero":"Luke"}"#)
        #expect(top?.path == "data.hero")
    }

    @Test func anObjectWhereAScalarBelongsIsStoredAsItIs() throws {
        // A scalar field may hold any JSON (custom scalars); only references are refused.
        #expect(try responseError("{ trip(id: 1) { id meta } }", #"{"trip":{"__typename":"Trip","id":"1","meta":{"a":1}}}"#) == nil)
        #expect(cache.record("Trip:1")?["meta"] == ["a": 1])
    }

    @Test func aMissingFieldWithoutErrorsIsRefused() throws {
        let error = try responseError("{ hero { name friends { name } } }",
                                      #"{"hero":{"__typename":"Human","id":"1","name":"Luke","friends":[{"__typename":"Human","id":"2"}]}}"#)
        #expect(error?.path == "data.hero.friends[0].name")
        #expect(error?.message.contains("missing field \"name\"") == true)
        let root = try responseError("{ a b }", #"{"a":1}"#)
        #expect(root?.path == "data.b")
    }

    @Test func aBadTypenameIsRefused() throws {
        let error = try responseError("{ hero { name } }", #"{"hero":{"__typename":5,"name":"Luke"}}"#)
        #expect(error?.path == "data.hero.__typename")
    }

    @Test func aRejectedWriteLeavesEveryRecordAsItWas() throws {
        let op = try cache.operation("{ trips { id name place { city } } }")
        try cache.write(data: try Support.object("""
            {"trips":[{"__typename":"Trip","id":"1","name":"Lisbon","place":{"__typename":"Place","city":"Lisbon"}},{"__typename":"Trip","id":"2","name":"Porto","place":null}]}
            """), for: op)
        _ = cache.takeWarnings()
        let recorder = Recorder()
        let watch = try cache.watch(op, onEmission: recorder.callback)
        defer { watch.cancel() }
        let before = JSON.string(cache.extract(), sortedKeys: true)
        let keys = cache.keys()
        // Good changes first, then a bad item: nothing of it may land.
        let bad = [
            #"{"trips":[{"__typename":"Trip","id":"1","name":"Faro","place":{"__typename":"Place","city":"Faro"}},{"__typename":"Trip","id":"3","name":"New","place":7}]}"#,
            #"{"trips":[{"__typename":"Trip","id":"1","name":"Faro","place":null},{"__typename":"Trip","id":"2","place":null}]}"#,
            #"{"trips":[{"__typename":"Trip","id":"1","name":"Faro","place":null},{"__typename":"Trip","id":"2\u0000","name":"x","place":null}]}"#,
            #"{"trips":[{"__typename":"Trip","id":"1","name":"Faro","place":null},{"__typename":"Trip","id":"2","name":"x","place":{"__typename":"Place"}}]}"#,
        ]
        for text in bad {
            #expect(throws: CacheError.self, "\(text)") { try cache.write(data: try Support.object(text), for: op) }
            #expect(JSON.string(cache.extract(), sortedKeys: true) == before, "\(text)")
            #expect(cache.keys() == keys, "\(text)")
        }
        #expect(recorder.count == 1)
        #expect(cache.takeWarnings().isEmpty)
    }

    @Test func aRejectedWriteLearnsNothing() throws {
        let op = try cache.operation("{ hero { ... on Character { id name } friends { name } } }")
        let types = cache.possibleTypes
        #expect(throws: CacheError.self) {
            try cache.write(data: try Support.object(#"{"hero":{"__typename":"Droid","id":"2","name":"R2","friends":[{"__typename":"Human"}]}}"#), for: op)
        }
        #expect(cache.possibleTypes == types)
        #expect(cache.takeWarnings().isEmpty)
    }

    @Test func aReferenceInAResponseIsRefused() throws {
        let op = try cache.operation("{ trip(id: 1) { id name } }")
        #expect(throws: CacheError.self) {
            try cache.write(data: ["trip": ["__typename": "Trip", "id": "1", "name": .reference("Trip:2")]], for: op)
        }
        #expect(cache.keys().isEmpty)
    }

    @Test func keysTheInternerRefuses() throws {
        let op = try cache.operation("query ($id: ID!) { trip(id: $id) { id } }")
        #expect(throws: CacheError.self) {
            try cache.write(data: try Support.object(#"{"trip":{"__typename":"Trip","id":"1"}}"#), for: op, variables: ["id": "a\u{0}"])
        }
        #expect(throws: CacheError.self) { try cache.read(op, variables: ["id": "a\u{0}"]) }
        #expect(throws: CacheError.self) { try cache.write(record: "bad\u{0}", fields: ["a": 1]) }
        #expect(throws: CacheError.self) { try cache.write(record: "Trip:1", fields: ["a\u{0}": 1]) }
        #expect(cache.keys().isEmpty)
        // A good field before the bad one is undone with it.
        try cache.write(record: "Trip:1", fields: ["a": 1])
        #expect(throws: CacheError.self) { try cache.write(record: "Trip:1", fields: ["a": 2, "b": 3, "c\u{0}": 4]) }
        #expect(cache.record("Trip:1") == ["a": 1])
        // Records keep references by their record's id, so a reference's key is checked
        // when it is written, alone or in a list.
        #expect(throws: CacheError.self) { try cache.write(record: "Trip:1", fields: ["a": 2, "owner": .reference("User:\u{0}")]) }
        #expect(throws: CacheError.self) { try cache.write(record: "Trip:1", fields: ["stops": [.reference("Stop:1"), .reference("\u{0}")]]) }
        #expect(cache.record("Trip:1") == ["a": 1])
    }
}
