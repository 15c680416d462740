/// Loading records again after another process changed them in the store
/// (``NormalizedCache/reload(_:file:)``), the lock held.
extension EngineState {
    /// The ids of the records among `keys` that the cache has read (loaded, whether the
    /// store held them then or not), by key; every key, interned, when every record is
    /// loaded (then a record new in the store must be loaded too).
    func readRecords(among keys: [String]) throws(CacheError) -> [String: UInt32] {
        guard records.store != nil else { return [:] }
        var read: [String: UInt32] = [:]
        for key in keys {
            if records.loaded.all {
                read[key] = try self.keys.recordID(key)
            } else if let id = self.keys.recordKeys.find(key)?.rawValue, records.loaded.contains(id) {
                read[key] = id
            }
        }
        return read
    }

    /// What `rows` changed, none of which the cache has read (`read` has none of them or some).
    func unread(_ rows: ChangedRows, read: [String: UInt32]) -> ExternalChange {
        let added = Set(rows.added)
        var change = ExternalChange()
        change.changed = (rows.added + rows.changed).sorted().filter { read[$0] == nil }.map {
            ExternalChange.Record(key: $0, isNew: added.contains($0), wasRead: false, fields: [])
        }
        change.removed = rows.removed.filter { read[$0] == nil }
        return change
    }

    /// Reloads the records of `rows` that the cache has read (`read`): each takes the
    /// fields its row holds now, or goes with its row. The commit in progress notes every
    /// change; what it returns names them.
    func reload(_ rows: ChangedRows, read: [String: UInt32]) throws(CacheError) -> ExternalChange {
        let (stored, unreadable) = try readAgain(read.sorted { $0.key < $1.key }.map(\.value))
        var change = unread(rows, read: read)
        change.unreadable = unreadable.map { ExternalChange.Unreadable(key: self.keys.recordKey($0.id), problem: $0.problem) }
        let skipped = Set(unreadable.map(\.id)), added = Set(rows.added)
        var removed: [String] = []
        for (key, id) in read.sorted(by: { $0.key < $1.key }) where !skipped.contains(id) {
            if let fields = stored[id] {
                let changes = replaceFields(id, with: fields)
                if !changes.isEmpty { change.changed.append(ExternalChange.Record(key: key, isNew: added.contains(key), wasRead: true, fields: changes)) }
            } else if records.base.exists(id) {
                records.removeRecord(id, log: &log)
                removed.append(key)
            }
        }
        change.changed.sort { $0.key < $1.key }
        change.removed = (change.removed + removed).sorted()
        return change
    }

    /// Records `ids` as the store holds them now (one it does not hold is left out). A row
    /// whose text does not read as a record is named in `unreadable`, with the problem, and
    /// the others are read on without it.
    func readAgain(_ ids: [UInt32]) throws(CacheError) -> (stored: [UInt32: StoredRecord], unreadable: [(id: UInt32, problem: String)]) {
        guard let store = records.store else { return ([:], []) }
        var stored: [UInt32: StoredRecord] = [:]
        var unreadable: [(id: UInt32, problem: String)] = []
        var pending = ids
        while !pending.isEmpty {
            let batch = LoadingBatch(state: self, ids: pending) { stored[$0] = $1 }
            do {
                try store.load(batch)
                break
            } catch {
                guard let bad = batch.unreadable else { throw error as? CacheError ?? .storage("\(error)") }
                unreadable.append((bad, (error as? StoreError)?.message ?? "\(error)"))
                pending = pending.filter { $0 != bad && batch.isPending($0) }
            }
        }
        return (stored, unreadable)
    }

    /// Gives record `id` the fields of `fields` in the base table: fields changed or new
    /// are set, fields it no longer has removed, each noted in the commit in progress and
    /// received now. Returns each change, in the row's field order, then the fields gone.
    private func replaceFields(_ id: UInt32, with fields: StoredRecord) -> [FieldChange] {
        guard let old = records.base[id] else {
            let changes = zip(fields.fieldIDs, fields.values).map { FieldChange(field: keys.fieldKey($0), old: nil, new: keys.cacheValue($1)) }
            if !fields.isEmpty { records.setFields(id, fields, layer: nil, log: &log) }
            return changes
        }
        var changes: [FieldChange] = []
        var set: [(UInt32, StoredValue?)] = []
        for (field, value) in zip(fields.fieldIDs, fields.values) {
            let before = old.value(of: field)
            // What the app wrote again another way (members in another order, 77.0 for 77) is no change.
            if let before, before == value || keys.cacheValue(before).readsTheSame(as: keys.cacheValue(value)) { continue }
            set.append((field, value))
            changes.append(FieldChange(field: keys.fieldKey(field), old: before.map(keys.cacheValue), new: keys.cacheValue(value)))
        }
        let kept = Set(fields.fieldIDs)
        for (field, value) in zip(old.fieldIDs, old.values) where !kept.contains(field) {
            set.append((field, nil))
            changes.append(FieldChange(field: keys.fieldKey(field), old: keys.cacheValue(value), new: nil))
        }
        records.setFields(id, set, log: &log)
        let written = set.compactMap { $0.1 == nil ? nil : $0.0 }
        if !written.isEmpty { log.received.append((id, written)) }
        return changes
    }
}
