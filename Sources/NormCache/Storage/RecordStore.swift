/// One record as stored: its key and its fields, keyed by field key, with references
/// to other records as ``CacheValue/reference(_:)``.
///
/// ```swift
/// let luke = Record(key: "Human:1000", fields: CacheObject(["__typename": "Human", "name": "Luke"]))
/// ```
public struct Record: Equatable, Sendable {
    public let key: String
    public var fields: CacheObject

    public init(key: String, fields: CacheObject) {
        self.key = key
        self.fields = fields
    }
}

/// What one commit changed of one stored record: the fields it set, with their values,
/// the fields it removed, and when its fields were received. A store merges the fields
/// into the record it holds (creating the record when it holds none), so that fields
/// another process wrote in the meantime stay. A change with received times and no fields
/// set or removed only says that the record was received again: the record is left as it is.
///
/// ```swift
/// RecordChange(key: "Trip:1", fields: ["name": "Porto"], removedFields: ["seats"])
/// ```
public struct RecordChange: Equatable, Sendable {
    public let key: String
    /// The fields set, with their new values.
    public var fields: CacheObject
    /// The fields removed.
    public var removedFields: [String]
    /// When the record's fields were received, as the engine keeps it (a JSON object,
    /// docs/persistence.md), to keep beside the record in the same transaction and hand
    /// back with ``RecordStore/receivedTimes(of:)``, replacing what was kept; nil: unchanged.
    /// A store that keeps no times ignores it: its records open with unknown ages.
    public var received: String?

    public init(key: String, fields: CacheObject, removedFields: [String] = [], received: String? = nil) {
        self.key = key
        self.fields = fields
        self.removedFields = removedFields
        self.received = received
    }

    /// Whether the change is to be merged into the record: it is not only a record received again.
    var changesRecord: Bool { !fields.isEmpty || !removedFields.isEmpty || received == nil }

    /// The fields of the record `stored` (nil: none yet) once this change is merged in: its
    /// fields in their order, each changed or removed as the change says, then the new ones.
    /// One pass over each, however wide the record.
    func merged(into stored: CacheObject?) -> CacheObject {
        guard let stored, !stored.isEmpty else { return fields }
        let removed = Set(removedFields)
        var changed = Dictionary(fields.members.map { ($0, $1) }, uniquingKeysWith: { $1 })
        var merged = CacheObject(capacity: stored.count + fields.count)
        for (field, value) in stored.members where !removed.contains(field) {
            merged.appendNew(field, changed.removeValue(forKey: field) ?? value)
        }
        for (field, value) in fields.members where changed[field] != nil { merged.appendNew(field, value) }
        return merged
    }
}

/// Where records persist behind the engine. The engine opens over a store without
/// reading it, loads each record by key (``load(_:)``) the first time a read or a write
/// reaches it, every record (``loadAll()``) only for what needs them all, and the keys
/// alone (``keys()``) for listing them. It writes through: after each commit it hands the
/// store the fields it changed of each record, when the records it wrote were received,
/// and the keys of the records it removed, in one ``write(merging:removing:)``. (Apollo
/// iOS rewrites changed records whole; merging field by field is what keeps two processes
/// writing one file from losing each other's writes.) The received times of the records
/// it loads it asks for apart (``receivedTimes(of:)``).
///
/// Implementations: ``InMemoryStore``, and ``SQLiteStore`` in Apollo iOS's file format.
///
/// ```swift
/// let store = InMemoryStore()
/// let cache = try NormalizedCache(store: store)   // reads nothing yet
/// try cache.write(data: ["hero": ["__typename": "Droid", "id": "2001"]], for: op)
/// try store.load(["Droid:2001"])                   // written through
/// ```
public protocol RecordStore: AnyObject {
    /// Every key the store holds.
    func keys() throws -> [String]
    /// Hands `batch` the records of its keys that the store holds, one at a time as it
    /// reads them (so a big batch is never held whole): for each record it meets, the
    /// store asks ``RecordBatch/wants(key:)`` with the key's bytes, and hands over the
    /// fields of a wanted one right after, before it asks about another. What `batch`
    /// throws ends the load and is rethrown (a ``RecordText/Problem`` or a ``JSONError``
    /// is the record's text, which the store names the record in).
    func load(_ batch: RecordBatch) throws
    /// Every record the store holds, for what needs them all (gc, extract, clear).
    func loadAll() throws -> [Record]
    /// One commit, all or none: removes the records keyed `removing` (with their received
    /// times), then merges each change into its record (fields set or removed; a record it
    /// does not hold is created) and keeps its ``RecordChange/received`` times.
    func write(merging changes: [RecordChange], removing: [String]) throws
    /// Removes every record.
    func clear() throws
    /// The received times kept of the records keyed `keys` (``RecordChange/received``), by
    /// key; a record without is left out (its age is unknown). By default none: a store
    /// that keeps no times opens with every age unknown.
    func receivedTimes(of keys: [String]) throws -> [String: String]
    /// Whether the store may hold received times (a file with normcache's table): if not,
    /// a read over it need not judge ages until some are written. By default false.
    var keepsReceivedTimes: Bool { get }
}

