/// Reading: operations out of the records, and the records themselves for inspection.
extension NormalizedCache {
    /// Reads `operation` from the cache, with the knowledge of the endpoint it runs
    /// against (`schema`). Incomplete reads have `data == nil` unless `partial` is true.
    public func read(_ operation: Operation, variables: CacheObject = CacheObject(), schema: SchemaKnowledge? = nil,
                     partial: Bool = false) throws(CacheError) -> ReadResult {
        try lockedThrowing { () throws(CacheError) in
            let result = try state.withSchema(schema) { () throws(CacheError) in
                try Reader.read(operation, variables: try coerced(variables, for: operation), partial: partial, state: state)
            }
            if result.complete { state.hits += 1 } else { state.misses += 1 }
            return result
        }
    }

    /// A record's fields, keyed by field key (references as `.reference`), layers applied;
    /// `nil` if there is no such record.
    public func record(_ key: String) -> CacheObject? {
        locked {
            guard let id = state.recordKeys.find(key), state.recordExists(id.rawValue) else { return nil }
            return state.visibleObject(id.rawValue)
        }
    }

    /// Every record key, sorted; with `pattern`, only the keys that match that glob
    /// (`*` any run, `?` one character), e.g. `Trip:*`.
    public func keys(matching pattern: String? = nil) -> [String] {
        // Filter first, then sort only the matches.
        let keys = locked { allRecordIDs(sorted: false).map(state.recordKey) }
        return (pattern.map { pattern in keys.filter { Glob.matches(pattern, $0) } } ?? keys).sorted()
    }

    /// Keys of the records that reference `key`.
    public func referrers(of key: String) -> [String] {
        locked {
            guard let target = state.recordKeys.find(key)?.rawValue else { return [] }
            return allRecordIDs().compactMap { id -> String? in
                var refers = false
                for (_, value) in state.visibleFields(id) { value.forEachReference { refers = refers || $0 == target } }
                return refers ? state.recordKey(id) : nil
            }.sorted()
        }
    }


    /// How many records are visible; cheaper than ``statistics``, which measures them all.
    public var recordCount: Int { locked { allRecordIDs(sorted: false).count } }

    /// How much the cache holds, and how many reads hit or missed.
    public var statistics: CacheStatistics {
        locked {
            let ids = allRecordIDs()
            var fields = 0, bytes = 0
            for id in ids {
                let record = state.visibleObject(id)
                fields += record.count
                bytes += state.recordKey(id).utf8.count + JSON.string(.object(record), references: .apollo).utf8.count
            }
            return CacheStatistics(records: ids.count, fields: fields, watchers: state.watchers.count, layers: state.layers.count,
                                   bytes: bytes, hits: state.hits, misses: state.misses)
        }
    }

    /// The ids of the records visible (layers applied), in id order unless `sorted` is false.
    func allRecordIDs(sorted: Bool = true) -> [UInt32] {
        var ids = Set(state.base.ids)
        for layer in state.layers { ids.formUnion(layer.table.ids) }
        return sorted ? ids.sorted() : Array(ids)
    }
}
