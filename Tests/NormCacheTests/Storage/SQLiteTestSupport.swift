import CSQLite
import Foundation
import Testing
@testable import NormCache

/// A directory of one test's own under the system's temporary directory, removed with
/// everything in it when the last reference goes (a suite instance lives for one test).
final class TemporaryDirectory {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("normcache-sqlite-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// The path of `name` inside the directory.
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// The names of the files in the directory, sorted.
    func fileNames() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
    }

    /// A file's bytes (nil if it does not exist).
    func bytes(_ name: String) -> Data? { FileManager.default.contents(atPath: path(name)) }

    /// Writes `data` to a file of the directory and returns its path.
    @discardableResult
    func write(_ name: String, _ data: Data) -> String {
        let path = path(name)
        try! data.write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A copy of the Apollo iOS 1.25.7 fixture file (rollback journal, 12 rows) named `name`.
    func apolloFixture(_ name: String = "apollo.sqlite") -> String {
        let source = StarWarsFixture.directory.appendingPathComponent("apollo-ios-1.25.7-starwars.sqlite")
        return write(name, try! Data(contentsOf: source))
    }
}

/// A connection to a SQLite file through the C API, without ``SQLiteStore``: builds
/// files for the tests and reads back exactly what is stored.
final class RawDatabase {
    /// One row of `records` as stored: the record's bytes untouched (nil for SQL NULL).
    struct Row: Equatable {
        let id: Int64
        let key: String
        let record: Data?
        var text: String? { record.map { String(decoding: $0, as: UTF8.self) } }
    }

    private var handle: OpaquePointer?
    let path: String

    init(_ path: String, readOnly: Bool = false) throws {
        self.path = path
        let flags = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK else {
            defer { sqlite3_close_v2(handle) }
            throw Support.Failure("raw open of \(path) failed: \(String(cString: sqlite3_errstr(code)))")
        }
        sqlite3_busy_timeout(handle, 2000)
    }

    deinit { sqlite3_close_v2(handle) }

    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(handle, sql, nil, nil, &message) == SQLITE_OK else {
            defer { sqlite3_free(message) }
            throw Support.Failure("raw SQL failed (\(message.map { String(cString: $0) } ?? "?")): \(sql)")
        }
    }

    /// Every row of `sql`, each column as its bytes (nil for SQL NULL).
    func rows(_ sql: String) throws -> [[Data?]] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
            throw Support.Failure("raw prepare failed (\(String(cString: sqlite3_errmsg(handle)))): \(sql)")
        }
        defer { sqlite3_finalize(statement) }
        var rows: [[Data?]] = []
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return rows }
            guard code == SQLITE_ROW else { throw Support.Failure("raw step failed (\(String(cString: sqlite3_errmsg(handle)))): \(sql)") }
            rows.append((0..<sqlite3_column_count(statement)).map { column in
                guard sqlite3_column_type(statement, column) != SQLITE_NULL else { return nil }
                let bytes = sqlite3_column_blob(statement, column)
                let count = Int(sqlite3_column_bytes(statement, column))
                guard count > 0, let bytes else { return Data() }
                return Data(bytes: bytes, count: count)
            })
        }
    }

    /// The first column of each row as text ("NULL" for SQL NULL).
    func strings(_ sql: String) throws -> [String] {
        try rows(sql).map { $0[0].map { String(decoding: $0, as: UTF8.self) } ?? "NULL" }
    }

    /// Every row of `records`, by `_id`.
    func records() throws -> [Row] {
        try rows(#"SELECT _id, key, record FROM "records" ORDER BY _id"#).map { columns in
            Row(id: Int64(String(decoding: columns[0]!, as: UTF8.self))!, key: String(decoding: columns[1]!, as: UTF8.self), record: columns[2])
        }
    }

    /// `rows` of (key, record SQL literal) inserted into a new file with Apollo's schema,
    /// in the journal mode SQLite gives a new file (delete, so no -wal or -shm).
    @discardableResult
    static func apolloFile(_ path: String, rows: [(key: String, record: String)]) throws -> RawDatabase {
        let database = try RawDatabase(path)
        try database.execute(SQLiteStore.schema)
        for row in rows { try database.execute(#"INSERT INTO "records" (key, record) VALUES (\#(quote(row.key)), \#(row.record))"#) }
        return database
    }

    /// `text` as a SQL string literal.
    static func quote(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }

    /// The keys and record texts of a file's `records` (opened read-only, then closed).
    static func recordTexts(_ path: String) throws -> [String: String] {
        Dictionary(uniqueKeysWithValues: try RawDatabase(path, readOnly: true).records().map { ($0.key, $0.text ?? "NULL") })
    }
}

/// Another process (python3 and its own SQLite) holding a transaction open on a file:
/// `BEGIN EXCLUSIVE` on a rollback-journal file blocks readers and writers, `BEGIN
/// IMMEDIATE` on a WAL file blocks writers, `BEGIN; SELECT ...` holds a read snapshot
/// (statements are split at `;`). The holder is running and holding the lock once
/// `init` returns; ``stop()`` kills it.
final class LockHolder {
    let process = Process()
    private let output = Pipe()
    private let errors = Pipe()
    private var buffer = Data()

    var pid: Int32 { process.processIdentifier }

    /// What a busy store's message says about this holder.
    var busyMessage: String { "locked by process \(pid) (python3)" }

    private static let script = """
        import sqlite3, sys, time
        path, begin, hold = sys.argv[1], sys.argv[2], float(sys.argv[3])
        db = sqlite3.connect(path, isolation_level=None, timeout=5)
        for statement in begin.split(";"):
            db.execute(statement).fetchall()
        print("locked", flush=True)
        time.sleep(hold)
        db.execute("ROLLBACK")
        db.close()
        print("released", flush=True)
        """

    /// python3 itself (a `python3` named binary, so that /proc/PID/comm says python3).
    private static let python: (URL, [String]) = {
        for candidate in ["/usr/bin/python3", "/usr/local/bin/python3"] where FileManager.default.isExecutableFile(atPath: candidate) {
            return (URL(fileURLWithPath: candidate), [])
        }
        return (URL(fileURLWithPath: "/usr/bin/env"), ["python3"])
    }()

    /// Starts the holder and waits for it to hold the lock; it lets go after `seconds`
    /// (30 by default: a safety net, tests stop it first).
    init(_ path: String, begin: String, releaseAfter seconds: Double = 30) throws {
        process.executableURL = Self.python.0
        process.arguments = Self.python.1 + ["-c", Self.script, path, begin, String(seconds)]
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let line = readLine()
        guard line == "locked" else {
            stop()
            let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw Support.Failure("the python3 lock holder did not lock \(path): \(line ?? "EOF") \(stderr)")
        }
    }

    deinit { stop() }

    /// The next line the holder prints (nil at its end).
    func readLine() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer = Data(buffer[buffer.index(after: newline)...])
                return line
            }
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { return nil }
            buffer.append(chunk)
        }
    }

    /// Waits until the holder has let go by itself and ended.
    func waitUntilReleased() {
        while let line = readLine(), line != "released" {}
        process.waitUntilExit()
    }

    /// Kills the holder (if still running) and waits for it to end: its locks go with it.
    /// SIGKILL, not `terminate()`'s SIGTERM: the child inherits the test thread's signal
    /// mask, which blocks SIGTERM.
    func stop() {
        if process.isRunning { kill(pid, SIGKILL) }
        process.waitUntilExit()
    }
}

