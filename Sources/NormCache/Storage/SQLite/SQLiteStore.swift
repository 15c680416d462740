import CSQLite
import Foundation

/// A ``RecordStore`` in Apollo iOS's SQLite file format: one `records` table of
/// `key` and `record` (the record's fields as JSON, references as
/// `{"$reference":"K"}`), so files pulled off an iOS device open here and files written
/// here open in Apollo iOS. WAL, `synchronous=NORMAL`, a busy timeout, prepared
/// statements, and one transaction per ``write(merging:removing:)``.
///
/// Opening checks the file and reads every row before anything can change it: a file
/// that is not SQLite, has no `records` table or holds a row of invalid JSON is refused
/// whole and left as it was. Read-only stores (``Mode/readOnly``, for inspecting a file)
/// never write and skip bad rows with a warning instead.
///
/// ```swift
/// let store = try SQLiteStore(path: "/tmp/alice.sqlite")
/// let cache = try NormalizedCache(store: store)   // every record loaded
/// try cache.write(record: "Trip:1", fields: ["name": "Porto"])   // written through
/// ```
public final class SQLiteStore: RecordStore {
    public enum Mode: Sendable {
        /// Reads and writes; creates the file if it does not exist.
        case readWrite
        /// Reads only; the file's bytes stay as they were.
        case readOnly
    }

    public let path: String
    public let mode: Mode
    /// Rows a read-only store skipped, and why.
    public private(set) var warnings: [String] = []
    /// The default wait for another process's lock before giving up.
    public static let defaultBusyTimeout = 5000

    private let database: SQLiteDatabase
    /// Every record, read when the file opened, until ``loadAll()`` hands them over.
    private var opened: [Record]?
    /// Statements of a read-write store (nil when read-only).
    private var upsert: SQLiteStatement?
    private var delete: SQLiteStatement?
    private let select: SQLiteStatement

