import Foundation
import Testing
@testable import NormCache

/// Files that are not caches are refused with a StoreError naming the file and the problem,
/// and left byte for byte as they were, without -wal or -shm files beside them.
@Suite struct SQLiteBadFileTests {
    let directory = TemporaryDirectory()
    static let modes: [SQLiteStore.Mode] = [.readWrite, .readOnly]

    /// Expects opening `name` in `mode` to fail naming the file and saying each of `phrases`,
    /// and the directory to hold the same files with the same bytes afterwards.
    func expectRefused(_ name: String, _ mode: SQLiteStore.Mode, saying phrases: String...,
                       sourceLocation: SourceLocation = #_sourceLocation) {
        let path = directory.path(name)
        let files = directory.fileNames()
        let bytes = files.map { directory.bytes($0) }
        let error = #expect(throws: StoreError.self, sourceLocation: sourceLocation) {
            _ = try SQLiteStore(path: path, mode: mode, busyTimeout: 200)
        }
        #expect(error?.path == path, sourceLocation: sourceLocation)
        #expect(error?.description.hasPrefix(path + ": ") == true, sourceLocation: sourceLocation)
        for phrase in phrases {
            #expect(error?.message.contains(phrase) == true, "\(String(describing: error)) should say \(phrase)", sourceLocation: sourceLocation)
        }
        #expect(directory.fileNames() == files, "no file created or removed", sourceLocation: sourceLocation)
        #expect(directory.fileNames().map { directory.bytes($0) } == bytes, "bytes unchanged", sourceLocation: sourceLocation)
    }

    @Test(arguments: modes) func aTextFileIsNotASQLiteDatabase(mode: SQLiteStore.Mode) {
        directory.write("notes.sqlite", Data(String(repeating: "Shopping: milk, eggs, bread.\n", count: 40).utf8))
        expectRefused("notes.sqlite", mode, saying: "is not a SQLite database")
    }

    @Test(arguments: modes) func fourKiBOfRandomBytesAreNotASQLiteDatabase(mode: SQLiteStore.Mode) {
        directory.write("noise.sqlite", SQLiteSupport.randomBytes(4096))
        expectRefused("noise.sqlite", mode, saying: "is not a SQLite database")
    }

    @Test(arguments: modes) func aDatabaseWithoutARecordsTableIsNotACache(mode: SQLiteStore.Mode) throws {
        let path = directory.path("other.sqlite")
        try RawDatabase(path).execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); CREATE TABLE tags (name TEXT); INSERT INTO notes (text) VALUES ('hello')")
        expectRefused("other.sqlite", mode, saying: "without a records table", "notes, tags")
    }

    @Test(arguments: modes) func aRecordsTableWithoutARecordColumnIsNotACache(mode: SQLiteStore.Mode) throws {
        let path = directory.path("columns.sqlite")
        try RawDatabase(path).execute(#"CREATE TABLE "records" ("_id" INTEGER PRIMARY KEY AUTOINCREMENT, "key" TEXT UNIQUE, "value" TEXT); INSERT INTO records (key, value) VALUES ('QUERY_ROOT', '{}')"#)
        expectRefused("columns.sqlite", mode, saying: #"no "record" column"#, "_id, key, value")
    }

    /// A row a cache cannot read, as a SQL literal, and what the refusal says of it.
    struct BadRow: Sendable, CustomTestStringConvertible {
        let record: String
        let problem: String
        var testDescription: String { record }
    }

    static let badRows = [
        BadRow(record: #"'{"name":"Han",}'"#, problem: "invalid JSON"),
        BadRow(record: #"'{"name":"Han"'"#, problem: "invalid JSON"),
        BadRow(record: "''", problem: "invalid JSON"),
        BadRow(record: #"'[{"name":"Han"}]'"#, problem: "not a JSON object"),
        BadRow(record: #"'"Han"'"#, problem: "not a JSON object"),
        BadRow(record: "NULL", problem: "the record is NULL"),
        BadRow(record: #"'{"name":"Han","name":"Solo"}'"#, problem: "duplicate member \"name\""),
        BadRow(record: #"'{"na\u006De":"Han","name":"Solo"}'"#, problem: "duplicate member \"name\""),
        BadRow(record: #"'{"$reference":"Human:1"}'"#, problem: "not a JSON object"),
    ]

    /// A file of Apollo's schema: Human:1, then `bad` as Human:2, then Human:3.
    func fileWithBadRow(_ bad: BadRow) throws -> String {
        let path = directory.path("bad-row.sqlite")
        try RawDatabase.apolloFile(path, rows: [
            ("Human:1", #"'{"__typename":"Human","name":"Luke"}'"#),
            ("Human:2", bad.record),
            ("Human:3", #"'{"__typename":"Human","name":"Leia","friend":{"$reference":"Human:1"}}'"#),
        ])
        return path
    }

    /// Opening reads no row (lazy open), so a bad row is found by the read or write that
    /// loads it, which fails naming it; the session goes on, and the row is not overwritten.
    @Test(arguments: badRows) func aBadRowFailsTheReadOrWriteThatLoadsItNamingIt(row: BadRow) throws {
        let path = try fileWithBadRow(row)
        let cache = try NormalizedCache(store: try SQLiteStore(path: path))
        for attempt in [{ _ = try cache.inspect("Human:2") }, { _ = try cache.write(record: "Human:2", fields: ["name": "Han"]) }] {
            let error = #expect(throws: CacheError.self) { try attempt() }
            let message = error.map { "\($0)" } ?? ""
            #expect(message.contains("record Human:2 cannot be read: ") && message.contains(row.problem), "\(message)")
        }
        #expect(cache.record("Human:3")?["name"] == "Leia")
        let everything = #expect(throws: CacheError.self) { try cache.gc() }
        #expect("\(everything.map { "\($0)" } ?? "")".contains("record Human:2 (row _id 2)"), "\(String(describing: everything))")
        #expect(try SQLiteStore(path: path, mode: .readOnly).keys() == ["Human:1", "Human:2", "Human:3"], "nothing was removed")
    }

    @Test(arguments: badRows) func aBadRowIsSkippedWithAWarningWhenReadOnly(row: BadRow) throws {
        let path = try fileWithBadRow(row)
        let bytes = directory.bytes("bad-row.sqlite")
        let store = try SQLiteStore(path: path, mode: .readOnly)
        #expect(store.warnings.isEmpty, "opening reads no row")
        let cache = try NormalizedCache(store: store)
        #expect(cache.keys() == ["Human:1", "Human:2", "Human:3"], "keys alone are read")
        #expect(Support.fields(cache.record("Human:3")) == ["__typename": "Human", "name": "Leia", "friend": .reference("Human:1")])
        #expect(throws: CacheError.self) { try cache.inspect("Human:2") }
        // What reads every record skips the bad row, with a warning.
        #expect(cache.statistics.records == 2)
        #expect(store.warnings.count == 1)
        #expect(store.warnings.first?.hasPrefix(path + ": skipped record Human:2 (row _id 2)") == true, "\(store.warnings)")
        #expect(store.warnings.first?.contains(row.problem) == true, "\(store.warnings)")
        #expect(cache.takeWarnings().isEmpty)
        #expect(directory.bytes("bad-row.sqlite") == bytes)
    }

    @Test func aRowWithoutAKeyIsNamedByItsId() throws {
        let path = directory.path("no-key.sqlite")
        try RawDatabase.apolloFile(path, rows: [("Human:1", #"'{"name":"Luke"}'"#)]).execute(#"INSERT INTO records (key, record) VALUES (NULL, '{}')"#)
        let error = #expect(throws: CacheError.self) { try NormalizedCache(store: try SQLiteStore(path: path)).gc() }
        #expect("\(error.map { "\($0)" } ?? "")".contains("row _id 2 has no key"), "\(String(describing: error))")
        let store = try SQLiteStore(path: path, mode: .readOnly)
        #expect(try store.loadAll().map(\.key) == ["Human:1"])
        #expect(store.warnings == ["\(path): skipped row _id 2 has no key"])
    }

    @Test(arguments: modes) func aReferenceToAMissingRecordOpensAndIsReportedMissing(mode: SQLiteStore.Mode) throws {
        let path = directory.path("dangling.sqlite")
        try RawDatabase.apolloFile(path, rows: [
            ("QUERY_ROOT", #"'{"hero":{"$reference":"Human:404"}}'"#),
            ("Human:1", #"'{"__typename":"Human","name":"Luke","friends":[null,{"$reference":"Human:404"}]}'"#),
        ])
        let store = try SQLiteStore(path: path, mode: mode)
        #expect(store.warnings.isEmpty)
        // Opening reads no record, so the dangling references are found by the reads that meet them.
        let cache = try NormalizedCache(store: store)
        let result = try cache.read(try cache.operation("{ hero { name } }"))
        #expect(!result.complete)
        #expect(result.data == nil)
        #expect(result.missing == ["Human:404.__typename", "Human:404.name"])
    }

    @Test(arguments: modes) func aDirectoryIsNotACacheFile(mode: SQLiteStore.Mode) throws {
        try FileManager.default.createDirectory(atPath: directory.path("folder.sqlite"), withIntermediateDirectories: false)
        expectRefused("folder.sqlite", mode, saying: "is a directory")
    }

    @Test func aPathInADirectoryThatDoesNotExistIsRefusedNamingTheDirectory() {
        let folder = directory.path("missing")
        expectRefused("missing/cache.sqlite", .readWrite, saying: "the directory \(folder) does not exist")
        #expect(!FileManager.default.fileExists(atPath: folder))
    }

    @Test(arguments: ["cache.sqlite", "missing/cache.sqlite"]) func aMissingFileIsNotCreatedReadOnly(name: String) {
        expectRefused(name, .readOnly, saying: "does not exist")
        #expect(directory.fileNames().isEmpty)
    }

    @Test func anEmptyFileIsRefusedReadOnly() {
        directory.write("empty.sqlite", Data())
        expectRefused("empty.sqlite", .readOnly, saying: "is an empty SQLite database")
        #expect(directory.bytes("empty.sqlite") == Data())
    }

    @Test func anEmptyFileGetsApollosSchemaReadWrite() throws {
        let path = directory.write("empty.sqlite", Data())
        let (cache, _) = try SQLiteSupport.cache(path)
        #expect(cache.keys().isEmpty)
        try cache.write(record: "QUERY_ROOT", fields: ["a": 1])
        let raw = try RawDatabase(path, readOnly: true)
        #expect(try raw.strings("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") == ["normcache_received", "records", "sqlite_sequence"])
        #expect(try raw.records().map(\.key) == ["QUERY_ROOT"])
    }
}
