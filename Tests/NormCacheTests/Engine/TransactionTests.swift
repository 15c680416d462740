import Synchronization
import Testing
@testable import NormCache

/// Transactions: several changes commit as one (one emission), and a transaction that
/// throws leaves nothing behind and notifies nobody.
@Suite struct TransactionTests {
    let cache: NormalizedCache
    let trips: CompiledOperation

    init() throws {
        cache = try Support.cache()
        trips = try cache.operation("{ trips { id name } }")
        try cache.write(data: try Support.object(#"{"trips":[{"__typename":"Trip","id":"1","name":"Lisbon"},{"__typename":"Trip","id":"2","name":"Porto"}]}"#), for: trips)
    }

    struct Boom: Error, Equatable {}

    @Test func severalWritesEmitOnce() throws {
        let recorder = Recorder()
        let watch = try cache.watch(trips, onEmission: recorder.callback)
        defer { watch.cancel() }
        let rename = try cache.operation("mutation ($id: ID!, $name: String!) { renameTrip(id: $id, name: $name) { id name } }")
        let result = try cache.transaction { cache in
            try cache.write(data: try Support.object(#"{"renameTrip":{"__typename":"Trip","id":"1","name":"Faro"}}"#), for: rename,
                            variables: ["id": "1", "name": "Faro"])
            try cache.write(record: "Trip:2", fields: ["name": "Braga"])
            try cache.write(record: "Trip:1", fields: ["name": "Faro"])
            // Reads inside see the writes so far; watchers hear nothing yet.
            #expect(recorder.count == 1)
            return try cache.read(self.trips).data?["trips"]
        }
        #expect(result == [["__typename": "Trip", "id": "1", "name": "Faro"], ["__typename": "Trip", "id": "2", "name": "Braga"]])
        #expect(recorder.causes == [.initial, .write])
        #expect(recorder.last?.changed == ["Trip:1.name", "Trip:2.name"])
        #expect(recorder.last?.result.data?["trips"] == result)
    }

    /// A monitor hears each commit once, when it is done: the writes inside a transaction
    /// (or inside commitOptimistic) are not commits of their own.
    @Test func theMonitorHearsATransactionOnce() throws {
        let commits = Mutex<[Commit]>([])
        cache.monitor { commit in commits.withLock { $0.append(commit) } }
        try cache.write(record: "Trip:1", fields: ["name": "Faro"])
        try cache.transaction { cache in
            try cache.write(record: "Trip:2", fields: ["name": "Braga"])
            try cache.write(record: "Trip:1", fields: ["name": "Lagos"])
        }
        #expect(commits.withLock { $0.map(\.changed) } == [["Trip:1.name"], ["Trip:1.name", "Trip:2.name"]])
    }

    @Test func changesThatCancelOutEmitNothing() throws {
        let recorder = Recorder()
        let watch = try cache.watch(trips, onEmission: recorder.callback)
        defer { watch.cancel() }
        try cache.transaction { cache in
            try cache.write(record: "Trip:1", fields: ["name": "Faro"])
            try cache.write(record: "Trip:1", fields: ["name": "Lisbon"])
        }
        #expect(recorder.count == 1)
    }

    @Test func aThrowingTransactionLeavesTheCacheAsItWas() throws {
        try cache.invalidate("Trip:2", field: "name")
        try cache.writeOptimistic("pending", data: try Support.object(#"{"trips":[{"__typename":"Trip","id":"9","name":"Optimist"}]}"#), for: trips)
        let recorder = Recorder()
        let watch = try cache.watch(trips, partial: true, onEmission: recorder.callback)
        defer { watch.cancel() }
        let before = JSON.string(cache.extract(), sortedKeys: true)
        let keysBefore = cache.keys()
        let readBefore = try cache.read(trips, partial: true)
        let statisticsBefore = cache.statistics
        #expect(throws: Boom.self) {
            try cache.transaction { cache in
                try cache.write(data: try Support.object(#"{"trips":[{"__typename":"Trip","id":"3","name":"Faro"}]}"#), for: self.trips)
                try cache.write(record: "Trip:1", fields: ["name": "Gone", "extra": 1])
                try cache.write(record: "Trip:2", fields: ["name": "Porto"])   // clears the invalidation
                try cache.evict("Trip:1")
                try cache.remove(matching: "Trip:*")
                try cache.rollBackOptimistic("pending")
                try cache.writeOptimistic("other", data: try Support.object(#"{"trips":[]}"#), for: self.trips)
                try cache.clear()
                #expect(cache.keys().isEmpty)
                throw Boom()
            }
        }
        #expect(JSON.string(cache.extract(), sortedKeys: true) == before)
        #expect(cache.keys() == keysBefore)
        // Keys met inside the transaction stay interned until a gc (Trip:3, the field
        // extra): they name nothing, so what the cache holds is as it was.
        var statistics = cache.statistics
        #expect(statistics.recordKeys > statisticsBefore.recordKeys && statistics.fieldKeys > statisticsBefore.fieldKeys)
        (statistics.recordKeys, statistics.fieldKeys) = (statisticsBefore.recordKeys, statisticsBefore.fieldKeys)
        #expect(statistics == statisticsBefore)
        try cache.gc()
        #expect(cache.statistics.recordKeys <= statisticsBefore.recordKeys)
        #expect(try cache.read(trips, partial: true) == readBefore)
        #expect(recorder.count == 1)
        // The optimistic layer is still there and still rolls back; the invalidation is still there.
        try cache.rollBackOptimistic("pending")
        #expect(recorder.causes == [.initial, .rollback])
        #expect(try cache.read(trips, partial: true).stale == ["Trip:2.name"])
    }

    @Test func aFailingWriteInsideFailsTheTransaction() throws {
        let recorder = Recorder()
        let watch = try cache.watch(trips, onEmission: recorder.callback)
        defer { watch.cancel() }
        let before = JSON.string(cache.extract(), sortedKeys: true)
        #expect(throws: CacheError.self) {
            try cache.transaction { cache in
                try cache.write(record: "Trip:1", fields: ["name": "Faro"])
                // A missing field: refused, and the transaction with it.
                try cache.write(data: try Support.object(#"{"trips":[{"__typename":"Trip","id":"3"}]}"#), for: self.trips)
            }
        }
        #expect(JSON.string(cache.extract(), sortedKeys: true) == before)
        #expect(recorder.count == 1)
    }

    @Test func aCaughtErrorInsideDoesNotUndoTheRest() throws {
        try cache.transaction { cache in
            try cache.write(record: "Trip:1", fields: ["name": "Faro"])
            #expect(throws: CacheError.self) { try cache.evict("Trip:404") }
        }
        #expect(cache.record("Trip:1")?["name"] == "Faro")
    }

    @Test func nestedTransactionsCommitWithTheOutermost() throws {
        let recorder = Recorder()
        let watch = try cache.watch(trips, onEmission: recorder.callback)
        defer { watch.cancel() }
        try cache.transaction { cache in
            try cache.write(record: "Trip:1", fields: ["name": "Faro"])
            _ = try cache.transaction { cache in try cache.write(record: "Trip:2", fields: ["name": "Braga"]) }
            #expect(recorder.count == 1)
        }
        #expect(recorder.count == 2)
        #expect(recorder.last?.changed == ["Trip:1.name", "Trip:2.name"])
    }

    @Test func aThrowingTransactionLeavesTheStoreAsItWas() throws {
        let store = InMemoryStore()
        let cache = try NormalizedCache(store: store)
        try cache.write(data: try Support.object(#"{"trips":[{"__typename":"Trip","id":"1","name":"Lisbon"}]}"#), for: trips)
        let before = store.load(store.keys())
        #expect(throws: Boom.self) {
            try cache.transaction { cache in
                try cache.write(record: "Trip:1", fields: ["name": "Faro"])
                try cache.evict("QUERY_ROOT")
                throw Boom()
            }
        }
        #expect(store.load(store.keys()) == before)
        #expect(cache.record("Trip:1")?["name"] == "Lisbon")
    }

    /// A rejected write leaves no learned possible types and no warnings behind.
    @Test func aThrowingTransactionForgetsWhatItLearned() throws {
        let op = try cache.operation("{ hero { ... on Character { id name } place { city } } }")
        let possibleTypes = cache.possibleTypes
        #expect(throws: Boom.self) {
            try cache.transaction { cache in
                try cache.write(data: try Support.object(#"{"hero":{"__typename":"Droid","id":"2","name":"R2","place":{"__typename":"Place","city":"Naboo"}}}"#), for: op)
                throw Boom()
            }
        }
        #expect(cache.possibleTypes == possibleTypes)
        #expect(cache.takeWarnings().isEmpty)
    }
}
