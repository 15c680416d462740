import CSQLite
import Foundation

/// A ``RecordStore`` in Apollo iOS's SQLite file format: one `records` table of
/// `key` and `record` (the record's fields as JSON, references as
/// `{"$reference":"K"}`), so files pulled off an iOS device open here and files written
/// here open in Apollo iOS. WAL, `synchronous=NORMAL`, a busy timeout, prepared
/// statements, and one transaction per ``write(merging:removing:)``. When each record was
/// received (``RecordChange/received``) is kept in a table of its own,
/// `normcache_received`, made by the first write that has times: Apollo iOS reads only
/// `records`, and a file without the table (one Apollo iOS wrote) opens with every age
/// unknown. A read-only store never makes it.
///
/// Opening reads only the file's header and schema, whatever its size: a file that is not
/// SQLite, was cut short or has no `records` table is refused and left as it was. Rows
/// are read as the engine asks for them, by key (``load(_:)``); a row of invalid JSON or
/// on a damaged page fails the load that meets it, naming the record. Before its first
/// write a read-write store runs `PRAGMA integrity_check` (which reads every page), and
/// refuses to write into a damaged file. Read-only stores (``Mode/readOnly``, for
/// inspecting a file) never write: ``checkIntegrity()`` runs the check when asked and
/// reports what it found, and ``loadAll()`` skips bad rows, each with a warning, and
/// reads what a damaged page leaves readable row by row.
///
/// ```swift
/// let store = try SQLiteStore(path: "/tmp/alice.sqlite")
/// let cache = try NormalizedCache(store: store)   // nothing read yet
/// try cache.write(record: "Trip:1", fields: ["name": "Porto"])   // written through, merged into the stored Trip:1
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

    /// The store's one connection: its facets (``dataVersion()``, ``forEachRow(_:)``) use it too.
    let database: SQLiteDatabase
    /// The file the store opened, as it was then: a follower checks that the path still
    /// names it (``StoreFollower``). Nil when `stat` could not tell.
    let file: FileIdentity?
    /// Whether the integrity check has passed (read-write stores check before their first write).
    private var checked = false
    /// Statements of a read-write store (nil when read-only).
    private var upsert: SQLiteStatement?
    private var delete: SQLiteStatement?
    private let select: SQLiteStatement
    /// Statements of the received-times table: the lookup once the file has the table, the
    /// others once a write made it (nil before).
    private var selectReceived: SQLiteStatement?
    private var upsertReceived: SQLiteStatement?
    private var deleteReceived: SQLiteStatement?
    /// A read-only store over a damaged file (cut short, or a key index or table page that
    /// cannot be read): what ``salvage(after:)`` could read, row by row, once; keys and loads
    /// are answered from it. Nil until damage is met.
    private var salvaged: [String: CacheObject]?
    /// Whether the file was cut short: then its pages are not trusted from the start.
    private let cutShort: Bool

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
        let cut = exists ? Self.truncation(of: path) : nil
        cutShort = cut != nil
        if let cut, mode == .readWrite {
            throw StoreError(path: path, message: "\(cut), so it was not opened for writing and nothing was changed "
                             + "(normcache inspect opens it read-only and reads what it can)")
        }
        database = try SQLiteDatabase(path: path, readOnly: mode == .readOnly, create: !exists,
                                      busyTimeout: Int32(clamping: busyTimeout))
        file = FileIdentity.of(path)
        // Read-only, a schema that names a page the file no longer has (a truncated file)
        // does not stop SQLite from reading the pages it does have.
        if mode == .readOnly { try database.execute("PRAGMA writable_schema = ON") }
        let hasTable: Bool
        do { hasTable = try Self.checkSchema(database, mayCreate: mode == .readWrite) } catch {
            guard let cut else { throw error }
            throw StoreError(path: path, message: "\(cut), and what is left of it holds no readable records table")
        }
        if let cut { warnings.append("\(path): \(cut): what can be read is read") }
        // Only with the file known good, anything that may write to it.
        if !hasTable { try database.execute(Self.schema) }
        select = try database.prepare(#"SELECT key, record FROM "records" WHERE key = ?"#)
        let hasReceived = try !database.strings(#"SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'normcache_received'"#).isEmpty
        checked = !hasTable
        guard mode == .readWrite else {
            if hasReceived { try prepareReceived() }
            try database.execute("PRAGMA query_only = ON")
            return
        }
        let journal = try database.strings("PRAGMA journal_mode = WAL").first
        if journal?.lowercased() != "wal" { warnings.append("\(path): WAL is not available here; using journal mode \(journal ?? "?")") }
        try database.execute("PRAGMA synchronous = NORMAL; PRAGMA secure_delete = ON")
        upsert = try database.prepare(#"INSERT INTO "records" (key, record) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET record = excluded.record"#)
        delete = try database.prepare(#"DELETE FROM "records" WHERE key = ?"#)
        if hasReceived { try prepareReceived() }
    }

    /// Apollo iOS's schema, as Apollo iOS writes it.
    public static let schema = #"CREATE TABLE IF NOT EXISTS "records" ("_id" INTEGER, "key" TEXT UNIQUE, "record" TEXT, PRIMARY KEY("_id" AUTOINCREMENT))"#
    /// The table of when each record was received, by record key: normcache's own.
    static let receivedSchema = #"CREATE TABLE IF NOT EXISTS "normcache_received" ("key" TEXT PRIMARY KEY, "received" TEXT NOT NULL) WITHOUT ROWID"#

    /// "is 8192 bytes, but its header says 16384 (4 pages of 4096): it was cut short" for a
    /// SQLite file shorter than its header says it is; nil otherwise (or not SQLite).
    static func truncation(of path: String) -> String? {
        guard let file = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? file.close() }
        guard let header = try? file.read(upToCount: 100), header.count == 100,
              header.starts(with: Array("SQLite format 3\0".utf8)),
              let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? UInt64 else { return nil }
        func integer(_ offset: Int, _ count: Int) -> UInt64 { header[offset..<offset + count].reduce(0) { $0 << 8 | UInt64($1) } }
        let pageSize = integer(16, 2) == 1 ? 65_536 : integer(16, 2)
        let pages = integer(28, 4)
        // The header's page count holds only while its version-valid-for number is the change counter.
        guard pages > 0, integer(92, 4) == integer(24, 4), size < pages * pageSize else { return nil }
        return "is \(size) bytes, but its header says \(pages * pageSize) (\(pages) pages of \(pageSize)): it was cut short"
    }

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

    /// `PRAGMA integrity_check`, which reads every page: a damaged file is refused for
    /// writing (writing into a damaged b-tree spreads the damage; a read-write store checks
    /// before its first write) and reported in ``warnings`` by a read-only store, which goes on.
    public func checkIntegrity() throws(StoreError) {
        guard !checked else { return }
        let findings: [String]
        do { findings = try database.strings("PRAGMA integrity_check(\(Self.shownProblems + 1))") } catch {
            findings = [error.message]
        }
        checked = findings == ["ok"] || mode == .readOnly
        guard findings != ["ok"] else { return }
        let shown = Self.summary(findings.flatMap { $0.split(separator: "\n").map(String.init) }.filter { !$0.hasPrefix("*** in database") })
        guard mode == .readOnly else {
            throw StoreError(path: path, message: "fails SQLite's integrity check, so nothing was written to it "
                             + "(normcache inspect opens it read-only and reads what it can): \(shown)")
        }
        warnings.append("\(path): fails SQLite's integrity check: \(shown); what can be read is read, row by row where a page is damaged")
    }

    /// Every row, parsed. A bad row fails the read (read-write) or is skipped with a warning
    /// (read-only); a read-only store whose table cannot be scanned to its end reads the
    /// rows one by one instead (``readRowByRow()``).
    private func readAll() throws(StoreError) -> [Record] {
        var records: [Record] = []
        var problems: [String] = []
        do {
            let statement = try database.prepare(#"SELECT _id, key, record FROM "records" ORDER BY _id"#)
            while try statement.step() {
                let (record, problem) = Self.row(statement, id: statement.integer(0), key: 1, record: 2)
                if let record { records.append(record) }
                if let problem { problems.append(problem) }
            }
        } catch {
            guard mode == .readOnly else {
                throw StoreError(path: path, message: "cannot be read to its end (\(error.message)) "
                                 + "(normcache inspect opens it read-only and reads what it can)")
            }
            (records, problems) = readRowByRow()
            problems.insert("the table's scan at a damaged page (\(error.message)), and read each row on its own instead", at: 0)
        }
        guard !problems.isEmpty else { return records }
        if mode == .readOnly {
            warnings += problems.map { "\(path): skipped \($0)" }
            return records
        }
        throw StoreError(path: path, message: "holds records that cannot be read "
                         + "(normcache inspect opens it read-only and skips them): \(Self.summary(problems))")
    }

    /// The record of the row `statement` is on, or the problem with it (`key` and `record`
    /// are its columns; `id` names the row).
    private static func row(_ statement: SQLiteStatement, id: Int64, key: Int32, record: Int32) -> (Record?, String?) {
        guard let key = statement.text(key) else { return (nil, "row _id \(id) has no key") }
        do { return (Record(key: key, fields: try statement.withBytes(record) { try RecordText.fields(of: $0) }), nil) } catch {
            return (nil, "record \(key) (row _id \(id)): \(error)")
        }
    }

    /// The rows of a table that cannot be scanned to its end, each looked up on its own so
    /// that a damaged page loses only the rows on it: every `_id` up to the last that
    /// AUTOINCREMENT handed out, then the keys the key index lists that those did not
    /// reach. A row that cannot be read is named by its key when the index knows it.
    private func readRowByRow() -> (records: [Record], problems: [String]) {
        var records: [Record] = []
        var problems: [String] = []
        var seen: Set<String> = []
        var unreadable: [Int64] = []
        let last = [#"SELECT seq FROM sqlite_sequence WHERE name = 'records'"#, #"SELECT max(_id) FROM "records""#].lazy
            .compactMap { (try? self.database.strings($0))?.first.flatMap { Int64($0) } }.first ?? 0
        if last > 0, let byID = try? database.prepare(#"SELECT key, record FROM "records" WHERE _id = ?"#) {
            for id in 1...last {
                defer { byID.reset() }
                byID.bind(1, id)
                do {
                    guard try byID.step() else { continue }
                    let (record, problem) = Self.row(byID, id: id, key: 0, record: 1)
                    if let record, seen.insert(record.key).inserted { records.append(record) }
                    if let problem { problems.append(problem) }
                } catch {
                    unreadable.append(id)
                }
            }
        }
        var indexed: [String] = []
        if let keys = try? database.prepare(#"SELECT key FROM "records" ORDER BY key"#) {
            while (try? keys.step()) == true { if let key = keys.text(0) { indexed.append(key) } }
        }
        for key in indexed where !seen.contains(key) {
            do {
                guard let record = try lookUp(key) else { continue }
                seen.insert(key)
                records.append(record)
            } catch let error as PageDamage {
                problems.append("record \(key): on a damaged page (\(error.underlying.message))")
            } catch {
                problems.append("\(error)")
            }
        }
        if !unreadable.isEmpty {
            problems.append("\(unreadable.count) row\(unreadable.count == 1 ? "" : "s") on damaged pages (_id \(Self.ranges(unreadable)))")
        }
        return (records, problems)
    }

    /// How many problems a message shows before "and N more".
    private static let shownProblems = 5

    /// The first problems, and how many more there are.
    private static func summary(_ problems: [String]) -> String {
        problems.prefix(shownProblems).joined(separator: "; ")
            + (problems.count > shownProblems ? "; and \(problems.count - shownProblems) more" : "")
    }

    /// `1-4, 9` for [1, 2, 3, 4, 9] (sorted ids).
    private static func ranges(_ ids: [Int64]) -> String {
        var runs: [(Int64, Int64)] = []
        for id in ids {
            if let last = runs.last, last.1 + 1 == id { runs[runs.count - 1].1 = id } else { runs.append((id, id)) }
        }
        return runs.map { $0.0 == $0.1 ? "\($0.0)" : "\($0.0)-\($0.1)" }.joined(separator: ", ")
    }

    // MARK: RecordStore

    /// The keys, from the key index. A read-only store that finds the index damaged (a scan
    /// that fails, a key that reads as NULL) answers from what it salvages instead.
    public func keys() throws -> [String] {
        if let salvaged = try salvagedIfDamaged() { return salvaged.keys.sorted() }
        var keys: [String] = []
        do {
            let statement = try database.prepare(#"SELECT key FROM "records" ORDER BY key"#)
            while try statement.step() {
                guard let key = statement.text(0) else { throw StoreError(path: path, message: "a key of its key index reads as NULL") }
                keys.append(key)
            }
        } catch {
            guard mode == .readOnly else { throw error }
            return try salvage(after: error).keys.sorted()
        }
        return keys
    }

    /// Hands `batch` the records of its keys as it reads them, in one read transaction:
    /// looked up by key, or, for a batch of a large part of the file (``scans(_:)``), found
    /// by one scan of the table, whose rows read many times faster than lookups through the
    /// key index. Either way a row's text goes to the batch unparsed. A read-only store
    /// that meets a damaged page answers the keys not handed over yet from what it salvages.
    public func load(_ batch: RecordBatch) throws {
        if let salvaged = try salvagedIfDamaged() { return try hand(batch, from: salvaged) }
        try database.reading {
            do {
                if scans(batch.count) {
                    try scan(for: batch)
                } else {
                    for key in batch.keys { try lookUp(key, into: batch) }
                }
            } catch let error as PageDamage {
                guard mode == .readOnly else { throw error.underlying }
                try hand(batch, from: salvage(after: error.underlying))
            }
        }
    }

    /// Hands `batch` the records it still wants that `salvaged` holds.
    private func hand(_ batch: RecordBatch, from salvaged: [String: CacheObject]) throws {
        for key in batch.keys {
            if let fields = salvaged[key], batch.wants(key) { try batch.take(fields: fields) }
        }
    }

    /// Batches from this size on may scan the table instead of looking their keys up.
    static let scanFrom = 64

    /// Whether a batch of `count` keys is better found by scanning the table: when it is an
    /// eighth of its rows or more (a lookup through the key index costs about ten rows of a
    /// scan). The rows are counted from the table's largest rowid, which never undercounts.
    private func scans(_ count: Int) -> Bool {
        guard count >= Self.scanFrom,
              let rows = (try? database.strings(#"SELECT max(rowid) FROM "records""#))?.first.flatMap({ Int($0) }) else { return false }
        return count * 8 >= rows
    }

    /// Hands `batch` the rows it wants as one scan of the table meets them, asking it of
    /// each row's key; only their text is read. Throws ``PageDamage`` where the scan cannot
    /// go on.
    private func scan(for batch: RecordBatch) throws {
        let statement = try database.prepare(#"SELECT key, record FROM "records""#)
        defer { statement.reset() }
        while !batch.isComplete {
            do { guard try statement.step() else { return } } catch { throw PageDamage(underlying: error) }
            let wanted = statement.withBytes(0) { $0.map { batch.wants(key: UnsafeRawBufferPointer($0)) } ?? false }
            if wanted { try hand(statement, column: 1, to: batch) }
        }
    }

    /// Hands `batch` the row keyed `key` if the file holds it and the batch wants it.
    /// Throws ``PageDamage`` when SQLite cannot reach the row.
    private func lookUp(_ key: String, into batch: RecordBatch) throws {
        defer { select.reset() }
        select.bind(1, key)
        do { guard try select.step() else { return } } catch { throw PageDamage(underlying: error) }
        if batch.wants(key) { try hand(select, column: 1, to: batch) }
    }

    /// Hands `batch` the text of the row `statement` is on, from `column`: a
    /// ``StoreError`` naming the record when that text is not a record.
    private func hand(_ statement: SQLiteStatement, column: Int32, to batch: RecordBatch) throws {
        do { try statement.withBytes(column) { try batch.take(text: $0) } } catch let error as RecordText.Problem {
            throw unreadable(statement, error)
        } catch let error as JSONError {
            throw unreadable(statement, error)
        }
    }

    /// The record `key` as its row holds it; throws ``PageDamage`` when SQLite cannot reach
    /// the row, and a ``StoreError`` naming the record when its text is not a record.
    private func lookUp(_ key: String) throws -> Record? {
        defer { select.reset() }
        select.bind(1, key)
        do { guard try select.step() else { return nil } } catch { throw PageDamage(underlying: error) }
        do { return Record(key: key, fields: try select.withBytes(1) { try RecordText.fields(of: $0) }) } catch {
            throw unreadable(select, error)
        }
    }

    /// The error for the row `statement` is on (its key in column 0), whose text is not a record.
    private func unreadable(_ statement: SQLiteStatement, _ problem: any Error) -> StoreError {
        StoreError(path: path, message: "record \(statement.text(0) ?? "?") cannot be read: \(problem)")
    }

    /// SQLite could not reach a row: a page on the way is damaged.
    private struct PageDamage: Error {
        let underlying: StoreError
    }

    /// What was salvaged, salvaging first when the file is known damaged (cut short).
    private func salvagedIfDamaged() throws(StoreError) -> [String: CacheObject]? {
        if salvaged == nil, cutShort, mode == .readOnly { return try salvage(after: nil) }
        return salvaged
    }

    /// Reads every row the damage leaves readable (``readAll()``, row by row past a damaged
    /// page), once, and answers keys and loads from it from now on; `error` (what showed the
    /// damage) is said in ``warnings``.
    private func salvage(after error: (any Error)?) throws(StoreError) -> [String: CacheObject] {
        if let salvaged { return salvaged }
        if let error { warnings.append("\(path): \(error): what can be read is read, row by row") }
        let records = try readAll()
        let found = Dictionary(records.map { ($0.key, $0.fields) }, uniquingKeysWith: { first, _ in first })
        salvaged = found
        return found
    }

    public func loadAll() throws -> [Record] { try readAll() }

    /// Each change is merged into the record as the file holds it at the time of the write,
    /// read inside the write's transaction: another process's writes to the record's other
    /// fields since this store opened stay. A stored record that cannot be read is not
    /// overwritten: the write fails naming it, and nothing is changed.
    /// The received times go in the same transaction, into `normcache_received` (made by
    /// the first write that has some); a record removed takes its times with it.
    public func write(merging changes: [RecordChange], removing: [String]) throws {
        guard let upsert, let delete else { throw readOnlyError() }
        try checkIntegrity()
        let madeReceived = upsertReceived == nil && changes.contains { $0.received != nil }
        do {
            try transaction {
                if madeReceived {
                    try database.execute(Self.receivedSchema)
                    try prepareReceived()
                }
                for key in removing {
                    delete.bind(1, key)
                    try delete.run()
                    if let deleteReceived {
                        deleteReceived.bind(1, key)
                        try deleteReceived.run()
                    }
                }
                for change in changes {
                    if change.changesRecord {
                        let fields = change.merged(into: try load([change.key]).first?.fields)
                        upsert.bind(1, change.key)
                        JSON.utf8(.object(fields), references: .apollo, escapeSlash: true).withUnsafeBufferPointer { upsert.bind(2, utf8: $0) }
                        try upsert.run()
                    }
                    if let times = change.received, let upsertReceived {
                        upsertReceived.bind(1, change.key)
                        upsertReceived.bind(2, times)
                        try upsertReceived.run()
                    }
                }
            }
        } catch {
            // The table went with the rolled-back transaction.
            if madeReceived { (selectReceived, upsertReceived, deleteReceived) = (nil, nil, nil) }
            throw error
        }
    }

    /// Prepares the statements of the received-times table (the writing ones read-write only).
    private func prepareReceived() throws(StoreError) {
        selectReceived = try database.prepare(#"SELECT received FROM "normcache_received" WHERE key = ?"#)
        guard mode == .readWrite else { return }
        upsertReceived = try database.prepare(#"INSERT INTO "normcache_received" (key, received) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET received = excluded.received"#)
        deleteReceived = try database.prepare(#"DELETE FROM "normcache_received" WHERE key = ?"#)
    }

    /// Whether the file has `normcache_received` (made by the first write with times).
    public var keepsReceivedTimes: Bool { selectReceived != nil }

    /// The times kept in `normcache_received`, looked up by key, or for as many keys as
    /// a load would scan the records for (``scans(_:)``), found by one scan of the table;
    /// none in a file without the table. A read-only store skips what it cannot read, with
    /// a warning.
    public func receivedTimes(of keys: [String]) throws -> [String: String] {
        guard let selectReceived, !keys.isEmpty else { return [:] }
        var found: [String: String] = [:]
        do {
            try database.reading {
                if scans(keys.count) {
                    let wanted = Set(keys)
                    let all = try database.prepare(#"SELECT key, received FROM "normcache_received""#)
                    while try all.step() {
                        if let key = all.text(0), wanted.contains(key), let times = all.text(1) { found[key] = times }
                    }
                    return
                }
                for key in keys {
                    defer { selectReceived.reset() }
                    selectReceived.bind(1, key)
                    if try selectReceived.step(), let times = selectReceived.text(0) { found[key] = times }
                }
            }
        } catch {
            guard mode == .readOnly else { throw error }
            warnings.append("\(path): the received times cannot all be read (\(error)): the ages of the records left are unknown")
        }
        return found
    }

    /// Removes every record and leaves no trace of them in the file or its WAL:
    /// `secure_delete` zeroes freed pages, VACUUM shrinks the file, and a truncating
    /// checkpoint empties the WAL.
    /// Another process reading the file keeps the WAL from being emptied; then nothing is
    /// cleared and the error names the reader.
    public func clear() throws {
        guard mode == .readWrite else { throw readOnlyError() }
        try checkIntegrity()
        try emptyWAL(then: "nothing was cleared")
        try transaction {
            try database.execute(#"DELETE FROM "records""#)
            if selectReceived != nil { try database.execute(#"DELETE FROM "normcache_received""#) }
        }
        try database.execute("VACUUM")
        try emptyWAL(then: "the records are deleted, but their old pages stay in its -wal file until that reader is done")
    }

    /// Copies the WAL into the file and truncates it; throws when a reader blocks that.
    private func emptyWAL(then consequence: String) throws(StoreError) {
        let checkpoint = try database.prepare("PRAGMA wal_checkpoint(TRUNCATE)")
        guard try checkpoint.step(), checkpoint.integer(0) != 0 else { return }
        checkpoint.reset()
        throw StoreError(path: path, message: "is being read by \(LockHolders.naming(path)), "
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
    /// leave them writing to files that no one could open again, their changes lost. Linux
    /// and macOS tell; iOS shows an app no other process, so there nothing is refused (only
    /// the app's own extensions, sharing an app group's container, could have it open).
    ///
    /// ```swift
    /// try SQLiteStore.checkNotOpenElsewhere("/tmp/alice.sqlite")
    /// // StoreError: /tmp/alice.sqlite: is open in process 4242 (normcache): nothing was deleted; …
    /// ```
    public static func checkNotOpenElsewhere(_ path: String) throws(StoreError) {
        guard let others = LockHolders.of(path), !others.isEmpty else { return }
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
