import Foundation

/// Freshness: the max ages set on the cache itself, how long a stale field is still read,
/// what each field's age is, and removing stale fields (docs/engine.md, "Freshness").
extension NormalizedCache {
    /// Max ages set on the cache (the workbench's `.maxage`): each coordinate's rule here
    /// takes the place of the endpoint schema's for the same coordinate (`@cacheControl`),
    /// and a default here of the schema's none.
    ///
    /// ```swift
    /// cache.maxAges["Trip.rating"] = .seconds(30)
    /// cache.maxAges.defaultMaxAge = 3600
    /// ```
    public var maxAges: MaxAges {
        get { locked { state.maxAges } }
        set { locked { state.maxAges = newValue } }
    }

    /// How many seconds past its max age a field is still read, as stale (Apollo Kotlin's
    /// `maxStale`); 0 by default: a stale field is a miss. Not negative.
    public var maxStale: Double {
        get { locked { state.maxStale } }
        set {
            precondition(newValue >= 0 && !newValue.isNaN, "max stale is 0 seconds or more")
            locked { state.maxStale = newValue }
        }
    }

    /// One field's age, as `.inspect` shows it.
    public struct FieldAge: Sendable, Equatable {
        /// The field key (`name`, `trip(id:2)`).
        public let field: String
        /// When it was last written (by the cache's clock); nil when unknown (a file written
        /// by Apollo iOS).
        public let received: Date?
        /// Its max age as far as the record alone tells (the field's rule, its type's, the
        /// default, and its response's `Cache-Control`), in seconds; nil: never stale. A
        /// rule that inherits its parent's counts as none here: a read along a path knows more.
        public let maxAge: Double?
        /// Whether it is as old as that max age or older.
        public let stale: Bool

        package init(field: String, received: Date?, maxAge: Double?, stale: Bool) {
            self.field = field
            self.received = received
            self.maxAge = maxAge
            self.stale = stale
        }
    }

    /// The age of each field of record `key`, in the record's field order, judged with
    /// `schema`'s max ages under the cache's own. Nil when there is no such record.
    public func ages(of key: String, schema: SchemaKnowledge? = nil) throws(CacheError) -> [FieldAge]? {
        try lockedThrowing { () throws(CacheError) in
            try state.withSchema(schema) { () throws(CacheError) in
                // A record not loaded yet may be in the store: its key is interned, as a read's.
                guard let id = state.records.loaded.all ? state.keys.recordKeys.find(key)?.rawValue : try state.keys.recordID(key) else { return nil }
                try state.load(id)
                guard state.records.base[id] != nil else { return nil }
                let judge = FieldAges(state)
                return state.records.base[id]!.fieldIDs.map { field in
                    let (received, maxAge, verdict) = judge.age(RecordField(record: id, field: field))
                    return FieldAge(field: state.keys.fieldKey(field), received: received.map { Date(timeIntervalSince1970: $0.at) },
                                    maxAge: maxAge, stale: verdict != nil)
                }
            }
        }
    }

    /// Removes every stale field, judged as ``ages(of:schema:)`` judges them (a field whose
    /// max age is inherited only along a path is never removed), then records left empty
    /// (a root is kept, emptied). One commit; returns the record-field keys removed.
    @discardableResult
    public func removeStaleFields(schema: SchemaKnowledge? = nil) throws(CacheError) -> [String] {
        try commit(cause: .gc, origin: .command("gc stale", target: nil)) { () throws(CacheError) in
            try state.withSchema(schema) { () throws(CacheError) in
                try state.loadAll()
                let judge = FieldAges(state)
                var removed: [RecordField] = []
                for id in state.records.base.ids {
                    let stale = Set(state.records.base[id]!.fieldIDs.filter { judge.age(RecordField(record: id, field: $0)).verdict != nil })
                    guard !stale.isEmpty else { continue }
                    removed += stale.map { RecordField(record: id, field: $0) }
                    state.records.removeFields(id, log: &state.log, where: stale.contains)
                    if CompiledOperation.Kind.allRootKeys.contains(state.keys.recordKey(id)) {
                        state.records.keepEmptiedRoot(id, log: &state.log)
                    } else if state.records.base[id] == nil {
                        state.records.removeRecord(id, log: &state.log)
                    }
                }
                return removed.map(state.keys.name).sorted()
            }
        }
    }
}
