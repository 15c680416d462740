/// The records a write stages, in the order it first meets them, each with the fields it
/// will write. Applying the write moves each record out once (``moveOut(_:)``), so no
/// emptied record is left behind to be destroyed one by one: an array of them cost a
/// write of 10,000 records ≈ 150 instructions a record when it was torn down.
///
/// ```swift
/// let staged = StagedRecords()
/// let slot = staged.append(7, StoredRecord())
/// staged[slot].merge(3, .value("Ada"))
/// staged.moveOut { record, fields in table.insert(record, fields) }   // staged.count == 0
/// ```
final class StagedRecords {
    /// Two buffers side by side, `count` initialised in each: a record's id and its fields.
    /// Unchecked at run time: a write's one normalizer alone touches them, under the
    /// engine's lock (docs/PERFORMANCE.md, "Exclusivity checks").
    @exclusivity(unchecked) private var records = UnsafeMutablePointer<UInt32>.allocate(capacity: 16)
    @exclusivity(unchecked) private var fields = UnsafeMutablePointer<StoredRecord>.allocate(capacity: 16)
    @exclusivity(unchecked) private var capacity = 16
    @exclusivity(unchecked) private(set) var count = 0

    deinit {
        fields.deinitialize(count: count)
        fields.deallocate()
        records.deallocate()
    }

    /// The fields staged in `slot`.
    subscript(slot: Int) -> StoredRecord {
        get {
            precondition(slot >= 0 && slot < count, "no staged record \(slot)")
            return fields[slot]
        }
        _modify {
            precondition(slot >= 0 && slot < count, "no staged record \(slot)")
            yield &fields[slot]
        }
    }

    /// Stages `record` with `fields`; returns its slot.
    @inline(__always) func append(_ record: UInt32, _ fields: consuming StoredRecord) -> Int {
        if count == capacity { reserveRoom(for: 1) }
        records[count] = record
        (self.fields + count).initialize(to: fields)
        count += 1
        return count - 1
    }

    /// Makes room for `extra` more records at once, growing by ``grownCapacity(from:toHold:)``.
    func reserveRoom(for extra: Int) {
        let needed = count + extra
        guard needed > capacity else { return }
        let grown = grownCapacity(from: capacity, toHold: needed)
        let movedRecords = UnsafeMutablePointer<UInt32>.allocate(capacity: grown)
        movedRecords.initialize(from: records, count: count)
        records.deallocate()
        records = movedRecords
        let movedFields = UnsafeMutablePointer<StoredRecord>.allocate(capacity: grown)
        movedFields.moveInitialize(from: fields, count: count)
        fields.deallocate()
        fields = movedFields
        capacity = grown
    }

    /// Hands every staged record to `body` in order, moved out, and leaves none.
    func moveOut(_ body: (UInt32, consuming StoredRecord) -> Void) {
        let staged = count
        count = 0  // the fields below are moved out one by one, and so no longer ours
        for i in 0..<staged { body(records[i], (fields + i).move()) }
    }
}
