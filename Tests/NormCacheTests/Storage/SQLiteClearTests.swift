import Foundation
import Testing
@testable import NormCache

/// Clearing leaves no trace of the records in the file, its -wal or its -shm, and
/// removeFiles(at:) deletes a cache file with its companions unless another process has it open.
@Suite struct SQLiteClearTests {
    let directory = TemporaryDirectory()
    var path: String { directory.path("cache.sqlite") }
    static let marker = "MARKER-7f3a"

    /// Writes enough records holding the marker (in keys, field keys and values) to fill
    /// many pages, then rewrites some so that old versions sit in the WAL too.
    func writeSecrets(_ cache: NormalizedCache) throws {
        try cache.transaction { cache in
            for id in 0..<200 {
                try cache.write(record: "Secret:\(Self.marker)-\(id)", fields: [
                    "__typename": "Secret", "note": .string("\(Self.marker) " + String(repeating: "x", count: 100)),
                    "\(Self.marker)(n:\(id))": CacheValue(id),
                ])
            }
        }
        for id in 0..<20 { try cache.write(record: "Secret:\(Self.marker)-\(id)", fields: ["note": .string("rewritten \(Self.marker)")]) }
        try cache.write(record: "QUERY_ROOT", fields: ["secret": .reference("Secret:\(Self.marker)-0")])
    }

    /// The files of the directory that hold the marker's bytes.
    func filesHoldingTheMarker() -> [String] {
        directory.fileNames().filter { directory.bytes($0)?.range(of: Data(Self.marker.utf8)) != nil }
    }

    @Test func clearingTheCacheLeavesNoTraceInAnyFile() throws {
        let (cache, _) = try SQLiteSupport.cache(path)
        try writeSecrets(cache)
        #expect(!filesHoldingTheMarker().isEmpty, "the marker was written")
        try cache.clear()
        #expect(filesHoldingTheMarker() == [], "\(directory.fileNames())")
        #expect(cache.keys().isEmpty)
        #expect(try RawDatabase(path, readOnly: true).records().isEmpty)
    }

    @Test func clearingAStoreReopenedOnACheckpointedFileLeavesNoTrace() throws {
        do {
            let (cache, _) = try SQLiteSupport.cache(path)
            try writeSecrets(cache)
        }
        #expect(filesHoldingTheMarker() == ["cache.sqlite"], "closing moved everything into the file")
        let store = try SQLiteStore(path: path)
        try store.clear()
        #expect(filesHoldingTheMarker() == [], "\(directory.fileNames())")
        store.close()
        #expect(filesHoldingTheMarker() == [])
    }

    @Test func aClearedFileStaysAUsableCache() throws {
        do {
            let (cache, _) = try SQLiteSupport.cache(path)
            try writeSecrets(cache)
            try cache.clear()
            try cache.write(record: "Trip:1", fields: ["name": "Lisbon"])
        }
        let (cache, _) = try SQLiteSupport.cache(path)
        #expect(cache.keys() == ["Trip:1"])
        #expect(try RawDatabase(path, readOnly: true).strings("PRAGMA integrity_check") == ["ok"])
        #expect(try RawDatabase(path, readOnly: true).strings("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") == ["normcache_received", "records", "sqlite_sequence"])
    }

    @Test func clearingWhileAnotherProcessReadsNeverClaimsToHaveLeftNoTrace() throws {
        let (cache, _) = try SQLiteSupport.cache(path, busyTimeout: 200)
        try writeSecrets(cache)
        // A reader in another process (normcache inspect, say) holds a snapshot of the secrets.
        let reader = try LockHolder(path, begin: "BEGIN; SELECT count(*) FROM records")
        defer { reader.stop() }
        do {
            try cache.clear()
            #expect(filesHoldingTheMarker() == [], "clear() succeeded, yet the marker is still in \(filesHoldingTheMarker())")
        } catch {
            // Refusing is fine if it says why, and the cache still matches its file.
            let message = try #require(SQLiteSupport.storageMessage(error), "\(error)")
            #expect(message.contains(path) && message.contains("process \(reader.pid) (python3)"), "\(message)")
        }
        #expect(cache.keys().count == (try RawDatabase(path, readOnly: true).records().count), "the cache and its file agree")
        // Once the reader has gone, clearing (again) erases everything.
        reader.stop()
        try cache.clear()
        #expect(filesHoldingTheMarker() == [], "\(directory.fileNames())")
    }

    @Test func removeFilesDeletesTheDatabaseWithItsWALAndSharedMemory() throws {
        let (cache, _) = try SQLiteSupport.cache(path)
        try cache.write(record: "Trip:1", fields: ["name": "Lisbon"])
        #expect(directory.fileNames() == ["cache.sqlite", "cache.sqlite-shm", "cache.sqlite-wal"])
        // A copy of the open store's files, as a crash would leave them, plus a rollback journal.
        for suffix in ["", "-wal", "-shm"] { directory.write("copy.sqlite" + suffix, try #require(directory.bytes("cache.sqlite" + suffix))) }
        directory.write("copy.sqlite-journal", Data("journal".utf8))
        directory.write("copy.sqlite.txt", Data("not the cache".utf8))
        try SQLiteStore.removeFiles(at: directory.path("copy.sqlite"))
        #expect(directory.fileNames() == ["cache.sqlite", "cache.sqlite-shm", "cache.sqlite-wal", "copy.sqlite.txt"])
        // Removing files that are not there is not an error.
        try SQLiteStore.removeFiles(at: directory.path("copy.sqlite"))
    }

    /// Another process with the file open, idle between transactions, would go on writing
    /// to files no one could open again: nothing is deleted, and the error names it.
    @Test func removeFilesIsRefusedWhileAnotherProcessHasTheFileOpen() throws {
        try SQLiteStore(path: path).write(merging: [RecordChange(key: "Trip:1", fields: ["name": "Lisbon"])], removing: [])
        let other = try LockHolder(path, begin: "SELECT count(*) FROM records")
        defer { other.stop() }
        let before = directory.fileNames().map { directory.bytes($0) }
        let error = #expect(throws: StoreError.self) { try SQLiteStore.removeFiles(at: path) }
        #expect(error?.path == path)
        #expect(error?.message == "is open in process \(other.pid) (python3): nothing was deleted; close it there first")
        #expect(directory.fileNames().map { directory.bytes($0) } == before, "every file is still there, unchanged")
        other.stop()
        try SQLiteStore.removeFiles(at: path)
        #expect(directory.fileNames() == [])
    }
}