/// Records that the engine asks a store for (``RecordStore/load(_:)``), and where the store
/// hands them over. A store that looks records up asks for ``keys``; a store that scans
/// asks ``wants(key:)`` of each row's key bytes, so that no key is made a `String`, and
/// the fields of a row as stored (Apollo iOS's record text) go to the batch unparsed.
///
/// ```swift
/// for key in batch.keys {                       // a store of parsed records, by key
///     if let fields = records[key], batch.wants(key) { try batch.take(fields: fields) }
/// }
/// ```
public protocol RecordBatch: AnyObject {
    /// The keys of the records wanted, for a store that looks each up.
    var keys: [String] { get }
    /// How many records are wanted.
    var count: Int { get }
    /// Whether every record wanted has been handed over: a scan can stop.
    var isComplete: Bool { get }
    /// Whether the record keyed by these UTF-8 bytes is wanted and not handed over yet;
    /// yes makes it the one the next ``take(text:)`` or ``take(fields:)`` hands over.
    func wants(key: UnsafeRawBufferPointer) -> Bool
    /// Hands over the record last wanted as Apollo iOS stores it (``RecordText``; `nil`: NULL).
    func take(text: UnsafeBufferPointer<UInt8>?) throws
    /// Hands over the record last wanted as fields.
    func take(fields: CacheObject) throws
}

extension RecordBatch {
    /// ``wants(key:)`` for a key given as a `String`.
    public func wants(_ key: String) -> Bool {
        var key = key
        return key.withUTF8 { wants(key: UnsafeRawBufferPointer($0)) }
    }
}

extension RecordStore {
    /// The records with these keys, together; keys the store does not hold are left out.
    public func load(_ keys: [String]) throws -> [Record] {
        let batch = CollectedRecords(keys)
        try load(batch)
        return batch.records
    }

    public func loadAll() throws -> [Record] { try load(try keys()) }

    public func receivedTimes(of keys: [String]) throws -> [String: String] { [:] }

    public var keepsReceivedTimes: Bool { false }
}

/// A ``RecordBatch`` that keeps what it is handed as ``Record``s: ``RecordStore/load(_:)-([String])``.
private final class CollectedRecords: RecordBatch {
    let keys: [String]
    private var pending: Set<String>
    private var current = ""
    private(set) var records: [Record] = []

    init(_ keys: [String]) {
        self.keys = keys
        pending = Set(keys)
    }

    var count: Int { keys.count }
    var isComplete: Bool { pending.isEmpty }

    func wants(key: UnsafeRawBufferPointer) -> Bool {
        let key = String(decoding: key, as: UTF8.self)
        guard pending.contains(key) else { return false }
        current = key
        return true
    }

    func take(text: UnsafeBufferPointer<UInt8>?) throws { try take(fields: RecordText.fields(of: text)) }

    func take(fields: CacheObject) throws {
        pending.remove(current)
        records.append(Record(key: current, fields: fields))
    }
}

/// A ``RecordStore`` that keeps records in a dictionary: the store of a session
/// without a cache file, and a reference for what other stores must do.
///
/// ```swift
/// let store = InMemoryStore()
/// try store.write(merging: [RecordChange(key: "QUERY_ROOT", fields: ["hero": .reference("Droid:2001")])], removing: [])
/// try store.keys()   // ["QUERY_ROOT"]
/// ```
public final class InMemoryStore: RecordStore {
    private var records: [String: CacheObject] = [:]
    private var received: [String: String] = [:]

    public init() {}

    public func keys() -> [String] { records.keys.sorted() }

    public func load(_ keys: [String]) -> [Record] {
        keys.compactMap { key in records[key].map { Record(key: key, fields: $0) } }
    }

    public func load(_ batch: RecordBatch) throws {
        for key in batch.keys {
            if let fields = records[key], batch.wants(key) { try batch.take(fields: fields) }
        }
    }

    public func write(merging changes: [RecordChange], removing: [String]) {
        for key in removing { (records[key], received[key]) = (nil, nil) }
        for change in changes {
            if change.changesRecord { records[change.key] = change.merged(into: records[change.key]) }
            if let times = change.received { received[change.key] = times }
        }
    }

    public func clear() {
        records.removeAll()
        received.removeAll()
    }

    public var keepsReceivedTimes: Bool { true }

    public func receivedTimes(of keys: [String]) -> [String: String] {
        var found: [String: String] = [:]
        for key in keys { if let times = received[key] { found[key] = times } }
        return found
    }
}
