import Testing
@testable import NormCache

/// Apollo Client's snapshot format: extract, restore, round trips, and malformed
/// snapshots refused without changing the cache.
@Suite struct SnapshotTests {
    let cache: NormalizedCache

    init() throws {
        cache = try Support.cache()
    }

    func writeFixture(into cache: NormalizedCache) throws {
        for (index, exchange) in StarWarsFixture.exchanges.enumerated() {
            let variables = index == 2 ? exchange.variables.replacingOccurrences(of: #""max":30"#, with: #""max":30.0"#) : exchange.variables
            try cache.write(response: try JSON.parse(exchange.response), for: try cache.operation(exchange.operation),
                            variables: try Support.object(variables))
        }
    }

    @Test func extractWritesApolloClientKeys() throws {
        let op = try cache.operation("query ($ep: Episode) { hero(episode: $ep) { id name friends(first: 2) { id } } }")
        try cache.write(data: try Support.object("""
            {"hero":{"__typename":"Human","id":"1000","name":"Luke","friends":[{"__typename":"Droid","id":"2001"},null]}}
            """), for: op, variables: ["ep": "JEDI"])
        let snapshot = cache.extract()
        #expect(snapshot["QUERY_ROOT"] == nil)
        let root = try #require(snapshot["ROOT_QUERY"])
        #expect(root["__typename"] == "Query")
        #expect(root[#"hero({"episode":"JEDI"})"#] == ["__ref": "Human:1000"])
        #expect(snapshot["Human:1000"]?[#"friends({"first":2})"#] == [["__ref": "Droid:2001"], nil])
        #expect(snapshot["Human:1000"]?["name"] == "Luke")
        #expect(JSON.string(snapshot, references: .apolloClient, sortedKeys: true) == """
            {"Droid:2001":{"__typename":"Droid","id":"2001"},\
            "Human:1000":{"__typename":"Human","friends({\\"first\\":2})":[{"__ref":"Droid:2001"},null],"id":"1000","name":"Luke"},\
            "ROOT_QUERY":{"__typename":"Query","hero({\\"episode\\":\\"JEDI\\"})":{"__ref":"Human:1000"}}}
            """)
    }

    @Test func extractWritesInputObjectsAsJSON() throws {
        try writeFixture(into: cache)
        let root = try #require(cache.extract()["ROOT_QUERY"])
        let key = #"search({"filter":{"includeDroids":true,"kinds":["Human","Droid","Starship"],"minLength":null,"orderBy":[{"desc":false,"field":"name"},{"field":"id"}],"range":{"max":30.0,"min":1.5}},"text":"Padmé, R2"})"#
        #expect(root[key] == [["__ref": "Human:1005"], ["__ref": "Droid:2001"], ["__ref": "Starship:3001"]])
        #expect(root[#"human({"id":"1000"})"#] == ["__ref": "Human:1000"])
        let human = try #require(cache.extract()["Human:1000"])
        #expect(human[#"height({"unit":"FOOT"})"#] == 5.64)
        #expect(human["height"] == 1.72)
    }

    @Test func restoreAnApolloClientSnapshotThenRead() throws {
        let snapshot = try JSON.parse(#"""
            {"ROOT_QUERY":{"__typename":"Query","hero({\"episode\":\"JEDI\"})":{"__ref":"Human:1000"},
                           "search({\"filter\":{\"kinds\":[\"Human\"],\"range\":{\"min\":1.5}},\"text\":\"R2\"})":[{"__ref":"Human:1000"}],
                           "settings":{"__typename":"Settings","theme":"dark","limits({\"kind\":\"A\"})":3}},
             "Human:1000":{"__typename":"Human","id":"1000","name":"Luke","friends({\"first\":2})":[{"__ref":"Human:1002"},null]},
             "Human:1002":{"__typename":"Human","id":"1002","name":"Han"}}
            """#)
        try cache.restore(snapshot)
        #expect(cache.keys() == ["Human:1000", "Human:1002", "QUERY_ROOT"])
        #expect(cache.record("QUERY_ROOT")?["hero(episode:JEDI)"] == .reference("Human:1000"))
        #expect(cache.record("QUERY_ROOT")?["__typename"] == nil)
        #expect(cache.record("Human:1000")?["friends(first:2)"] == [.reference("Human:1002"), nil])
        let op = try cache.operation("""
            query ($filter: SearchFilter) {
              hero(episode: JEDI) { id name friends(first: 2) { name } }
              search(text: "R2", filter: $filter) { ... on Human { name } }
              settings { theme limits(kind: A) }
            }
            """)
        let result = try cache.read(op, variables: ["filter": ["kinds": ["Human"], "range": ["min": 1.5]]])
        #expect(result.complete)
        #expect(Support.canonical(result.data) == Support.canonical(try JSON.parse("""
            {"hero":{"__typename":"Human","id":"1000","name":"Luke","friends":[{"__typename":"Human","name":"Han"},null]},
             "search":[{"__typename":"Human","name":"Luke"}],
             "settings":{"__typename":"Settings","theme":"dark","limits":3}}
            """)))
    }

    /// Apollo Client keeps unnormalized objects inline; a read that needs a field such an
    /// object lacks is incomplete like any other.
    @Test func inlineObjectsReportWhatTheyLack() throws {
        try cache.restore(try JSON.parse(#"{"ROOT_QUERY":{"__typename":"Query","settings":{"__typename":"Settings","theme":"dark"}}}"#))
        let op = try cache.operation("{ settings { theme fontSize } }")
        let result = try cache.read(op)
        #expect(!result.complete)
        #expect(result.missing == ["QUERY_ROOT.settings.fontSize"])
        #expect(result.data == nil)
        #expect(try cache.read(op, partial: true).data == ["settings": ["__typename": "Settings", "theme": "dark"]])
    }

    /// Snapshots parsed with `__ref` references already turned into `.reference` restore the same.
    @Test func restoreFromParsedReferences() throws {
        let text = #"{"ROOT_QUERY":{"__typename":"Query","trip({\"id\":\"1\"})":{"__ref":"Trip:1"}},"Trip:1":{"__typename":"Trip","id":"1"}}"#
        try cache.restore(try JSON.parse(text, references: .apolloClient))
        #expect(cache.record("QUERY_ROOT")?["trip(id:1)"] == .reference("Trip:1"))
    }

    @Test func restoreReplacesEverythingAndNotifies() throws {
        try writeFixture(into: cache)
        let op = try cache.operation("{ trip(id: 1) { id name } }")
        let recorder = Recorder()
        let watch = try cache.watch(op, onEmission: recorder.callback)
        defer { watch.cancel() }
        try cache.restore(try JSON.parse(#"{"ROOT_QUERY":{"__typename":"Query","trip({\"id\":\"1\"})":{"__ref":"Trip:1"}},"Trip:1":{"__typename":"Trip","id":"1","name":"Lisbon"}}"#))
        #expect(cache.keys() == ["QUERY_ROOT", "Trip:1"])
        #expect(recorder.count == 2)
        #expect(recorder.last?.result.data?["trip"]?["name"] == "Lisbon")
    }

    @Test func roundTripThroughAnotherCache() throws {
        try writeFixture(into: cache)
        try cache.write(data: try Support.object(#"{"m":{"__typename":"Human","id":"1000","name":"Luke Skywalker"}}"#),
                        for: try cache.operation(#"mutation { m: rename(id: "1000", to: "Luke", when: null, tags: [], at: {x: 1.0}) { id name } }"#))
        let first = cache.extract()
        let other = try Support.cache()
        try other.restore(first)
        let second = other.extract()
        #expect(JSON.string(second, sortedKeys: true) == JSON.string(first, sortedKeys: true))
        // And the records are the Apollo iOS rows again.
        for row in StarWarsFixture.rows {
            #expect(Support.fields(other.record(row.key)) == Support.fields(try Support.object(row.record, references: .apollo)), "\(row.key)")
        }
        // A third cache, from the text of the second snapshot.
        let third = try Support.cache()
        try third.restore(try JSON.parse(JSON.string(second, references: .apolloClient)))
        #expect(JSON.string(third.extract(), sortedKeys: true) == JSON.string(first, sortedKeys: true))
    }

    @Test func inlineObjectsRoundTrip() throws {
        let text = #"{"ROOT_QUERY":{"__typename":"Query","settings":{"__typename":"Settings","limits({\"kind\":\"A\"})":[3,{"x({\"y\":1.5})":null}]}}}"#
        try cache.restore(try JSON.parse(text))
        #expect(cache.record("QUERY_ROOT")?["settings"] == ["__typename": "Settings", "limits(kind:A)": [3, ["x(y:1.5)": nil]]])
        let other = try Support.cache()
        try other.restore(cache.extract())
        #expect(JSON.string(other.extract(), sortedKeys: true) == JSON.string(try JSON.parse(text), sortedKeys: true))
    }

    @Test func roundTripInTheSameCache() throws {
        try writeFixture(into: cache)
        let first = cache.extract()
        try cache.restore(first)
        #expect(JSON.string(cache.extract(), sortedKeys: true) == JSON.string(first, sortedKeys: true))
    }

    @Test func malformedSnapshotsAreRefusedAndChangeNothing() throws {
        try writeFixture(into: cache)
        let recorder = Recorder()
        let watch = try cache.watch(try cache.operation(StarWarsFixture.operations[1]), variables: ["id": "1000", "unit": "FOOT"], onEmission: recorder.callback)
        defer { watch.cancel() }
        let before = JSON.string(cache.extract(), sortedKeys: true)
        let bad = [
            #"[]"#,
            #""text""#,
            #"{"ROOT_QUERY":5}"#,
            #"{"ROOT_QUERY":{"__typename":"Query"},"Trip:1":[]}"#,
            #"{"ROOT_QUERY":{"hero({\"episode\":)":{"__ref":"Human:1000"}}}"#,
            #"{"ROOT_QUERY":{"__typename":"Query"},"Trip:1\u0000":{"id":"1"}}"#,
            #"{"ROOT_QUERY":{"__typename":"Query","f\u0000":1}}"#,
            #"{"__META":["Book:1"]}"#,
            #"{"__META":{}}"#,
            #"{"__META":{"extraRootIds":"Book:1"}}"#,
            #"{"__META":{"extraRootIds":["Book:1",7]}}"#,
        ]
        for text in bad {
            #expect(throws: CacheError.self, "\(text)") { try cache.restore(try JSON.parse(text)) }
            #expect(JSON.string(cache.extract(), sortedKeys: true) == before, "\(text)")
        }
        #expect(recorder.count == 1)
    }

    /// Apollo Client's `__META.extraRootIds`: the ids `retain()` kept. They are no record;
    /// `gc()` keeps them and what they reach; extract() lists them last, sorted, as Apollo
    /// Client does, and never the three roots.
    static let retainedSnapshot = #"""
        {"Book:1":{"__typename":"Book","isbn":"1","publisher":{"__ref":"Publisher:1"}},
         "Book:2":{"__typename":"Book","isbn":"2"},
         "Publisher:1":{"__typename":"Publisher","id":"1"},
         "Zine:1":{"__typename":"Zine","id":"1"},
         "ROOT_QUERY":{"__typename":"Query","book({\"isbn\":\"2\"})":{"__ref":"Book:2"}},
         "__META":{"extraRootIds":["Zine:1","Book:1","ROOT_QUERY","Gone:1"]}}
        """#

    @Test func retainedRecordsAreKeptByGCAndWrittenBackInMeta() throws {
        try cache.restore(try JSON.parse(Self.retainedSnapshot))
        #expect(cache.keys() == ["Book:1", "Book:2", "Publisher:1", "QUERY_ROOT", "Zine:1"])
        try cache.evict("QUERY_ROOT", field: "book")
        #expect(try cache.gc() == ["Book:2"])
        #expect(cache.keys() == ["Book:1", "Publisher:1", "Zine:1"])
        let snapshot = cache.extract()
        guard case .object(let records) = snapshot else { Issue.record("not an object"); return }
        #expect(records.keys == ["Book:1", "Publisher:1", "ROOT_QUERY", "Zine:1", "__META"])
        #expect(snapshot["__META"] == ["extraRootIds": ["Book:1", "Gone:1", "Zine:1"]])
        #expect(snapshot["ROOT_QUERY"] == ["__typename": "Query"])

        // Through the text of a snapshot into another cache, and out again, unchanged.
        let other = try Support.cache()
        try other.restore(try JSON.parse(JSON.string(snapshot, references: .apolloClient)))
        #expect(try other.gc().isEmpty)
        #expect(Support.canonical(other.extract()) == Support.canonical(snapshot))
    }

    @Test func restoreReplacesTheRetainedRecordsAndClearForgetsThem() throws {
        try cache.restore(try JSON.parse(Self.retainedSnapshot))
        try cache.restore(try JSON.parse(#"{"Book:1":{"isbn":"1"},"__META":{"extraRootIds":["Zine:1"]}}"#))
        #expect(cache.extract()["__META"] == ["extraRootIds": ["Zine:1"]])
        #expect(try cache.gc() == ["Book:1"])
        try cache.restore(try JSON.parse(#"{"Book:1":{"isbn":"1"}}"#))
        #expect(cache.extract()["__META"] == nil)
        try cache.restore(try JSON.parse(Self.retainedSnapshot))
        try cache.clear()
        #expect(JSON.string(cache.extract()) == "{}")
        try cache.write(record: "Book:1", fields: ["isbn": "1"])
        #expect(try cache.gc() == ["Book:1"])
    }

    @Test func aFailedTransactionTakesBackTheRetainedRecordsItRestored() throws {
        try cache.restore(try JSON.parse(#"{"Book:1":{"isbn":"1"},"__META":{"extraRootIds":["Book:1"]}}"#))
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try cache.transaction { cache in
                try cache.restore(try JSON.parse(#"{"ROOT_QUERY":{"__typename":"Query"},"Book:2":{"isbn":"2"}}"#))
                try cache.evict("Book:2", field: "isbn")
                throw Stop()
            }
        }
        #expect(JSON.string(cache.extract()) == #"{"Book:1":{"isbn":"1"},"__META":{"extraRootIds":["Book:1"]}}"#)
    }

    @Test func anEmptySnapshotEmptiesTheCache() throws {
        try writeFixture(into: cache)
        try cache.restore(.object(CacheObject()))
        #expect(cache.keys().isEmpty)
    }
}
