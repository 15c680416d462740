import Testing
@testable import NormCache

/// Garbage collection gives the record keys nothing names back to the key interner, and
/// new keys reuse their ids and memory; an id still named (by a record, a reference, a
/// watcher, an optimistic layer, a transaction's undo log, a value the record history keeps) stays.
@Suite struct KeyReleaseTests {
    let cache: NormalizedCache
    let trips: CompiledOperation

    init() throws {
        cache = try Support.cache()
        trips = try cache.operation("{ trips { id name owner { name } } }")
        try cache.write(data: try Support.object("""
            {"trips":[{"__typename":"Trip","id":"1","name":"Lisbon","owner":{"__typename":"User","id":"9","name":"Ana"}},
                      {"__typename":"Trip","id":"2","name":"Porto","owner":{"__typename":"User","id":"9","name":"Ana"}}]}
            """), for: trips)
    }

    private var keys: KeyInterner { cache.locked { cache.state.keys.recordKeys } }

    /// The trip list as read now, as JSON text with sorted keys.
    private func tripList() throws -> String { Support.canonical(try cache.read(trips).data) }

    /// The trip list the cache was seeded with, its owner named `owner`.
    private static func trips(owner: String) -> String {
        #"{"trips":[{"__typename":"Trip","id":"1","name":"Lisbon","owner":{"__typename":"User","name":"\#(owner)"}},"#
            + #"{"__typename":"Trip","id":"2","name":"Porto","owner":{"__typename":"User","name":"\#(owner)"}}]}"#
    }

    /// Writes `count` records of keys new to the cache (`Loose:<round>-<i>`, all of one
    /// length) and evicts each, then collects garbage.
    private func churn(round: Int, count: Int = 1_000) throws {
        for i in 0..<count {
            let key = "Loose:\(round)-\(String(i + 10_000))"
            try cache.write(record: key, fields: ["__typename": "Loose", "n": CacheValue(i), "trip": .reference("Trip:1")])
            #expect(cache.record(key)?["n"] == CacheValue(i))
            try cache.evict(key)
        }
        #expect(try cache.gc().isEmpty)
    }

    /// Every key the interner holds names its own id both ways.
    private func keysResolve() -> Bool {
        cache.locked {
            let keys = cache.state.keys.recordKeys
            return (0..<UInt32(keys.count)).allSatisfy { raw in
                let id = KeyID(rawValue: raw)
                return keys.key(for: id).map { keys.find($0) == id } ?? true
            }
        }
    }

    @Test func evictedKeysGoBackAtGCAndNewKeysReuseThem() throws {
        let held = keys.liveCount
        try churn(round: 0)
        #expect(keys.liveCount <= held)   // fewer over a store: records unloaded after each commit hold nothing
        let (bound, memory) = (keys.count, keys.memoryBytes)
        #expect(bound > 1_000)
        for round in 1...2 {
            try churn(round: round)
            #expect(keys.liveCount <= held)   // fewer over a store: records unloaded after each commit hold nothing
            // The same ids and the same memory, round after round.
            #expect(keys.count == bound)
            #expect(keys.memoryBytes == memory)
        }
        #expect(keysResolve())
        #expect(keys.find("Loose:1-10005") == nil)
        #expect(try tripList() == Self.trips(owner: "Ana"))
        #expect(cache.keys() == ["QUERY_ROOT", "Trip:1", "Trip:2", "User:9"])
    }

    /// An evicted record still referenced keeps its id: writing its key again meets the
    /// references to it.
    @Test func aDanglingReferenceKeepsItsTarget() throws {
        try cache.evict("User:9")
        try cache.gc()
        try churn(round: 0)
        #expect(!(try cache.read(trips).complete))
        try cache.write(record: "User:9", fields: ["__typename": "User", "id": "9", "name": "Bea"])
        #expect(try tripList() == Self.trips(owner: "Bea"))
        #expect(keysResolve())
    }

    /// A watcher that missed a record it was redirected to keeps the record's id, and
    /// hears the write that brings it.
    @Test func aWatcherKeepsWhatItMissed() throws {
        var schema = SchemaKnowledge(possibleTypes: try PossibleTypes(sdl: "type Trip { id: ID! name: String } type Query { trip(id: ID!): Trip }"))
        schema.fieldPolicies["Query", "trip"] = ["id"]
        let detail = try cache.operation("query ($id: ID!) { trip(id: $id) { id name } }")
        let recorder = Recorder()
        let watch = try cache.watch(detail, variables: ["id": "5"], schema: schema, partial: true, onEmission: recorder.callback)
        defer { watch.cancel() }
        #expect(keys.find("Trip:5") != nil)
        try churn(round: 0)
        #expect(keys.find("Trip:5") != nil)
        try cache.write(record: "Trip:5", fields: ["__typename": "Trip", "id": "5", "name": "Faro"])
        #expect(recorder.last?.result.data?["trip"]?["name"] == "Faro")
    }

    /// A record only an optimistic layer holds keeps its id.
    @Test func anOptimisticLayerKeepsItsRecords() throws {
        try cache.writeOptimistic("pending", data: try Support.object(#"{"trips":[{"__typename":"Trip","id":"7","name":"Optimist","owner":null}]}"#),
                                  for: trips)
        try churn(round: 0)
        #expect(Support.canonical(try cache.read(trips).data) == #"{"trips":[{"__typename":"Trip","id":"7","name":"Optimist","owner":null}]}"#)
        #expect(Support.fields(cache.record("Trip:7")) == ["__typename": "Trip", "id": "7", "name": "Optimist", "owner": .null])
        try cache.rollBackOptimistic("pending")
        #expect(try tripList() == Self.trips(owner: "Ana"))
        #expect(try cache.gc().isEmpty)   // Trip:7 went with its layer
        // The record history's kept values of QUERY_ROOT.trips still name it; without them its key goes.
        #expect(keys.find("Trip:7") != nil)
        cache.historyLimit = 0
        #expect(try cache.gc().isEmpty)
        #expect(keys.find("Trip:7") == nil)
        #expect(keysResolve())
    }

    /// Inside a transaction nothing is released: its undo log still names what gc
    /// removed, and a rollback puts it back under the same ids.
    @Test func aTransactionReleasesNothingUntilItIsDone() throws {
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try cache.transaction { cache in
                try cache.evict("QUERY_ROOT")
                #expect(try cache.gc() == ["Trip:1", "Trip:2", "User:9"])
                for i in 0..<50 { try cache.write(record: "New:\(i)", fields: ["__typename": "New", "n": CacheValue(i)]) }
                throw Abort()
            }
        }
        #expect(cache.keys() == ["QUERY_ROOT", "Trip:1", "Trip:2", "User:9"])
        #expect(try tripList() == Self.trips(owner: "Ana"))
        #expect(keysResolve())
    }
}
