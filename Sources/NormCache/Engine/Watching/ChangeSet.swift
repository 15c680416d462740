/// What one commit changed: the record-field pairs whose value really changed (a pair
/// changed twice appears twice), the records to write through to the store whole, and
/// the records removed.
struct ChangeSet: Sendable {
    /// Pairs that changed one by one.
    var fields: [RecordField] = []
    /// Records new to the base table with the ids of their fields (all of them changed),
    /// as runs of records noted one after another with the same fields (a list's items):
    /// one entry per run rather than one pair per field.
    var newRecords: [(fields: [UInt32], records: [UInt32])] = []
    var dirtyRecords: Set<UInt32> = []
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
