import Foundation
import Testing
@testable import NormCache

/// Another process's lock on the file: the store waits up to its busy timeout, then fails
/// naming the file and the process that holds the lock.
@Suite struct SQLiteLockTests {
    let directory = TemporaryDirectory()

    /// A WAL-mode file written by normcache, holding Trip:1, with its store closed.
    func walFile() throws -> String {
        let path = directory.path("cache.sqlite")
        try SQLiteStore(path: path).write(merging: [RecordChange(key: "Trip:1", fields: ["name": "Lisbon"])], removing: [])
        return path
    }

    /// Expects `error` to be a busy store's error naming `path` and `holder`.
    func expectLocked(_ error: StoreError?, _ path: String, by holder: LockHolder, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(error?.path == path, sourceLocation: sourceLocation)
        #expect(error?.message.contains(holder.busyMessage) == true, "\(String(describing: error))", sourceLocation: sourceLocation)
        #expect(error?.message.contains("gave up after waiting 200 ms") == true, "\(String(describing: error))", sourceLocation: sourceLocation)
    }

    @Test func openingARollbackJournalFileHeldExclusivelyFailsNamingTheProcess() throws {
        let path = directory.apolloFixture()
        let bytes = directory.bytes("apollo.sqlite")
        let holder = try LockHolder(path, begin: "BEGIN EXCLUSIVE")
        defer { holder.stop() }
        for mode in [SQLiteStore.Mode.readWrite, .readOnly] {
            let (error, seconds) = SQLiteSupport.timed {
                #expect(throws: StoreError.self) { _ = try SQLiteStore(path: path, mode: mode, busyTimeout: 200) }
            }
            expectLocked(error, path, by: holder)
            #expect(seconds >= 0.15 && seconds < 2, "waited \(seconds) s for a 200 ms timeout")
        }
        holder.stop()
        #expect(directory.bytes("apollo.sqlite") == bytes)
        // Once the holder is gone the file opens and takes writes.
        let (cache, _) = try SQLiteSupport.cache(path, busyTimeout: 2000)
        try cache.write(record: "Human:1002", fields: ["name": "Han"])
        #expect(try RawDatabase.recordTexts(path)["Human:1002"]?.contains(#""name":"Han""#) == true)
    }

    @Test func aRollbackJournalFileBeingReadOpensReadOnlyButNotReadWrite() throws {
        let path = directory.apolloFixture()
        let bytes = directory.bytes("apollo.sqlite")
        let reader = try LockHolder(path, begin: "BEGIN; SELECT count(*) FROM records")
        defer { reader.stop() }
        // Read-write opening turns the file to WAL, which needs every reader gone.
        let error = #expect(throws: StoreError.self) { _ = try SQLiteStore(path: path, busyTimeout: 200) }
        expectLocked(error, path, by: reader)
        #expect(directory.bytes("apollo.sqlite") == bytes)
        #expect(try SQLiteStore(path: path, mode: .readOnly, busyTimeout: 200).loadAll().count == 12)
    }

    @Test func writingToAWALFileWhileAnotherProcessWritesFailsNamingTheProcess() throws {
        let path = try walFile()
        let holder = try LockHolder(path, begin: "BEGIN IMMEDIATE")
        defer { holder.stop() }
        // WAL readers are not blocked by a writer: opening works, the write does not.
        let store = try SQLiteStore(path: path, busyTimeout: 200)
        #expect(try store.loadAll().map(\.key) == ["Trip:1"])
        let (error, seconds) = SQLiteSupport.timed {
            #expect(throws: StoreError.self) { try store.write(merging: [RecordChange(key: "Trip:2", fields: ["name": "Porto"])], removing: []) }
        }
        expectLocked(error, path, by: holder)
        #expect(seconds >= 0.15 && seconds < 2, "waited \(seconds) s for a 200 ms timeout")
        holder.stop()
        // After the holder ends, a store with a longer timeout writes.
        let later = try SQLiteStore(path: path, busyTimeout: 2000)
        try later.write(merging: [RecordChange(key: "Trip:2", fields: ["name": "Porto"])], removing: [])
        #expect(try RawDatabase.recordTexts(path) == ["Trip:1": #"{"name":"Lisbon"}"#, "Trip:2": #"{"name":"Porto"}"#])
        // The store that gave up is usable again too.
        try store.write(merging: [RecordChange(key: "Trip:3", fields: ["name": "Faro"])], removing: [])
        #expect(try RawDatabase.recordTexts(path).keys.sorted() == ["Trip:1", "Trip:2", "Trip:3"])
    }

    @Test func aWriteWaitsForAHolderThatLetsGoWithinTheTimeout() throws {
        let path = try walFile()
        let store = try SQLiteStore(path: path, busyTimeout: 3000)
        let holder = try LockHolder(path, begin: "BEGIN IMMEDIATE", releaseAfter: 0.3)
        defer { holder.stop() }
        let (_, seconds) = try SQLiteSupport.timed {
            try store.write(merging: [RecordChange(key: "Trip:2", fields: ["name": "Porto"])], removing: [])
        }
        #expect(seconds < 3)
        holder.waitUntilReleased()
        #expect(holder.process.terminationStatus == 0, "the holder held the lock, then let go by itself")
        #expect(try RawDatabase.recordTexts(path)["Trip:2"] == #"{"name":"Porto"}"#)
    }

    @Test func openingWaitsForAnExclusiveHolderThatLetsGoWithinTheTimeout() throws {
        let path = directory.apolloFixture()
        let holder = try LockHolder(path, begin: "BEGIN EXCLUSIVE", releaseAfter: 0.3)
        defer { holder.stop() }
        let cache = try NormalizedCache(store: try SQLiteStore(path: path, busyTimeout: 3000))
        #expect(cache.keys().count == 12)
        holder.waitUntilReleased()
        #expect(holder.process.terminationStatus == 0)
    }
}
