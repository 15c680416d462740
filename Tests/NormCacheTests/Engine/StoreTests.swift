import Testing
@testable import NormCache

/// The cache over a ``RecordStore``: writes go through whole records, a new cache on the
/// same store reads them back, removals reach the store, and a failing store fails the commit.
@Suite struct StoreTests {
    let store = InMemoryStore()
    let trips: CompiledOperation
    let cache: NormalizedCache

    init() throws {
        cache = try NormalizedCache(store: store)
        trips = try cache.operation("{ trips { id name place { city } } }")
        try cache.write(data: try Support.object("""
            {"trips":[{"__typename":"Trip","id":"1","name":"Lisbon","place":{"__typename":"Place","city":"Lisbon"}},
                      {"__typename":"Trip","id":"2","name":"Porto","place":null}]}
            """), for: trips)
    }

    /// Every record of the cache equals the store's, and the store holds nothing else.
    func expectStoreMatchesCache(_ cache: NormalizedCache, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(store.keys() == cache.keys(), sourceLocation: sourceLocation)
        for record in store.load(store.keys()) {
            #expect(Support.fields(record.fields) == Support.fields(cache.record(record.key)), "\(record.key)", sourceLocation: sourceLocation)
        }
    }

    @Test func writesGoThrough() throws {
        #expect(store.keys() == ["QUERY_ROOT", "Trip:1", "Trip:1.place", "Trip:2"])
        #expect(Support.fields(store.load(["Trip:1"]).first?.fields) == ["__typename": "Trip", "id": "1", "name": "Lisbon", "place": .reference("Trip:1.place")])
        expectStoreMatchesCache(cache)
        try cache.write(record: "Trip:2", fields: ["name": "Braga", "seats": 4])
        #expect(Support.fields(store.load(["Trip:2"]).first?.fields) == ["__typename": "Trip", "id": "2", "name": "Braga", "place": nil, "seats": 4])
        expectStoreMatchesCache(cache)
    }

    @Test func aNewCacheOnTheStoreReadsThemBack() throws {
        let reopened = try NormalizedCache(store: store)
        #expect(reopened.keys() == cache.keys())
        let result = try reopened.read(try reopened.operation("{ trips { id name place { city } } }"))
        #expect(result.complete)
        #expect(Support.canonical(result.data) == Support.canonical(try cache.read(trips).data))
        // It writes through too, and the first cache's store sees it.
        try reopened.write(record: "Trip:1", fields: ["name": "Faro"])
        #expect(store.load(["Trip:1"]).first?.fields["name"] == "Faro")
    }

    @Test func evictionsRemoveFromTheStore() throws {
        try cache.evict("Trip:2")
        #expect(!store.keys().contains("Trip:2"))
        try cache.evict("Trip:1", field: "name")
        #expect(store.load(["Trip:1"]).first?.fields["name"] == nil)
        expectStoreMatchesCache(cache)
        // A record whose last field goes is gone from the store too.
        try cache.evict("Trip:1.place", field: "city")
        try cache.evict("Trip:1.place", field: "__typename")
        #expect(!store.keys().contains("Trip:1.place"))
        expectStoreMatchesCache(cache)
        try cache.remove(matching: "Trip:*")
        #expect(store.keys() == ["QUERY_ROOT"])
        try cache.write(record: "Loose:1", fields: ["a": 1])
        try cache.gc()
        #expect(store.keys() == ["QUERY_ROOT"])
        try cache.clear()
        #expect(store.keys().isEmpty)
        #expect(try NormalizedCache(store: store).keys().isEmpty)
    }

    @Test func aRecordRemovedAndWrittenAgainInOneTransactionIsStoredWhole() throws {
        try cache.transaction { cache in
            try cache.evict("Trip:1")
            try cache.write(record: "Trip:1", fields: ["id": "1", "name": "New"])
        }
        #expect(Support.fields(store.load(["Trip:1"]).first?.fields) == ["id": "1", "name": "New"])
        expectStoreMatchesCache(cache)
    }

