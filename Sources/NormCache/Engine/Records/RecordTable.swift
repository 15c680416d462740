/// A record's fields in memory: field-key ids beside their values. Records are small, so
/// a scan of the ids is the lookup; records with many fields (a busy `QUERY_ROOT`) also
/// keep a hash index.
struct StoredRecord {
    private(set) var fieldIDs: [UInt32] = []
    private(set) var values: [StoredValue] = []
    private var index: [UInt32: Int]? = nil
    private static let indexFrom = 24

    var isEmpty: Bool { fieldIDs.isEmpty }

    /// The hash index of a record with many fields: each field id's position.
    private static func positions(of ids: [UInt32]) -> [UInt32: Int] {
        Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0) })
    }

    /// Where `field` is; `hint` is where it is likely to be (a read walks a selection in
    /// the order a write of it stored the fields), checked first.
    @inline(__always) func position(of field: UInt32, near hint: Int = 0) -> Int? {
        if index == nil {
            if hint < fieldIDs.count, fieldIDs[hint] == field { return hint }
            for i in fieldIDs.indices where fieldIDs[i] == field { return i }
            return nil
        }
        return index?[field]
    }

    @inline(__always) func value(of field: UInt32, near hint: Int = 0) -> StoredValue? {
        guard let i = position(of: field, near: hint) else { return nil }
        return values[i]
    }

    init() {}

    /// An empty record with room for `capacity` fields.
    init(capacity: Int) {
        fieldIDs.reserveCapacity(capacity)
        values.reserveCapacity(capacity)
    }

    /// A record of these fields, whose ids the caller knows to be distinct.
    init(fieldIDs: [UInt32], values: [StoredValue]) {
        precondition(fieldIDs.count == values.count, "a field id for each value")
        self.fieldIDs = fieldIDs
        self.values = values
        if fieldIDs.count >= Self.indexFrom { index = Self.positions(of: fieldIDs) }
    }

    /// Sets a field; returns its previous value.
    @discardableResult
    mutating func set(_ field: UInt32, _ value: consuming StoredValue) -> StoredValue? {
        if let i = position(of: field) {
            let old = values[i]
            values[i] = value
            return old
        }
        add(field, value)
        return nil
    }

    /// Sets a field whose previous value nobody needs (a record being staged): nothing
    /// is copied out.
    mutating func merge(_ field: UInt32, _ value: consuming StoredValue) {
        if let i = position(of: field) { values[i] = value } else { add(field, value) }
    }

    private mutating func add(_ field: UInt32, _ value: consuming StoredValue) {
        fieldIDs.append(field)
        values.append(value)
        if index != nil {
            index![field] = fieldIDs.count - 1
        } else if fieldIDs.count >= Self.indexFrom {
            index = Self.positions(of: fieldIDs)
        }
    }

    /// Removes a field; returns its value.
    @discardableResult
    mutating func remove(_ field: UInt32) -> StoredValue? {
        guard let i = position(of: field) else { return nil }
        let old = values[i]
        fieldIDs.remove(at: i)
        values.remove(at: i)
        if index != nil { index = Self.positions(of: fieldIDs) }
        return old
    }
}

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

/// The records written for one optimistic mutation, over the base table.
struct OptimisticLayer {
    let id: String
    var table = RecordTable()
}
