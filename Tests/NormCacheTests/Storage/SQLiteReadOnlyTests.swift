import Foundation
import Testing
@testable import NormCache

/// Read-only stores inspect a file without changing its bytes and refuse every write.
@Suite struct SQLiteReadOnlyTests {
    let directory = TemporaryDirectory()
    var path: String { directory.path("cache.sqlite") }

    /// A WAL-mode file written (and closed) by normcache, holding Trip:1 and Trip:2.
    func writtenFile() throws {
        let (cache, store) = try SQLiteSupport.cache(path)
        try cache.write(record: "Trip:1", fields: ["__typename": "Trip", "id": "1", "name": "Lisbon"])
        try cache.write(record: "Trip:2", fields: ["__typename": "Trip", "id": "2", "name": "Porto"])
        store.close()
    }

    @Test func openingAWALFileReadOnlyLeavesItsBytesAsTheyWere() throws {
        try writtenFile()
        let before = try #require(directory.bytes("cache.sqlite"))
        #expect(before[18] == 2 && before[19] == 2, "the file is in WAL mode")
        do {
            let store = try SQLiteStore(path: path, mode: .readOnly)
            let cache = try NormalizedCache(store: store)
            #expect(cache.keys() == ["Trip:1", "Trip:2"])
            #expect(cache.record("Trip:2")?["name"] == "Porto")
            #expect(try store.integrityCheck() == ["ok"])
            #expect(directory.bytes("cache.sqlite") == before)
        }
        #expect(directory.bytes("cache.sqlite") == before, "closing changes nothing either")
    }

    @Test func aReadOnlyStoreSeesCommitsStillInTheWriterWAL() throws {
        let (writer, _) = try SQLiteSupport.cache(path)
        try writer.write(record: "Trip:1", fields: ["name": "Lisbon"])
        let before = directory.bytes("cache.sqlite")
        let wal = directory.bytes("cache.sqlite-wal")
        let reader = try NormalizedCache(store: try SQLiteStore(path: path, mode: .readOnly))
        #expect(reader.record("Trip:1")?["name"] == "Lisbon")
        #expect(directory.bytes("cache.sqlite") == before)
        #expect(directory.bytes("cache.sqlite-wal") == wal)
    }

    @Test func writingAndClearingAReadOnlyStoreFailNamingTheFile() throws {
        try writtenFile()
        let store = try SQLiteStore(path: path, mode: .readOnly)
        for attempt in [{ try store.write(merging: [RecordChange(key: "Trip:3", fields: ["a": 1])], removing: []) },
                        { try store.write(merging: [], removing: ["Trip:1"]) },
                        { try store.clear() }] {
            let error = #expect(throws: StoreError.self) { try attempt() }
            #expect(error?.path == path)
            #expect(error?.message.contains("read-only") == true, "\(String(describing: error))")
        }
        #expect(try RawDatabase.recordTexts(path).keys.sorted() == ["Trip:1", "Trip:2"])
    }

    @Test func aCacheOverAReadOnlyStoreRefusesWritesAndKeepsItsRecords() throws {
        try writtenFile()
        let before = directory.bytes("cache.sqlite")
        let cache = try NormalizedCache(store: try SQLiteStore(path: path, mode: .readOnly))
        let memory = JSON.string(cache.extract(), sortedKeys: true)
        let attempts: [() throws -> Void] = [
            { try cache.write(record: "Trip:1", fields: ["name": "Faro"]) },
            { _ = try cache.evict("Trip:2") },
            { try cache.clear() },
        ]
        for attempt in attempts {
            let error = #expect(throws: CacheError.self) { try attempt() }
            #expect(SQLiteSupport.storageMessage(error)?.contains("\(path): is open read-only") == true, "\(String(describing: error))")
        }
        #expect(JSON.string(cache.extract(), sortedKeys: true) == memory)
        #expect(directory.bytes("cache.sqlite") == before)
    }

    @Test func loadingABadRowFailsWithoutBreakingLaterLoads() throws {
        try RawDatabase.apolloFile(path, rows: [("Bad:1", "'{oops'"), ("Good:1", #"'{"a":1}'"#)])
        let store = try SQLiteStore(path: path, mode: .readOnly)
        #expect(try store.loadAll().map(\.key) == ["Good:1"])
        #expect(throws: (any Error).self) { try store.load(["Bad:1"]) }
        // The statement that failed must not leave the next load reading its old query.
        #expect(try store.load(["Good:1"]).map(\.key) == ["Good:1"])
        #expect(try store.load(["Good:1"]).map(\.key) == ["Good:1"])
    }
}
