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

/// Where records persist behind the engine. The engine keeps every record in memory
/// and writes through: after each commit it hands the store every changed record whole
/// (Apollo iOS rewrites changed records whole too) and the keys of the records it
/// removed, in one ``write(merging:removing:)``.
///
/// Implementations: ``InMemoryStore``, and ``SQLiteStore`` in Apollo iOS's file format.
///
/// ```swift
/// let store = InMemoryStore()
/// let cache = try NormalizedCache(store: store)   // loads what the store holds
/// try cache.write(data: ["hero": ["__typename": "Droid", "id": "2001"]], for: op)
/// try store.load(["Droid:2001"])                   // written through
/// ```
public protocol RecordStore: AnyObject {
    /// Every key the store holds.
    func keys() throws -> [String]
    /// The records with these keys; keys it does not hold are left out.
    func load(_ keys: [String]) throws -> [Record]
    /// Every record the store holds, for a cache opening over it.
    func loadAll() throws -> [Record]
    /// One commit: inserts or replaces `records` whole and removes the records keyed
    /// `removing`, all or none.
    func write(merging records: [Record], removing: [String]) throws
    /// Removes every record.
    func clear() throws
}

extension RecordStore {
    public func loadAll() throws -> [Record] { try load(try keys()) }
}

/// A ``RecordStore`` that keeps records in a dictionary: the store of a session
/// without a cache file, and a reference for what other stores must do.
///
/// ```swift
/// let store = InMemoryStore()
/// try store.write(merging: [Record(key: "QUERY_ROOT", fields: ["hero": .reference("Droid:2001")])], removing: [])
/// try store.keys()   // ["QUERY_ROOT"]
/// ```
public final class InMemoryStore: RecordStore {
    private var records: [String: CacheObject] = [:]

    public init() {}

    public func keys() -> [String] { records.keys.sorted() }

    public func load(_ keys: [String]) -> [Record] {
        keys.compactMap { key in records[key].map { Record(key: key, fields: $0) } }
    }

    public func write(merging records: [Record], removing: [String]) {
        for key in removing { self.records[key] = nil }
        for record in records { self.records[record.key] = record.fields }
    }

    public func clear() { records.removeAll() }
}
