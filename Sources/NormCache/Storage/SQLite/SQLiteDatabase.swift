import CSQLite
import Foundation

/// One connection to a SQLite file over the system's C API: opening, statements, and
/// errors that name the file and say what the problem is (who holds a lock, which
/// directory is not writable) instead of SQLite's bare result codes.
final class SQLiteDatabase {
    let path: String
    let busyTimeout: Int32
    private var handle: OpaquePointer?

    /// Opens `path`; `create` makes the file if it does not exist.
    init(path: String, readOnly: Bool, create: Bool, busyTimeout: Int32) throws(StoreError) {
        self.path = path
        self.busyTimeout = busyTimeout
        let flags = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0)
        var db: OpaquePointer?
        let code = sqlite3_open_v2(path, &db, flags | SQLITE_OPEN_NOMUTEX, nil)
        handle = db
        guard code == SQLITE_OK else {
            let error = self.error(code, doing: "open")
            close()
            throw error
        }
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, busyTimeout)
    }

    deinit { close() }

    var isOpen: Bool { handle != nil }

    func close() {
        guard let handle else { return }
        sqlite3_close_v2(handle)
        self.handle = nil
    }

    /// Runs SQL text that returns no rows (several statements allowed).
    func execute(_ sql: String) throws(StoreError) {
        let code = sqlite3_exec(try open(), sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw error(code, doing: sql) }
    }

    func prepare(_ sql: String) throws(StoreError) -> SQLiteStatement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(try open(), sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else { throw error(code, doing: sql) }
        return SQLiteStatement(statement, database: self)
    }

    /// Runs `body` in one read transaction, so that its statements take the file's shared
    /// lock once between them instead of once each (a lock is a system call, and a check
    /// for a hot journal); inside a transaction already open, in that one.
    func reading<Result>(_ body: () throws -> Result) throws -> Result {
        let handle = try open()
        guard sqlite3_get_autocommit(handle) != 0 else { return try body() }
        try execute("BEGIN")
        // Ending a read transaction only lets the lock go; after an error SQLite may have ended it already.
        defer { if sqlite3_get_autocommit(handle) == 0 { sqlite3_exec(handle, "COMMIT", nil, nil, nil) } }
        return try body()
    }

    /// The first column of each row of `sql`, as text.
    func strings(_ sql: String) throws(StoreError) -> [String] {
        let statement = try prepare(sql)
        var result: [String] = []
        while try statement.step() { result.append(statement.text(0) ?? "") }
        return result
    }

    private func open() throws(StoreError) -> OpaquePointer {
        guard let handle else { throw StoreError(path: path, message: "the store is closed") }
        return handle
    }

    /// A message for a failed call: what SQLite said, made specific where we can.
    func error(_ code: Int32, doing what: String) -> StoreError {
        let detail = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
        let message: String
        switch code & 0xFF {
        case SQLITE_NOTADB:
            message = "is not a SQLite database (nothing was changed)"
        case SQLITE_BUSY, SQLITE_LOCKED:
            message = "is locked by \(LockHolders.naming(path)); gave up after waiting \(busyTimeout) ms"
        case SQLITE_CANTOPEN:
            message = Self.cannotOpen(path, errno: handle.map { sqlite3_system_errno($0) } ?? 0)
        case SQLITE_READONLY:
            message = "cannot be written (\(detail)): check the permissions of the file and its directory"
        case SQLITE_CORRUPT:
            message = "is corrupt (\(detail))"
        case SQLITE_FULL:
            message = "cannot grow: the disk is full"
        default:
            message = "\(detail) (SQLite code \(code), during \(what.prefix(60)))"
        }
        return StoreError(path: path, message: message)
    }

    private static func cannotOpen(_ path: String, errno code: Int32) -> String {
        let directory = (path as NSString).deletingLastPathComponent
        let folder = directory.isEmpty ? "." : directory
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) || !isDirectory.boolValue {
            return "cannot be opened: the directory \(folder) does not exist"
        }
        if code == EACCES || code == EROFS || access(folder, W_OK) != 0 {
            return "cannot be opened: the directory \(folder) is not writable (SQLite needs to create the file or its -wal and -shm files there)"
        }
        if code != 0 { return "cannot be opened: \(String(cString: strerror(code)))" }
        return "cannot be opened"
    }
}

/// A prepared statement of a ``SQLiteDatabase``, reused across calls.
final class SQLiteStatement {
    private let statement: OpaquePointer
    private unowned let database: SQLiteDatabase
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(_ statement: OpaquePointer, database: SQLiteDatabase) {
        self.statement = statement
        self.database = database
    }

    deinit { sqlite3_finalize(statement) }

    func bind(_ index: Int32, _ text: String) {
        var text = text
        text.withUTF8 { bind(index, utf8: $0) }
    }

    func bind(_ index: Int32, _ value: Int64) {
        sqlite3_bind_int64(statement, index, value)
    }

    /// Binds UTF-8 text (copied by SQLite).
    func bind(_ index: Int32, utf8 bytes: UnsafeBufferPointer<UInt8>) {
        // An empty buffer may have no address, which SQLite would bind as NULL.
        let start = bytes.baseAddress.map { UnsafeRawPointer($0) } ?? UnsafeRawPointer(("" as StaticString).utf8Start)
        sqlite3_bind_text(statement, index, start.assumingMemoryBound(to: CChar.self), Int32(bytes.count), Self.transient)
    }

    /// Advances to the next row: true while there is one.
    func step() throws(StoreError) -> Bool {
        let code = sqlite3_step(statement)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE:
            sqlite3_reset(statement)
            return false
        default:
            sqlite3_reset(statement)
            throw database.error(code, doing: String(cString: sqlite3_sql(statement)))
        }
    }

    /// Runs the statement to its end.
    func run() throws(StoreError) {
        while try step() {}
    }

    func reset() { sqlite3_reset(statement) }

    func text(_ column: Int32) -> String? {
        withBytes(column) { $0.map { String(decoding: $0, as: UTF8.self) } }
    }

    func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }

    /// The column's UTF-8 bytes (nil for SQL NULL), valid only inside `body`.
    func withBytes<R>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>?) throws -> R) rethrows -> R {
        guard sqlite3_column_type(statement, column) != SQLITE_NULL else { return try body(nil) }
        let start = sqlite3_column_text(statement, column)
        let count = Int(sqlite3_column_bytes(statement, column))
        return try body(UnsafeBufferPointer(start: start, count: count))
    }
}
