/// Records indexed by their key's interned id. An absent record is an empty one, so a
/// lookup reads the record in place instead of copying an optional out of the array.
struct RecordTable {
    private(set) var records: [StoredRecord] = []

    subscript(record: UInt32) -> StoredRecord? {
        exists(record) ? records[Int(record)] : nil
    }

    @inline(__always) func value(_ record: UInt32, _ field: UInt32, near hint: Int = 0) -> StoredValue? {
        let i = Int(record)
        return i < records.count ? records[i].value(of: field, near: hint) : nil
    }

    /// The string the field holds (``StoredRecord/string(of:)``).
    @inline(__always) func string(_ record: UInt32, _ field: UInt32) -> String? {
        let i = Int(record)
        return i < records.count ? records[i].string(of: field) : nil
    }

    func exists(_ record: UInt32) -> Bool {
        let i = Int(record)
        return i < records.count && !records[i].isEmpty
    }

    /// Puts `fields` in place of an absent record.
    mutating func insert(_ record: UInt32, _ fields: consuming StoredRecord) {
        let i = Int(record)
        if i == records.count {  // the next id, as new records mostly are: no empty one to replace
            records.append(fields)
            return
        }
        grow(toHold: i)
        precondition(records[i].isEmpty, "insert over an existing record")
        records[i] = fields
    }

    /// Takes a record out whole; returns its fields.
    mutating func remove(_ record: UInt32) -> StoredRecord? {
        guard exists(record) else { return nil }
        let i = Int(record)
        defer { records[i] = StoredRecord() }
        return records[i]
    }

    @discardableResult
    mutating func set(_ record: UInt32, _ field: UInt32, _ value: StoredValue?) -> StoredValue? {
        let i = Int(record)
        if i >= records.count {
            guard value != nil else { return nil }
            grow(toHold: i)
        }
        guard let value else {
            let old = records[i].remove(field)
            if records[i].isEmpty { records[i] = StoredRecord() }  // let its storage go
            return old
        }
        return records[i].set(field, value)
    }

    /// Room for records of ids below `count`, made at once (a hint): a write of many new
    /// records then grows the table by appends that never reallocate.
    mutating func reserve(upTo count: Int) {
        records.reserveRoom(for: count - records.count)
    }

    /// Empty records up to index `i`, so that `records[i]` exists. (One by one: ids come
    /// in order, so it is usually one, and a single append is far cheaper than a sequence's.)
    private mutating func grow(toHold i: Int) {
        while i >= records.count { records.append(StoredRecord()) }
    }

    /// Ids of records that exist.
    var ids: [UInt32] {
        records.indices.compactMap { records[$0].isEmpty ? nil : UInt32($0) }
    }
}
