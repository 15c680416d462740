/// Reading: operations out of the records, and the records themselves for inspection.
extension NormalizedCache {
    /// Reads `operation` from the cache, with the knowledge of the endpoint it runs
    /// against (`schema`). Incomplete reads have `data == nil` unless `partial` is true.
    public func read(_ operation: CompiledOperation, variables: CacheObject = CacheObject(), schema: SchemaKnowledge? = nil,
                     partial: Bool = false) throws(CacheError) -> ReadResult {
        try lockedThrowing { () throws(CacheError) in
            let result = try state.withSchema(schema) { () throws(CacheError) in
                try Reader.read(operation, variables: try coerced(variables, for: operation), partial: partial, state: state)
            }
            if result.complete { state.hits += 1 } else { state.misses += 1 }
            return result
        }
    }

    /// What the cache holds of `operation` whether or not it is whole, as Apollo Client's
    /// `returnPartialData` and Apollo Kotlin's partial cache reads answer: the data with a
    /// null in each field the cache misses, ``ReadResult/missing`` naming them, and
    /// ``ReadResult/errors`` one GraphQL-style error each at its response path
    /// (`{"message":"Object 'Trip:1' has no field named 'name'","path":["trips",0,"name"]}`).
    /// A read that finds everything is the same as ``read(_:variables:schema:partial:)``'s.
    /// It is not counted among the reads that hit or missed (``CacheStatistics``): it
    /// follows a read that was.
    ///
    /// ```swift
    /// let result = try cache.readPartialData(tripList)
    /// result.data        // {"trips":[{"id":"1","name":null}]}
    /// result.missing     // ["Trip:1.name"]
    /// ```
    public func readPartialData(_ operation: CompiledOperation, variables: CacheObject = CacheObject(),
                                schema: SchemaKnowledge? = nil) throws(CacheError) -> ReadResult {
        try lockedThrowing { () throws(CacheError) in
            let result = try state.withSchema(schema) { () throws(CacheError) in
                try Reader.readFillingHoles(operation, variables: try coerced(variables, for: operation), state: state)
            }
            return result
        }
    }

    /// A record's fields, keyed by field key (references as `.reference`), layers applied;
    /// `nil` if there is no such record, or the store cannot read it (``inspect(_:)``
    /// says why).
    public func record(_ key: String) -> CacheObject? {
        (try? inspect(key)) ?? nil
    }

    /// A record's fields as ``record(_:)`` gives them, loaded from the store if they are not
    /// yet; throws, naming the record, when the store cannot read it (a broken row).
    ///
    /// ```swift
    /// try cache.inspect("Trip:1")   // ["__typename": "Trip", "id": "1", "name": "Lisbon"]
    /// ```
    package func inspect(_ key: String) throws(CacheError) -> CacheObject? {
        try inspect([key])[0]
    }

    /// The records of `keys`, each as ``inspect(_:)`` gives it (nil: no such record), those
    /// not loaded yet loaded from the store in one batch: what reads many records, a
    /// `.diff` of two caches, costs one read of the store instead of one a record.
    ///
    /// ```swift
    /// try cache.inspect(["Trip:1", "Trip:9"])   // [["__typename": "Trip", "id": "1", …], nil]
    /// ```
    package func inspect(_ keys: [String]) throws(CacheError) -> [CacheObject?] {
        try lockedThrowing { () throws(CacheError) in
            var ids: [UInt32?] = []
            ids.reserveCapacity(keys.count)
            for key in keys { ids.append(state.records.loaded.all ? state.keys.recordKeys.find(key)?.rawValue : try state.keys.recordID(key)) }
            try state.load(ids.lazy.compactMap { $0 })
            return ids.map { id in
                guard let id, state.records.recordExists(id) else { return nil }
                return state.records.visibleObject(id, keys: state.keys)
            }
        }
    }

    /// Every record key, sorted; with `pattern`, only the keys that match that glob
    /// (`*` any run, `?` one character), e.g. `Trip:*`.
    public func keys(matching pattern: String? = nil) -> [String] {
        // Filter first, then sort only the matches.
        let keys = unsortedKeys()
        return (pattern.map { pattern in keys.filter { Glob.matches(pattern, $0) } } ?? keys).sorted()
    }

    /// Every record key, in no order: the keys of records not loaded yet come from the
    /// store, without their records.
    func unsortedKeys() -> [String] {
        locked { allRecordIDs(sorted: false, loading: false).map(state.keys.recordKey) + state.unloadedStoredKeys() }
    }

    /// Keys of the records that reference `key`.
    package func referrers(of key: String) -> [String] {
        locked {
            let ids = allRecordIDs()   // every record loaded, and with them every key a reference names
            guard let target = state.keys.recordKeys.find(key)?.rawValue else { return [] }
            return ids.compactMap { id -> String? in
                var refers = false
                for (_, value) in state.records.visibleFields(id) { state.keys.forEachReference(in: value) { refers = refers || $0 == target } }
                return refers ? state.keys.recordKey(id) : nil
            }.sorted()
        }
    }


    /// How many records are visible; cheaper than ``statistics``, which measures them all
    /// (it counts the keys of records not loaded yet, as ``keys(matching:)`` lists them).
    package var recordCount: Int { locked { allRecordIDs(sorted: false, loading: false).count + state.unloadedStoredKeys().count } }

    /// How much the cache holds, and how many reads hit or missed.
    package var statistics: CacheStatistics {
        locked {
            let ids = allRecordIDs()
            var fields = 0, bytes = 0
            for id in ids {
                let record = state.records.visibleObject(id, keys: state.keys)
                fields += record.count
                bytes += state.keys.recordKey(id).utf8.count + JSON.string(.object(record), references: .apollo).utf8.count
            }
            return CacheStatistics(records: ids.count, fields: fields, watchers: state.watchers.count, layers: state.records.layers.count,
                                   bytes: bytes, hits: state.hits, misses: state.misses,
                                   recordKeys: state.keys.recordKeys.liveCount, fieldKeys: state.keys.fieldKeys.liveCount,
                                   historyChanges: state.history.count, historyBytes: state.history.bytes)
        }
    }

    /// The ids of the records visible (layers applied), in id order unless `sorted` is
    /// false; every record loaded first unless `loading` is false (then the loaded ones).
    func allRecordIDs(sorted: Bool = true, loading: Bool = true) -> [UInt32] {
        if loading { state.loadAllOrWarn() }
        var ids = Set(state.records.base.ids)
        for layer in state.records.layers { ids.formUnion(layer.table.ids) }
        return sorted ? ids.sorted() : Array(ids)
    }
}
