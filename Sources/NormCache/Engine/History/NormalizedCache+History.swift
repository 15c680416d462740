/// The record history (``RecordHistory``): each record's last changes, asked for by
/// the workbench's `.history KEY[.FIELD] [N]`.
extension NormalizedCache {
    /// The last `count` changes of record `key` (of its field `field` alone, when given:
    /// a field name without arguments takes its argument variants too, as
    /// ``evict(_:field:)`` does), oldest first; a record's creation is one change of each
    /// of its fields. Nil when the cache never held `key` (or, given, the field).
    package func history(of key: String, field: String? = nil, last count: Int = 20) -> [HistoryChange]? {
        locked {
            guard let record = state.keys.recordKeys.find(key)?.rawValue else { return nil }
            let entries = state.history.entries(of: record)
            var changes: [HistoryChange] = []
            for (index, entry) in entries.enumerated() {
                let stamp = entry.stamp
                func add(_ id: UInt32, _ old: StoredValue?, _ new: StoredValue?) {
                    let name = state.keys.fieldKey(id)
                    if let field, !Self.field(field, names: name) { return }
                    changes.append(HistoryChange(commit: stamp.number, at: stamp.at, cause: stamp.cause, origin: stamp.origin?.description,
                                                 field: name, old: old.map(state.keys.cacheValue), new: new.map(state.keys.cacheValue)))
                }
                switch entry.change {
                case .field(let id, let old, let new): add(id, old, new)
                case .created(let ids): for id in ids { add(id, nil, createdValue(record, id, after: entries[(index + 1)...])) }
                }
            }
            // A field the cache never met: unless a bare name matched argument variants.
            if let field, changes.isEmpty, state.keys.fieldKeys.find(field) == nil { return nil }
            return Array(changes.suffix(max(count, 0)))
        }
    }

    /// How many changes each record's history keeps (100 by default; 0 keeps none and
    /// costs commits nothing). Lowering it drops the oldest changes beyond it at once.
    package var historyLimit: Int {
        get { locked { state.history.limit } }
        set { locked { state.history.limit = max(newValue, 0) } }
    }

    /// The value a record new to the cache had in `field`: the old value of the field's
    /// next kept change (`later`: the changes after its creation, oldest first), or, with
    /// none, its value now (the lock held).
    private func createdValue(_ record: UInt32, _ field: UInt32, after later: ArraySlice<RecordHistory.Entry>) -> StoredValue? {
        for entry in later {
            if case .field(field, let old, _) = entry.change { return old }
        }
        try? state.load(record)
        return state.records.value(record, field)
    }
}