    /// Opens (or in ``Mode/readWrite`` creates) the cache file at `path`.
    /// `busyTimeout`: milliseconds to wait for another process's lock.
    public init(path: String, mode: Mode = .readWrite, busyTimeout: Int = SQLiteStore.defaultBusyTimeout) throws(StoreError) {
        self.path = path
        self.mode = mode
        let exists = FileManager.default.fileExists(atPath: path)
        if mode == .readOnly, !exists { throw StoreError(path: path, message: "does not exist") }
        var isDirectory: ObjCBool = false
        if exists, FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw StoreError(path: path, message: "is a directory, not a cache file")
        }
        database = try SQLiteDatabase(path: path, readOnly: mode == .readOnly, create: !exists,
                                      busyTimeout: Int32(clamping: busyTimeout))
        let hasTable = try Self.checkSchema(database, mayCreate: mode == .readWrite)
        // Only with the file known good, anything that may write to it.
        if !hasTable { try database.execute(Self.schema) }
        select = try database.prepare(#"SELECT key, record FROM "records" WHERE key = ?"#)
        opened = hasTable ? try readAll() : []
        guard mode == .readWrite else {
            try database.execute("PRAGMA query_only = ON")
            return
        }
        let journal = try database.strings("PRAGMA journal_mode = WAL").first
        if journal?.lowercased() != "wal" { warnings.append("\(path): WAL is not available here; using journal mode \(journal ?? "?")") }
        try database.execute("PRAGMA synchronous = NORMAL; PRAGMA secure_delete = ON")
        upsert = try database.prepare(#"INSERT INTO "records" (key, record) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET record = excluded.record"#)
        delete = try database.prepare(#"DELETE FROM "records" WHERE key = ?"#)
    }

    /// Apollo iOS's schema, as Apollo iOS writes it.
    public static let schema = #"CREATE TABLE IF NOT EXISTS "records" ("_id" INTEGER, "key" TEXT UNIQUE, "record" TEXT, PRIMARY KEY("_id" AUTOINCREMENT))"#

    /// Whether the file has a usable `records` table; refuses files that are something else.
    private static func checkSchema(_ database: SQLiteDatabase, mayCreate: Bool) throws(StoreError) -> Bool {
        let tables = try database.strings("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        guard tables.contains("records") else {
            if tables.isEmpty {
                if mayCreate { return false }
                throw StoreError(path: database.path, message: "is an empty SQLite database: it has no records table")
            }
            throw StoreError(path: database.path, message: "is a SQLite database without a records table, so not an Apollo iOS cache "
                             + "(its tables: \(tables.joined(separator: ", "))); nothing was changed")
        }
        let columns = try database.strings(#"SELECT name FROM pragma_table_info('records')"#)
        for needed in ["key", "record"] where !columns.contains(needed) {
            throw StoreError(path: database.path, message: "its records table has no \"\(needed)\" column "
                             + "(columns: \(columns.joined(separator: ", "))), so it is not an Apollo iOS cache; nothing was changed")
        }
        return true
    }

    /// Every row, parsed. A bad row refuses the file (read-write) or is skipped with a warning (read-only).
    private func readAll() throws(StoreError) -> [Record] {
        let statement = try database.prepare(#"SELECT _id, key, record FROM "records" ORDER BY _id"#)
        var records: [Record] = []
        var problems: [String] = []
        while try statement.step() {
            let row = statement.integer(0)
            guard let key = statement.text(1) else {
                problems.append("row _id \(row) has no key")
                continue
            }
            do { records.append(Record(key: key, fields: try statement.withBytes(2) { try Self.fields(ofRecordText: $0) })) } catch {
                problems.append("record \(key) (row _id \(row)): \(error)")
            }
        }
        guard !problems.isEmpty else { return records }
        if mode == .readOnly {
            warnings += problems.map { "\(path): skipped \($0)" }
            return records
        }
        let shown = problems.prefix(5).joined(separator: "; ") + (problems.count > 5 ? "; and \(problems.count - 5) more" : "")
        throw StoreError(path: path, message: "holds records that cannot be read, so it was not opened for writing and nothing was changed "
                         + "(normcache inspect opens it read-only and skips them): \(shown)")
    }

    /// The fields of a stored record from its JSON text (the `record` column, NULL as nil).
    static func fields(ofRecordText bytes: UnsafeBufferPointer<UInt8>?) throws -> CacheObject {
        guard let bytes else { throw RowProblem("the record is NULL") }
        guard case .object(let fields) = try JSON.parse(bytes: bytes, references: .apollo) else {
            throw RowProblem("the record is not a JSON object")
        }
        return fields
    }

    private struct RowProblem: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    // MARK: RecordStore

    public func keys() throws -> [String] {
        try database.strings(#"SELECT key FROM "records" ORDER BY key"#)
    }

    public func load(_ keys: [String]) throws -> [Record] {
        var records: [Record] = []
        for key in keys {
            defer { select.reset() }
            select.bind(1, key)
            while try select.step() {
                do { records.append(Record(key: key, fields: try select.withBytes(1) { try Self.fields(ofRecordText: $0) })) } catch {
                    throw StoreError(path: path, message: "record \(key) cannot be read: \(error)")
                }
            }
        }
        return records
    }

    public func loadAll() throws -> [Record] {
        if let opened {
            self.opened = nil
            return opened
        }
        return try readAll()
    }

    public func write(merging records: [Record], removing: [String]) throws {
        guard let upsert, let delete else { throw readOnlyError() }
        try transaction {
            for key in removing {
                delete.bind(1, key)
                try delete.run()
            }
            for record in records {
                upsert.bind(1, record.key)
                JSON.utf8(.object(record.fields), references: .apollo, escapeSlash: true).withUnsafeBufferPointer { upsert.bind(2, utf8: $0) }
                try upsert.run()
            }
        }
    }

    /// Removes every record and leaves no trace of them in the file or its WAL:
    /// `secure_delete` zeroes freed pages, VACUUM shrinks the file, and a truncating
    /// checkpoint empties the WAL.
    /// Another process reading the file keeps the WAL from being emptied; then nothing is
    /// cleared and the error names the reader.
    public func clear() throws {
        guard mode == .readWrite else { throw readOnlyError() }
        try emptyWAL(then: "nothing was cleared")
        try transaction { try database.execute(#"DELETE FROM "records""#) }
        try database.execute("VACUUM")
        try emptyWAL(then: "the records are deleted, but their old pages stay in its -wal file until that reader is done")
    }

    /// Copies the WAL into the file and truncates it; throws when a reader blocks that.
    private func emptyWAL(then consequence: String) throws(StoreError) {
        let checkpoint = try database.prepare("PRAGMA wal_checkpoint(TRUNCATE)")
        guard try checkpoint.step(), checkpoint.integer(0) != 0 else { return }
        checkpoint.reset()
        let readers = LockHolders.of(path).map(\.description).joined(separator: ", ")
        throw StoreError(path: path, message: "is being read by \(readers.isEmpty ? "another connection" : readers), "
                         + "so its write-ahead log cannot be emptied: \(consequence)")
    }

    /// Closes the file; later calls fail.
    public func close() { database.close() }

    /// Deletes a cache file with its `-wal`, `-shm` and `-journal` files (close its stores
    /// first). Refused, with nothing deleted, while another process has the file open
    /// (``checkNotOpenElsewhere(_:)``).
    public static func removeFiles(at path: String) throws(StoreError) {
        try checkNotOpenElsewhere(path)
        for file in [path, path + "-wal", path + "-shm", path + "-journal"] where FileManager.default.fileExists(atPath: file) {
            do { try FileManager.default.removeItem(atPath: file) } catch {
                throw StoreError(path: file, message: "could not be deleted: \(error.localizedDescription)")
            }
        }
    }

    /// Throws, naming them, when other processes have the file open: each connection holds
    /// a lock on the file's `-shm` index while it is open. Deleting the file under them would
    /// leave them writing to files that no one could open again, their changes lost.
    ///
    /// ```swift
    /// try SQLiteStore.checkNotOpenElsewhere("/tmp/alice.sqlite")
    /// // StoreError: /tmp/alice.sqlite: is open in process 4242 (normcache): nothing was deleted; …
    /// ```
    public static func checkNotOpenElsewhere(_ path: String) throws(StoreError) {
        let others = LockHolders.of(path)
        guard !others.isEmpty else { return }
        throw StoreError(path: path, message: "is open in \(others.map(\.description).joined(separator: ", ")): nothing was deleted; "
                         + "close it there first")
    }

    /// `PRAGMA integrity_check`'s answer: `["ok"]` for a sound file.
    public func integrityCheck() throws -> [String] {
        try database.strings("PRAGMA integrity_check")
    }

    private func transaction(_ body: () throws -> Void) throws {
        try database.execute("BEGIN IMMEDIATE")
        do {
            try body()
            try database.execute("COMMIT")
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
    }

    private func readOnlyError() -> StoreError {
        StoreError(path: path, message: "is open read-only (normcache inspect): nothing can be written to it")
    }
}
