/// Removing data: evict a record or a field, remove by key pattern, clear, collect
/// garbage, invalidate. Each notifies the watchers it affects (Apollo iOS notifies
/// nobody when records go; normcache does).
extension NormalizedCache {
    /// Removes a record (`Trip:2`) or one field of it (`Trip:2.name`; a field name
    /// without arguments also removes its argument variants, `trips` → `trips(first:3)`).
    /// Returns the record-field keys removed.
    @discardableResult
    public func evict(_ key: String, field: String? = nil) throws(CacheError) -> [String] {
        try commit(cause: .evict) { () throws(CacheError) in
            let state = engine
            guard let id = state.recordKeys.find(key)?.rawValue, state.base[id] != nil else {
                throw .invalid("no record \"\(key)\"")
            }
            if let field {
                let fields = state.base[id]!.fieldIDs.filter { fid in
                    let name = state.fieldKey(fid)
                    return name == field || (!field.contains("(") && name.hasPrefix(field + "("))
                }
                guard !fields.isEmpty else { throw .invalid("record \"\(key)\" has no field \"\(field)\"") }
                for fid in fields { state.setField(id, fid, nil) }
            } else {
                state.removeRecord(id)
            }
            return state.changes.changedFields.map(state.name).sorted()
        }
    }

    /// Removes every record whose key matches a glob (`*` any run, `?` one character).
    /// Returns the keys removed.
    @discardableResult
    public func remove(matching pattern: String) throws(CacheError) -> [String] {
        try commit(cause: .evict) { () throws(CacheError) in
            let state = engine
            let matches = state.base.ids.filter { Glob.matches(pattern, state.recordKey($0)) }
            for id in matches { state.removeRecord(id) }
            return matches.map(state.recordKey).sorted()
        }
    }

    /// Removes every record and optimistic layer.
    public func clear() throws(CacheError) {
        try commit(cause: .clear) { () throws(CacheError) in
            let state = engine
            for (index, layer) in state.layers.enumerated().reversed() {
                for record in layer.table.ids {
                    for field in layer.table[record]!.fieldIDs { state.changes.fields.append(pack(record, field)) }
                }
                state.undo.append(.layerRemoved(layer, at: index))
            }
            state.layers = []
            for id in state.base.ids { state.removeRecord(id) }
            state.changes.cleared = true
            for pair in state.invalidated { state.undo.append(.invalidation(pair, wasInvalid: true)) }
            state.invalidated = []
        }
    }

    /// Removes the records that no reference chain reaches from the roots
    /// (`QUERY_ROOT`, `MUTATION_ROOT`, `SUBSCRIPTION_ROOT`) or from `retaining`, through
    /// the base records or any optimistic layer.
    /// Returns the keys removed.
    @discardableResult
    public func gc(retaining: [String] = []) throws(CacheError) -> [String] {
        try commit(cause: .gc) { () throws(CacheError) in
            let state = engine
            var reached = Set<UInt32>()
            var queue = (Operation.Kind.allRootKeys + retaining).compactMap { state.recordKeys.find($0)?.rawValue }
            while let id = queue.popLast() {
                guard reached.insert(id).inserted else { continue }
                // The base's references and every layer's: a value a layer hides comes back
                // when the layer goes, and so must the records it references.
                for table in [state.base] + state.layers.map(\.table) {
                    guard let stored = table[id] else { continue }
                    for value in stored.values {
                        value.forEachReference { target in
                            if !reached.contains(target) { queue.append(target) }
                        }
                    }
                }
            }
            let unreachable = state.base.ids.filter { !reached.contains($0) }
            for id in unreachable { state.removeRecord(id) }
            return unreachable.map(state.recordKey).sorted()
        }
    }

    /// Marks a field stale: it still reads, but a read reports it as missing (so a
    /// cache-first fetch goes to the network) until it is written again.
    public func invalidate(_ key: String, field: String) throws(CacheError) {
        try commit(cause: .evict) { () throws(CacheError) in
            let state = engine
            guard let id = state.recordKeys.find(key)?.rawValue, let fid = state.fieldKeys.find(field)?.rawValue,
                state.value(id, fid) != nil
            else { throw .invalid("no field \"\(key).\(field)\"") }
            if state.invalidated.insert(pack(id, fid)).inserted {
                state.undo.append(.invalidation(pack(id, fid), wasInvalid: false))
                state.changes.fields.append(pack(id, fid))
            }
        }
    }

}

extension Operation.Kind {
    static let allRootKeys = [Operation.Kind.query, .mutation, .subscription].map(\.rootKey)
}

/// Shell-style patterns over record keys: `*` matches any run of characters, `?` one.
enum Glob {
    static func matches(_ pattern: String, _ text: String) -> Bool {
        let p = Array(pattern.unicodeScalars), t = Array(text.unicodeScalars)
        var pi = 0, ti = 0, star = -1, mark = 0
        while ti < t.count {
            if pi < p.count, p[pi] == "?" || p[pi] == t[ti] {
                pi += 1
                ti += 1
            } else if pi < p.count, p[pi] == "*" {
                star = pi
                mark = ti
                pi += 1
            } else if star >= 0 {
                pi = star + 1
                mark += 1
                ti = mark
            } else {
                return false
            }
        }
        while pi < p.count, p[pi] == "*" { pi += 1 }
        return pi == p.count
    }
}