    @Test func restoreGoesThrough() throws {
        try cache.restore(try JSON.parse(#"{"ROOT_QUERY":{"__typename":"Query","trip({\"id\":\"9\"})":{"__ref":"Trip:9"}},"Trip:9":{"__typename":"Trip","id":"9"}}"#))
        #expect(store.keys() == ["QUERY_ROOT", "Trip:9"])
        expectStoreMatchesCache(cache)
    }

    @Test func unchangedWritesDoNotTouchTheStore() throws {
        let counting = CountingStore()
        let cache = try NormalizedCache(store: counting)
        let data = try Support.object(#"{"trips":[{"__typename":"Trip","id":"1","name":"Lisbon","place":null}]}"#)
        try cache.write(data: data, for: trips)
        #expect(counting.merges == 1)
        try cache.write(data: data, for: trips)
        #expect(counting.merges == 1)
        try cache.write(record: "Trip:1", fields: ["name": "Porto"])
        #expect(counting.merges == 2)
        #expect(counting.merged.last?.map(\.key) == ["Trip:1"])
    }

    @Test func aFailingStoreFailsTheCommitAndChangesNothing() throws {
        let failing = CountingStore()
        let cache = try NormalizedCache(store: failing)
        try cache.write(data: try Support.object(#"{"trips":[{"__typename":"Trip","id":"1","name":"Lisbon","place":null}]}"#), for: trips)
        let recorder = Recorder()
        let watch = try cache.watch(trips, onEmission: recorder.callback)
        defer { watch.cancel() }
        let before = JSON.string(cache.extract(), sortedKeys: true)
        failing.fail = true
        #expect(throws: CacheError.self) { try cache.write(record: "Trip:1", fields: ["name": "Porto"]) }
        #expect(throws: CacheError.self) { try cache.evict("Trip:1") }
        #expect(throws: CacheError.self) {
            try cache.write(data: try Support.object(#"{"trips":[{"__typename":"Trip","id":"2","name":"Porto","place":null}]}"#), for: trips)
        }
        do {
            try cache.write(record: "Trip:1", fields: ["name": "Porto"])
        } catch {
            guard case .storage(let message) = error else { Issue.record("not a storage error: \(error)"); return }
            #expect(message.contains("disk full"))
        }
        #expect(JSON.string(cache.extract(), sortedKeys: true) == before)
        #expect(recorder.count == 1)
        failing.fail = false
        try cache.write(record: "Trip:1", fields: ["name": "Porto"])
        #expect(recorder.count == 2)
    }

    /// Opening reads nothing, so a store that cannot load fails the read that needs it,
    /// and the cache goes on once the store can.
    @Test func aStoreThatCannotLoadFailsTheReadThatNeedsIt() throws {
        let failing = CountingStore()
        try failing.write(merging: [RecordChange(key: "QUERY_ROOT", fields: ["trips": []])], removing: [])
        failing.fail = true
        let cache = try NormalizedCache(store: failing)
        let trips = try cache.operation("{ trips { id } }")
        #expect(throws: CacheError.storage("disk full")) { try cache.read(trips) }
        #expect(throws: CacheError.storage("disk full")) { try cache.write(record: "QUERY_ROOT", fields: ["trips": []]) }
        failing.fail = false
        #expect(try cache.read(trips).complete)
    }
}

/// An in-memory store that counts merges (and every write and clear) and can be told to fail.
final class CountingStore: RecordStore {
    let inner = InMemoryStore()
    var fail = false
    var merges = 0
    /// Every call of ``write(merging:removing:)`` and ``clear()``.
    var writes = 0
    var merged: [[RecordChange]] = []

    struct DiskFull: Error, CustomStringConvertible { var description: String { "disk full" } }

    func keys() throws -> [String] {
        if fail { throw DiskFull() }
        return inner.keys()
    }

    func load(_ batch: RecordBatch) throws {
        if fail { throw DiskFull() }
        try inner.load(batch)
    }

    func write(merging records: [RecordChange], removing: [String]) throws {
        if fail { throw DiskFull() }
        writes += 1
        if records.contains(where: \.changesRecord) {   // not only records received again
            merges += 1
            merged.append(records.sorted { $0.key < $1.key })
        }
        inner.write(merging: records, removing: removing)
    }

    func clear() throws {
        if fail { throw DiskFull() }
        writes += 1
        inner.clear()
    }
    func receivedTimes(of keys: [String]) throws -> [String: String] { inner.receivedTimes(of: keys) }
    var keepsReceivedTimes: Bool { inner.keepsReceivedTimes }
}
