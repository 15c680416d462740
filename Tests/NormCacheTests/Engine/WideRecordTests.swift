import Testing
@testable import NormCache

/// Objects and records 100,000 members wide, as a `QUERY_ROOT` gets when an app opens
/// many detail screens (`trip(id:N)` for each): the JSON reader, the SQLite store, Apollo
/// Client snapshots and eviction take them in linear time, with member order and errors
/// as for small ones. There are no timings here (`normcache bench load.wide import.wide`
/// measures them), but a path that costs the square of the width makes these tests run
/// for hours instead of seconds.
@Suite struct WideRecordTests {
    static let width = 100_000
    /// Trips the root's fields refer to, each under a thousand argument variants.
    static let tripCount = 100
    let directory = TemporaryDirectory()

    /// `{"f0":0,"f1":1,…}` of `width` members, then `more` members as written.
    static func wideObjectText(_ width: Int, more: String = "") -> String {
        "{" + (0..<width).map { "\"f\($0)\":\($0)" }.joined(separator: ",") + more + "}"
    }

    /// `trip(id:N)` → `Trip:(N mod 100)` for every N below ``width``.
    static let root = CacheObject(members: (0..<width).map { ("trip(id:\($0))", CacheValue.reference("Trip:\($0 % tripCount)")) })

    /// A cache (over `store`, if given) holding the trips and the wide root.
    static func wideCache(store: SQLiteStore? = nil) throws -> NormalizedCache {
        let cache = try NormalizedCache(store: store)
        for id in 0..<tripCount {
            try cache.write(record: "Trip:\(id)", fields: ["__typename": "Trip", "id": .string("\(id)"), "name": .string("Trip \(id)")])
        }
        try cache.write(record: "QUERY_ROOT", fields: root)
        return cache
    }

    @Test func aWideObjectParsesWithItsMembersInOrder() throws {
        let object = try Support.object(Self.wideObjectText(Self.width))
        #expect(object.count == Self.width)
        #expect(object.keys == (0..<Self.width).map { "f\($0)" })
        #expect(object["f77777"] == 77777)
    }

    @Test func aDuplicateMemberIsRefusedWithItsPlaceHoweverWideTheObject() {
        // A narrow object finds the duplicate by a scan, a wide one by its hash index.
        for width in [3, CacheObject.Builder.indexFrom + 1, Self.width] {
            let line = Self.wideObjectText(width, more: #","f1":true"#) + "}"
            let text = "{\"data\":\n" + line
            do {
                _ = try JSON.parse(text)
                Issue.record("a duplicate member in \(width) members was accepted")
            } catch {
                #expect(error.message == #"duplicate member "f1""#)
                #expect(error.line == 2)
                #expect(error.column == line.count - 1, "just after the duplicate's value, in \(width) members")
                #expect(error.path == "data")
            }
        }
    }

    @Test func aLaterMemberReplacesAnEarlierOneWhenObjectsAreBuiltFromPairs() {
        let pairs = (0..<Self.width).map { ("f\($0 % 1000)", CacheValue($0)) }
        let object = CacheObject(members: pairs)
        #expect(object.keys == (0..<1000).map { "f\($0)" })
        #expect(object["f7"] == CacheValue(Self.width - 1000 + 7))
    }

    @Test func aWideRootRoundTripsThroughAnApolloFile() throws {
        let path = directory.path("wide.sqlite")
        do {
            let store = try SQLiteStore(path: path)
            defer { store.close() }
            _ = try Self.wideCache(store: store)
        }
        do {
            let (cache, store) = try SQLiteSupport.cache(path)
            defer { store.close() }
            #expect(cache.record("QUERY_ROOT") == Self.root)
            #expect(cache.takeWarnings().isEmpty)
            let result = try cache.read(try cache.operation(#"{ trip(id: 77777) { id name } }"#))
            #expect(Support.canonical(result.data) == #"{"trip":{"__typename":"Trip","id":"77","name":"Trip 77"}}"#)
            // One more root field, then every trip(id:) variant evicted: the row is rewritten whole each time.
            try cache.write(record: "QUERY_ROOT", fields: ["me": .reference("Trip:1")])
            #expect(try cache.evict("QUERY_ROOT", field: "trip").count == Self.width)
        }
        let (cache, store) = try SQLiteSupport.cache(path)
        defer { store.close() }
        #expect(cache.record("QUERY_ROOT") == ["me": .reference("Trip:1")])
    }

    @Test func aWideRootRoundTripsThroughASnapshot() throws {
        let cache = try Self.wideCache()
        let text = JSON.string(cache.extract(), references: .none)
        #expect(text.contains(#""ROOT_QUERY":{"__typename":"Query","trip(id:0)":{"__ref":"Trip:0"},"trip(id:1)":"#))
        let restored = NormalizedCache()
        try restored.restore(try JSON.parse(text))
        #expect(restored.record("QUERY_ROOT") == Self.root)
        // Restoring over a wide root replaces it whole.
        try restored.write(record: "QUERY_ROOT", fields: ["me": .reference("Trip:1")])
        try restored.restore(try JSON.parse(text))
        #expect(restored.record("QUERY_ROOT") == Self.root)
        #expect(restored.keys().count == Self.tripCount + 1)
    }

    @Test func aWideApolloClientRootTakesItsArgumentsAsJSON() throws {
        let members = (0..<Self.width).map { #""trip({\"id\":\#($0)})":{"__ref":"Trip:\#($0 % Self.tripCount)"}"# }
        let text = #"{"ROOT_QUERY":{"__typename":"Query","# + members.joined(separator: ",") + "}}"
        let cache = NormalizedCache()
        try cache.restore(try JSON.parse(text))
        #expect(cache.record("QUERY_ROOT") == Self.root)
        #expect(JSON.string(cache.extract(), references: .none) == text)
    }
}
