/// Removing dangling references, as Apollo Kotlin's normalized cache does
/// (`removeDanglingReferences`): a reference to a record the cache no longer has goes, and
/// so do the records left empty by that, and the references to them, until none is left.
/// docs/engine.md, "Dangling references", says where we differ from Apollo Kotlin.
extension NormalizedCache {
    /// Removes every reference in the base records to a record that no longer exists:
    /// a field holding one goes, a list (at any depth of lists) drops those items and keeps
    /// the rest (an empty list stays `[]`). A record left with no field, or only its
    /// `__typename`, goes too, which leaves the references to it dangling in turn; that
    /// repeats until nothing changes. The roots (`QUERY_ROOT`, `MUTATION_ROOT`,
    /// `SUBSCRIPTION_ROOT`) are never removed: one left without fields is kept as an
    /// evicted one is (``RootState``). A record an optimistic layer holds exists; the
    /// layers themselves are left as they are.
    ///
    /// One commit with cause `gc`: the store and the watchers hear it, the record history
    /// keeps it. Then, as after ``gc(retaining:)``, the interned keys nothing names any
    /// more go back to the key interner (KeyRelease.swift).
    ///
    /// ```swift
    /// try cache.evict("User:0")
    /// try cache.removeDanglingReferences()   // fields: ["Repository:0.stargazers"], records: []
    /// ```
    @discardableResult
    public func removeDanglingReferences() throws(CacheError) -> RemovedReferences {
        let removed = try commit(cause: .gc, origin: .command("gc dangling", target: nil)) { () throws(CacheError) in
            try state.loadAll()
            return state.removeDanglingReferences()
        }
        locked { state.releaseUnnamedRecordKeys() }
        return removed
    }
}

extension EngineState {
    /// The commit's body of ``NormalizedCache/removeDanglingReferences()``, every record loaded.
    /// A pass over the base records removes what dangles; another follows only when a
    /// record was removed, since only a removed record leaves new references dangling.
    fileprivate func removeDanglingReferences() -> RemovedReferences {
        let roots = Set(CompiledOperation.Kind.allRootKeys.compactMap { keys.recordKeys.find($0)?.rawValue })
        // An emptied root still exists: Apollo Client keeps it as its `__typename`.
        let exists = { (record: UInt32) in self.records.recordExists(record) || self.records.roots.emptied.contains(record) }
        let keyExists = { (key: String) in self.keys.recordKeys.find(key).map { exists($0.rawValue) } ?? false }
        var fields = Set<RecordField>()
        var removed: [UInt32] = []
        var removedInPass: Bool
        repeat {
            removedInPass = false
            for record in records.base.ids {
                let stored = records.base[record]!
                var changes: [(UInt32, StoredValue?)] = []
                for (field, value) in zip(stored.fieldIDs, stored.values) {
                    let kept = value.withoutDangling(exists, keyExists)
                    if kept != value { changes.append((field, kept)) }
                }
                guard !changes.isEmpty else { continue }
                records.setFields(record, changes, log: &log)
                for (field, _) in changes { fields.insert(RecordField(record: record, field: field)) }
                if roots.contains(record) {
                    records.keepEmptiedRoot(record, log: &log)
                } else if records.base[record].map({ $0.fieldIDs == [keys.typenameField] }) ?? true {
                    records.removeRecord(record, log: &log)
                    removed.append(record)
                    removedInPass = true
                }
            }
        } while removedInPass
        return RemovedReferences(fields: fields.map(keys.name).sorted(), records: removed.map(keys.recordKey).sorted())
    }
}

extension StoredValue {
    /// The value without its references to records `exists` denies: nil for such a
    /// reference (the field holding it goes), a list without such items, at any depth of
    /// lists (an inner list that loses every item stays, empty). References kept inline
    /// (a merged list's, by key, which `keyExists` judges) go the same way.
    fileprivate func withoutDangling(_ exists: (UInt32) -> Bool, _ keyExists: (String) -> Bool) -> StoredValue? {
        switch self {
        case .value(let value): value.withoutDangling(keyExists).map(StoredValue.value)
        case .reference(let record): exists(record) ? self : nil
        case .list(let items): .list(of: items.compactMap { $0.withoutDangling(exists, keyExists) })
        }
    }
}

extension CacheValue {
    /// The value without its references to records `exists` denies: nil for such a
    /// reference, a list without such items, and without the objects in it that hold one
    /// as a member (an edge whose node is gone goes whole), an object without such members.
    fileprivate func withoutDangling(_ exists: (String) -> Bool) -> CacheValue? {
        switch self {
        case .reference(let key):
            return exists(key) ? self : nil
        case .list(let items):
            return .list(items.compactMap { item -> CacheValue? in
                if case .object(let object) = item, object.values.contains(where: { $0.referenceKey.map { !exists($0) } ?? false }) { return nil }
                return item.withoutDangling(exists)
            })
        case .object(let object):
            var kept = CacheObject(capacity: object.count)
            for (key, value) in object.members { if let value = value.withoutDangling(exists) { kept.appendNew(key, value) } }
            return .object(kept)
        default:
            return self
        }
    }
}
