import Foundation
import Testing
@testable import NormCache

/// One SQLite transaction per commit: a commit reaches the file whole or not at all, and a
/// commit the file refuses is undone in memory too.
@Suite struct SQLiteTransactionTests {
    let directory = TemporaryDirectory()
    var path: String { directory.path("cache.sqlite") }

    struct Boom: Error {}

    /// A cache over a new file holding Trip:1, Trip:2 and Trip:3.
    func tripsCache(busyTimeout: Int = SQLiteStore.defaultBusyTimeout) throws -> NormalizedCache {
        let (cache, _) = try SQLiteSupport.cache(path, busyTimeout: busyTimeout)
        for id in 1...3 { try cache.write(record: "Trip:\(id)", fields: ["__typename": "Trip", "id": .string("\(id)"), "name": .string("Trip \(id)")]) }
        return cache
    }

    @Test func aTransactionThatThrowsLeavesTheFileAsItWas() throws {
        let cache = try tripsCache()
        let rows = try RawDatabase(path, readOnly: true).records()
        let files = directory.fileNames().map { directory.bytes($0) }
        let memory = JSON.string(cache.extract(), sortedKeys: true)
        #expect(throws: Boom.self) {
            try cache.transaction { cache in
                try cache.write(record: "Trip:1", fields: ["name": "Lisbon"])
                try cache.write(record: "Trip:4", fields: ["__typename": "Trip", "id": "4"])
                _ = try cache.evict("Trip:2")
                throw Boom()
            }
        }
        #expect(try RawDatabase(path, readOnly: true).records() == rows)
        #expect(directory.fileNames().map { directory.bytes($0) } == files, "the db, -wal and -shm bytes are untouched")
        #expect(JSON.string(cache.extract(), sortedKeys: true) == memory)
    }

    @Test func aCommitOfSeveralRecordsIsOneSQLiteTransaction() throws {
        let cache = try tripsCache()
        let commits = SQLiteSupport.walCommits(path)
        #expect(commits == 3, "three writes, three transactions")
        try cache.transaction { cache in
            for id in 1...3 { try cache.write(record: "Trip:\(id)", fields: ["name": .string("Renamed \(id)")]) }
            _ = try cache.evict("Trip:2")
            try cache.write(record: "Trip:9", fields: ["id": "9"])
        }
        #expect(SQLiteSupport.walCommits(path) == commits + 1)
        let trips = try cache.operation("{ trips { id name } }")
        try cache.write(data: try Support.object(#"{"trips":[{"__typename":"Trip","id":"5","name":"A"},{"__typename":"Trip","id":"6","name":"B"}]}"#), for: trips)
        #expect(SQLiteSupport.walCommits(path) == commits + 2, "one normalized write of three records, one transaction")
        let rows = try RawDatabase(path, readOnly: true).records()
        try cache.write(record: "Trip:5", fields: ["name": "A"])
        #expect(SQLiteSupport.walCommits(path) == commits + 3, "a write of equal values keeps when it was received")
        #expect(try RawDatabase(path, readOnly: true).records() == rows, "and leaves the records as they were")
    }

    /// A trigger that refuses `key`, so that a store write fails half-way through.
    func refuse(_ key: String) throws {
        try RawDatabase(path).execute("""
            CREATE TRIGGER refuse BEFORE INSERT ON "records" WHEN NEW.key = \(RawDatabase.quote(key))
            BEGIN SELECT RAISE(ABORT, 'refused by the test trigger'); END
            """)
    }

    @Test func aStoreWriteThatFailsHalfWayWritesNothing() throws {
        let store = try SQLiteStore(path: path)
        try store.write(merging: [RecordChange(key: "Old:1", fields: ["a": 1]), RecordChange(key: "Kept:1", fields: ["a": 1])], removing: [])
        let rows = try RawDatabase(path, readOnly: true).records()
        try refuse("Bad:1")
        let error = #expect(throws: StoreError.self) {
            try store.write(merging: [RecordChange(key: "Kept:1", fields: ["a": 2]), RecordChange(key: "Bad:1", fields: ["a": 1])], removing: ["Old:1"])
        }
        #expect(error?.path == path)
        #expect(error?.message.contains("refused by the test trigger") == true, "\(String(describing: error))")
        #expect(try RawDatabase(path, readOnly: true).records() == rows)
        // The store is still usable: the transaction was rolled back, not left open.
        try store.write(merging: [RecordChange(key: "Kept:1", fields: ["a": 3])], removing: ["Old:1"])
        #expect(try RawDatabase.recordTexts(path) == ["Kept:1": #"{"a":3}"#])
    }

    @Test func aCommitTheFileRefusesIsUndoneInMemoryToo() throws {
        let cache = try tripsCache()
        let memory = JSON.string(cache.extract(receivedTimes: true), sortedKeys: true)
        let rows = try RawDatabase(path, readOnly: true).records()
        let times = try RawDatabase(path, readOnly: true).strings("SELECT key || ' ' || received FROM normcache_received ORDER BY key")
        try cache.clock.advance(by: 60)
        try refuse("Trip:9")
        let error = #expect(throws: CacheError.self) {
            try cache.transaction { cache in
                try cache.write(record: "Trip:1", fields: ["name": "Lisbon"])
                _ = try cache.evict("Trip:2")
                try cache.write(record: "Trip:9", fields: ["id": "9"])
            }
        }
        #expect(SQLiteSupport.storageMessage(error)?.contains(path) == true, "\(String(describing: error))")
        #expect(JSON.string(cache.extract(receivedTimes: true), sortedKeys: true) == memory, "records and received times")
        #expect(try RawDatabase(path, readOnly: true).records() == rows)
        #expect(try RawDatabase(path, readOnly: true).strings("SELECT key || ' ' || received FROM normcache_received ORDER BY key") == times)
        #expect(cache.record("Trip:2")?["name"] == "Trip 2")
    }

    @Test func aWriteBlockedByAnotherProcessIsUndoneInMemoryAndNamesTheFileAndTheProcess() throws {
        let cache = try tripsCache(busyTimeout: 200)
        let memory = JSON.string(cache.extract(), sortedKeys: true)
        let holder = try LockHolder(path, begin: "BEGIN IMMEDIATE")
        defer { holder.stop() }
        let error = #expect(throws: CacheError.self) {
            try cache.write(record: "Trip:1", fields: ["name": "Lisbon"])
        }
        let message = try #require(SQLiteSupport.storageMessage(error), "\(String(describing: error))")
        #expect(message.contains(path))
        #expect(message.contains(holder.busyMessage), "\(message)")
        #expect(JSON.string(cache.extract(), sortedKeys: true) == memory)
        #expect(cache.record("Trip:1")?["name"] == "Trip 1")
        holder.stop()
        try cache.write(record: "Trip:1", fields: ["name": "Lisbon"])
        #expect(try RawDatabase.recordTexts(path)["Trip:1"]?.contains(#""name":"Lisbon""#) == true)
    }
}
