/// What one commit changed: the record-field pairs whose value really changed (a pair
/// changed twice appears twice), what to write through to the store, and the records
/// removed.
struct ChangeSet: Sendable {
    /// What a commit changed of one base record, for the store.
    enum StoreChange: Equatable, Sendable {
        /// The record is new to the base table: every field it has.
        case whole
        /// These fields of a record the base table had, each set or removed.
        case fields(Set<UInt32>)
    }

    /// Pairs that changed one by one.
    var fields: [RecordField] = []
    /// Records new to the base table with the ids of their fields (all of them changed),
    /// as runs of records noted one after another with the same fields (a list's items):
    /// one entry per run rather than one pair per field.
    var newRecords: [(fields: [UInt32], records: [UInt32])] = []
    /// The base records to write through (kept only when the cache has a store): field by
    /// field, so that another process's writes to a record's other fields survive.
    var storeChanges: [UInt32: StoreChange] = [:]
    var removedRecords: Set<UInt32> = []
    /// Everything was removed (``NormalizedCache/clear()``): the store clears itself whole.
    var cleared = false
    var cause: ChangeCause = .write

    var isEmpty: Bool { fields.isEmpty && newRecords.isEmpty }

    /// Calls `body` with every changed pair, those of new records included.
    func forEachField(_ body: (RecordField) -> Void) {
        for pair in fields { body(pair) }
        for (ids, records) in newRecords {
            for record in records { for field in ids { body(RecordField(record: record, field: field)) } }
        }
    }

    /// Notes a base field set or removed, for the store.
    /// This change set with the fields `written` again with equal values added, for the
    /// watchers when ages are judged: a field received again may no longer be stale.
    func renewing(_ written: [(record: UInt32, fields: [UInt32])]) -> ChangeSet {
        var heard = self
        var known = Set(fields)
        for (record, ids) in written {
            for id in ids where known.insert(RecordField(record: record, field: id)).inserted {
                heard.fields.append(RecordField(record: record, field: id))
            }
        }
        return heard
    }

    mutating func noteStoreChange(_ record: UInt32, _ field: UInt32) {
        switch storeChanges[record] {
        case .whole?: break
        case .fields(var ids)?:
            storeChanges[record] = nil   // leaves `ids` the only reference, so inserting does not copy it
            ids.insert(field)
            storeChanges[record] = .fields(ids)
        case nil: storeChanges[record] = .fields([field])
        }
    }

    /// Notes a record new to the base table, with its fields.
    mutating func noteNewRecord(_ record: UInt32, fields: [UInt32]) {
        if let last = newRecords.indices.last, newRecords[last].fields == fields {  // a shared array compares by identity first
            newRecords[last].records.append(record)
        } else {
            newRecords.append((fields, [record]))
        }
    }

    /// Every changed pair once.
    var changedFields: Set<RecordField> {
        var changed = Set<RecordField>(minimumCapacity: fields.count)
        forEachField { changed.insert($0) }
        return changed
    }
}
