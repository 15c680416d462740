/// Garbage collection, as Apollo Client's `cache.gc()`: records no reference chain reaches
/// go, and the watchers that read them hear `gc`.
extension NormalizedCache {
    /// Removes the records that no reference chain reaches from the roots
    /// (`QUERY_ROOT`, `MUTATION_ROOT`, `SUBSCRIPTION_ROOT`), from the records a restored
    /// snapshot retained (Apollo Client's `__META.extraRootIds`, see ``RootState``) or
    /// from `retaining`, through the base records or any optimistic layer.
    /// Returns the keys removed.
    ///
    /// Then, outside a transaction, the interned keys that nothing in the cache names any
    /// more go back to the key interner for new keys to reuse (KeyRelease.swift): a long
    /// session that writes and evicts ever new records stays bounded.
    @discardableResult
    public func gc(retaining: [String] = []) throws(CacheError) -> [String] {
        let removed = try commit(cause: .gc, origin: .command("gc", target: nil)) { () throws(CacheError) in
            try state.loadAll()
            var reached = Set<UInt32>()
            var queue = (CompiledOperation.Kind.allRootKeys + state.records.roots.retained + retaining).compactMap { state.keys.recordKeys.find($0)?.rawValue }
            while let id = queue.popLast() {
                guard reached.insert(id).inserted else { continue }
                // The base's references and every layer's: a value a layer hides comes back
                // when the layer goes, and so must the records it references.
                for table in [state.records.base] + state.records.layers.map(\.table) {
                    guard let stored = table[id] else { continue }
                    for value in stored.values {
                        state.keys.forEachReference(in: value) { target in
                            if !reached.contains(target) { queue.append(target) }
                        }
                    }
                }
            }
            let unreachable = state.records.base.ids.filter { !reached.contains($0) }
            for id in unreachable { state.records.removeRecord(id, log: &state.log) }
            return unreachable.map(state.keys.recordKey).sorted()
        }
        locked { state.releaseUnnamedRecordKeys() }
        return removed
    }
}