/// Helpers of the SQLite store tests.
enum SQLiteSupport {
    /// Opens a cache over a new read-write store on `path`.
    static func cache(_ path: String, busyTimeout: Int = SQLiteStore.defaultBusyTimeout) throws -> (NormalizedCache, SQLiteStore) {
        let store = try SQLiteStore(path: path, busyTimeout: busyTimeout)
        return (try NormalizedCache(store: store), store)
    }

    /// The message of a cache error that came from its store (nil for other errors).
    static func storageMessage(_ error: (any Error)?) -> String? {
        guard case .storage(let message)? = error as? CacheError else { return nil }
        return message
    }

    /// A value as JSON text with sorted keys, as bytes: equal only for values that are the
    /// same to the byte (Swift's `==` on strings ignores canonical-equivalence differences,
    /// and `==` on doubles takes -0.0 for 0.0).
    static func bytes(_ object: CacheObject?) -> [UInt8] {
        Array(Support.canonical(object).utf8)
    }

    /// Expects two records to be the same: member for member (reference versus object,
    /// integer versus float) and byte for byte.
    static func expectIdentical(_ actual: CacheObject?, _ expected: CacheObject?, _ comment: Comment? = nil,
                                sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(Support.fields(actual) == Support.fields(expected), comment, sourceLocation: sourceLocation)
        #expect(bytes(actual) == bytes(expected), comment, sourceLocation: sourceLocation)
    }

    /// The top-level members of a JSON object's text exactly as written (`"name":"R2-D2"`):
    /// two records with the same members have the same bytes up to member order.
    static func memberTexts(_ json: String) -> [String] {
        let bytes = Array(json.utf8)
        guard bytes.first == UInt8(ascii: "{"), bytes.last == UInt8(ascii: "}") else { return [json] }
        var members: [String] = []
        var depth = 0, inString = false, escaped = false, start = 1
        for index in 1..<(bytes.count - 1) {
            let byte = bytes[index]
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            case UInt8(ascii: ",") where depth == 0:
                members.append(String(decoding: bytes[start..<index], as: UTF8.self))
                start = index + 1
            default: break
            }
        }
        if bytes.count > 2 { members.append(String(decoding: bytes[start..<(bytes.count - 1)], as: UTF8.self)) }
        return members.sorted()
    }

    /// How many transactions the `-wal` file beside `path` holds: its valid frames (salts
    /// matching the header's) that end a commit.
    static func walCommits(_ path: String) -> Int {
        guard let wal = FileManager.default.contents(atPath: path + "-wal"), wal.count >= 32 else { return 0 }
        let bytes = [UInt8](wal)
        func word(_ offset: Int) -> UInt32 { bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) } }
        let pageSize = Int(word(8))
        var offset = 32, commits = 0
        while offset + 24 + pageSize <= bytes.count, word(offset + 8) == word(16), word(offset + 12) == word(20) {
            if word(offset + 4) != 0 { commits += 1 }
            offset += 24 + pageSize
        }
        return commits
    }

    /// `count` bytes of a fixed pseudo-random sequence (SplitMix64): the same on every run.
    static func randomBytes(_ count: Int, seed: UInt64 = 0x5EED) -> Data {
        var state = seed
        var data = Data(capacity: count)
        while data.count < count {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            withUnsafeBytes(of: z) { data.append(contentsOf: $0.prefix(count - data.count)) }
        }
        return data
    }

    /// Seconds `body` took.
    static func timed<R>(_ body: () throws -> R) rethrows -> (R, Double) {
        let start = Date()
        let result = try body()
        return (result, Date().timeIntervalSince(start))
    }
}
