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

    /// The string `field` holds, matched in place (no copy of the value); nil when it is
    /// absent or holds anything else. What a record's `__typename` is read by.
    @inline(__always) func string(of field: UInt32) -> String? {
        guard let i = position(of: field), case .value(.string(let text)) = values[i] else { return nil }
        return text
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
