import CSQLite
import Foundation
import NormCache

/// Benchmarks of the SQLite store: writing changed records through, and opening a
/// large cache file.
enum SQLiteBenchmarks {
    static let writeCount = 10_000
    static let openCount = 100_000

    /// `Item:i` records as the engine hands new ones to the store: 9 fields and a reference each.
    static func records(_ count: Int) -> [RecordChange] {
        (0..<count).map { i in
            RecordChange(key: "Item:\(i)", fields: [
                "__typename": "Item", "id": .string("\(i)"), "f1": .string("name \(i)"), "f2": CacheValue(i),
                "f3": .double(Double(i) * 0.5), "f4": .bool(i % 2 == 0), "f5": "constant/with a slash", "f6": .null,
                "f7": .int(42), "owner": .reference("User:1"),
            ])
        }
    }

    /// A path in the temporary directory, with no file there yet.
    static func scratchFile(_ name: String, _ trial: Trial) -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("normcache-bench-\(getpid())-\(name).sqlite").path
        trial.must { try SQLiteStore.removeFiles(at: path) }
        return path
    }

    static let write = Benchmark(
        name: "sqlite.write", unit: "records/s",
        summary: "write-through of 10,000 new records into a new file (each looked up to merge into, records → Apollo iOS "
            + "JSON → upsert, one transaction); baseline: raw SQLite upserts of the same JSON text, same pragmas, one transaction"
    ) { trial in
        let records = records(writeCount)
        let texts = records.map { JSON.string(.object($0.fields), references: .apollo, escapeSlash: true) }
        let path = scratchFile("write", trial)
        let seconds = trial.medians({
            let store = try SQLiteStore(path: path)
            try store.write(merging: records, removing: [])
            store.close()
            try SQLiteStore.removeFiles(at: path)
            return records.count
        }, baseline: {
            let rows = RawSQLite.insert(zip(records.map(\.key), texts), into: path)
            try SQLiteStore.removeFiles(at: path)
            return rows
        })
        return .rate(writeCount, seconds)
    }

    static let open = Benchmark(
        name: "sqlite.open", unit: "ms",
        summary: "cold open of a 100,000-record file to the first complete read of one record (since lazy open, "
            + "only that record and QUERY_ROOT load); baseline: raw SQLite reading every row's text; ratio = baseline time / ours"
    ) { trial in
        let path = scratchFile("open", trial)
        trial.must {
            let store = try SQLiteStore(path: path)
            try store.write(merging: records(openCount) + [RecordChange(key: "QUERY_ROOT", fields: ["item(id:77)": .reference("Item:77")])],
                            removing: [])
            store.close()
        }
        defer { trial.must { try SQLiteStore.removeFiles(at: path) } }
        let seconds = trial.medians({
            let cache = try NormalizedCache(store: try SQLiteStore(path: path))
            let result = try cache.read(try cache.operation(#"{ item(id: 77) { id f1 f2 } }"#))
            precondition(result.complete, "sqlite.open: missing \(result.missing)")
            return result.data == nil ? 0 : 1
        }, baseline: {
            RawSQLite.readAll(path)
        })
        return .time(seconds, scale: 1e3, ratio: .baselineOverOurs)
    }
}

/// The raw baselines: SQLite's C API with nothing of normcache in between.
enum RawSQLite {
    static func open(_ path: String) -> OpaquePointer {
        var db: OpaquePointer?
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK, let db else {
            fatalError("bench: cannot open \(path)")
        }
        return db
    }

    static func execute(_ db: OpaquePointer, _ sql: String) {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { fatalError("bench: \(String(cString: sqlite3_errmsg(db)))") }
    }

    /// Upserts `rows` into the file at `path` (made, with SQLiteStore's schema, if it is
    /// new) with SQLiteStore's pragmas, in one transaction, as Apollo iOS writes; returns
    /// how many it upserted.
    static func insert(_ rows: some Sequence<(String, String)>, into path: String) -> Int {
        let db = open(path)
        defer { sqlite3_close_v2(db) }
        execute(db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA secure_delete = ON")
        execute(db, SQLiteStore.schema)
        var statement: OpaquePointer?
        sqlite3_prepare_v2(db, #"INSERT INTO "records" (key, record) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET record = excluded.record"#, -1, &statement, nil)
        defer { sqlite3_finalize(statement) }
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        execute(db, "BEGIN IMMEDIATE")
        var count = 0
        for (key, text) in rows {
            sqlite3_bind_text(statement, 1, key, -1, transient)
            sqlite3_bind_text(statement, 2, text, -1, transient)
            guard sqlite3_step(statement) == SQLITE_DONE else { fatalError("bench: \(String(cString: sqlite3_errmsg(db)))") }
            sqlite3_reset(statement)
            count += 1
        }
        execute(db, "COMMIT")
        return count
    }

    /// Opens the file and reads the row of `key`; returns its byte count.
    static func readOne(_ path: String, key: String) -> Int {
        let db = open(path)
        defer { sqlite3_close_v2(db) }
        var statement: OpaquePointer?
        sqlite3_prepare_v2(db, #"SELECT record FROM "records" WHERE key = ?"#, -1, &statement, nil)
        defer { sqlite3_finalize(statement) }
        sqlite3_bind_text(statement, 1, key, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        guard sqlite3_step(statement) == SQLITE_ROW else { return 0 }
        _ = sqlite3_column_text(statement, 0)
        return Int(sqlite3_column_bytes(statement, 0))
    }

    /// Steps through every row of the file, touching each record's bytes; returns the byte count.
    static func readAll(_ path: String) -> Int {
        let db = open(path)
        defer { sqlite3_close_v2(db) }
        var statement: OpaquePointer?
        sqlite3_prepare_v2(db, #"SELECT key, record FROM "records""#, -1, &statement, nil)
        defer { sqlite3_finalize(statement) }
        var bytes = 0
        while sqlite3_step(statement) == SQLITE_ROW {
            _ = sqlite3_column_text(statement, 1)
            bytes &+= Int(sqlite3_column_bytes(statement, 1))
        }
        return bytes
    }
}
