import Foundation
import Testing
@testable import NormCache

/// Damage generated over the Apollo iOS fixture, grown to many pages: cut short at every
/// page, bits flipped in every page. A read-only store (`normcache inspect`) never crashes,
/// reports the damage, never hands back a record the file did not hold, and reads what the
/// damage leaves; a read-write store refuses a damaged file and leaves its bytes as they were.
@Suite struct SQLiteDamageTests {
    let directory = TemporaryDirectory()
    var damaged: String { directory.path("damaged.sqlite") }

    /// The fixture's rows and 400 more records, in one file (no -wal), with its bytes and records.
    func grownFixture() throws -> (bytes: Data, records: [String: CacheObject], pageSize: Int) {
        let path = directory.path("grown.sqlite")
        try RawDatabase.apolloFile(path, rows: StarWarsFixture.rows.map { ($0.key, RawDatabase.quote($0.record)) })
        do {
            let store = try SQLiteStore(path: path)
            try store.write(merging: (0..<400).map { i in
                RecordChange(key: "Planet:\(i)", fields: ["__typename": "Planet", "id": .string("\(i)"), "name": .string("Planet number \(i)"),
                                                          "population": .int(Int64(i) * 1_000), "moons": [.reference("Moon:\(i)"), nil]])
            }, removing: [])
            store.close()   // the last connection's close checkpoints the WAL into the file
        }
        let store = try SQLiteStore(path: path, mode: .readOnly)
        defer { store.close() }
        let records = Dictionary(uniqueKeysWithValues: try store.loadAll().map { ($0.key, $0.fields) })
        let pageSize = Int(try RawDatabase(path, readOnly: true).strings("PRAGMA page_size")[0]) ?? 4096
        return (try Data(contentsOf: URL(fileURLWithPath: path)), records, pageSize)
    }

    /// What a read-only open of `bytes` gave: the records (each checked to be one the file
    /// held, unchanged, unless `contentMayChange`: a flipped bit in a key or a value is the
    /// file's content, which SQLite has no checksum to tell from the original), or the
    /// error; and whether damage was reported.
    func inspect(_ bytes: Data, original: [String: CacheObject], contentMayChange: Bool = false,
                 sourceLocation: SourceLocation = #_sourceLocation) throws -> (read: Int, reported: Bool) {
        try bytes.write(to: URL(fileURLWithPath: damaged))
        defer { try? SQLiteStore.removeFiles(at: damaged) }
        let store: SQLiteStore
        do { store = try SQLiteStore(path: damaged, mode: .readOnly) } catch {
            #expect(error.path == damaged && !error.message.isEmpty, sourceLocation: sourceLocation)
            return (0, true)
        }
        defer { store.close() }
        let keys = try NormalizedCache(store: store).keys()
        if !contentMayChange {
            for key in keys {
                #expect(original[key] != nil, "a record the file did not hold: \(key)", sourceLocation: sourceLocation)
            }
            for key in keys {
                guard let record = try? store.load([key]).first else { continue }   // on a page lost since the open
                #expect(record.fields == original[key], "\(key) changed", sourceLocation: sourceLocation)
            }
        }
        // Every key in one batch: a scan of the table, which meets the damage part way.
        if let records = try? store.load(keys) {
            #expect(Set(records.map(\.key)).count == records.count, "a record handed over twice", sourceLocation: sourceLocation)
            #expect(records.allSatisfy { keys.contains($0.key) }, "a record not asked for", sourceLocation: sourceLocation)
            for record in records where !contentMayChange {
                #expect(record.fields == original[record.key], "\(record.key) changed in a batch", sourceLocation: sourceLocation)
            }
        }
        // Opening reads no page past the schema: the integrity check runs when asked
        // (`checkIntegrity()`), and reports what it finds.
        try store.checkIntegrity()
        let findings = (try? store.integrityCheck()) ?? ["unreadable"]
        if findings != ["ok"] {
            #expect(store.warnings.contains { $0.contains("integrity check") }, "\(findings) not reported", sourceLocation: sourceLocation)
        }
        return (keys.count, !store.warnings.isEmpty)
    }

    @Test func aFileCutShortAtAnyPageReadsWhatItKeeps() throws {
        let (bytes, original, pageSize) = try grownFixture()
        let pages = bytes.count / pageSize
        #expect(pages >= 20, "the grown fixture spans \(pages) pages")
        var read: [Int] = []
        for page in 0..<pages {
            for cut in [page * pageSize, page * pageSize + 100] where cut < bytes.count {
                let (count, reported) = try inspect(bytes.prefix(cut), original: original)
                #expect(reported, "a file cut at \(cut) of \(bytes.count) bytes opened without a word")
                read.append(count)
            }
        }
        // Losing the last page loses at most the rows on it and the pages it points to.
        #expect(read.last! >= original.count / 2, "cut at the last page, only \(read.last!) of \(original.count) records read")
    }

    @Test func flippedBitsInAnyPageNeverCrashAndAreReportedWhenSQLiteCanTell() throws {
        let (bytes, original, pageSize) = try grownFixture()
        let random = SQLiteSupport.randomBytes(8 * bytes.count / pageSize * 3)
        var files = 0, refused = 0
        for page in 0..<bytes.count / pageSize {
            for flip in 0..<8 {
                let draw = random[(page * 8 + flip) * 3..<(page * 8 + flip) * 3 + 3].map(Int.init)
                var copy = bytes
                copy[page * pageSize + (draw[0] << 8 | draw[1]) % pageSize] ^= UInt8(1 << (draw[2] % 8))
                let (count, _) = try inspect(copy, original: original, contentMayChange: true)
                files += 1
                if count == 0 { refused += 1 }
            }
        }
        // Opening reads the first page alone (header and schema), so only its 8 flips may
        // leave a file that opens to nothing; every other damage leaves the rest readable.
        #expect(refused <= 8, "\(refused) of \(files) files with one flipped bit read no record")
    }

    @Test func aDamagedFileIsNotOpenedForWritingAndKeepsItsBytes() throws {
        let (bytes, _, pageSize) = try grownFixture()
        for cut in [pageSize * 2, bytes.count - pageSize] {
            try bytes.prefix(cut).write(to: URL(fileURLWithPath: damaged))
            #expect(throws: StoreError.self) { try SQLiteStore(path: damaged) }
            #expect(try Data(contentsOf: URL(fileURLWithPath: damaged)) == bytes.prefix(cut))
            try SQLiteStore.removeFiles(at: damaged)
        }
        // Opening reads only the schema, so damage past it is found before the first write:
        // the write is refused and the records stay as they were.
        var flipped = bytes
        flipped[pageSize + 8] ^= 0xFF   // the records table's first interior or leaf page header
        try flipped.write(to: URL(fileURLWithPath: damaged))
        do {
            let store = try SQLiteStore(path: damaged)
            defer { store.close() }
            let error = #expect(throws: StoreError.self) {
                try store.write(merging: [RecordChange(key: "Trip:1", fields: ["name": "Porto"])], removing: [])
            }
            #expect(error?.message.contains("nothing was written") == true, "\(String(describing: error))")
        } catch {
            #expect("\(error)".contains("is corrupt"), "\(error)")
        }
    }

    @Test func aHundredMegabyteRecordOpens() throws {
        let path = directory.path("huge.sqlite")
        let huge = String(repeating: "0123456789", count: 10_000_000)
        try RawDatabase.apolloFile(path, rows: [("Blob:1", RawDatabase.quote(#"{"data":"\#(huge)"}"#)),
                                                ("Trip:1", RawDatabase.quote(#"{"name":"Porto"}"#))])
        let store = try SQLiteStore(path: path, mode: .readOnly)
        defer { store.close() }
        let cache = try NormalizedCache(store: store)
        guard case .string(let data)? = cache.extract()["Blob:1"]?["data"] else { Issue.record("Blob:1.data was not read"); return }
        #expect(data.utf8.count == 100_000_000)
        #expect(cache.extract()["Trip:1"]?["name"] == "Porto")
    }
}
