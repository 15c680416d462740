/// The fields of a record that one object of a response writes first, each field once,
/// in its selection's order.
///
/// Records written under one selection mostly have the same field ids in the same order
/// (every item of a list), so the builder checks the ids against those of an earlier
/// record (`expected`) and, while they agree, keeps none of its own: the finished record
/// shares that array, and only its values are new.
///
/// ```swift
/// var builder = RecordBuilder(expecting: earlier.fieldIDs, capacity: 3)   // [7, 8, 9]
/// builder.append(new: 7, .value("Item")); builder.append(new: 8, .value("2")); builder.append(new: 9, .value(3))
/// builder.record().fieldIDs   // the same array as earlier.fieldIDs: nothing allocated for it
/// ```
struct RecordBuilder {
    private let expected: [UInt32]
    /// How many ids so far are `expected`'s first ones; once one differs, the ids are kept
    /// in `ids` instead.
    private var matched = 0
    private var ids: [UInt32]? = nil
    private var values: [StoredValue] = []

    init(expecting expected: [UInt32], capacity: Int) {
        self.expected = expected
        values.reserveCapacity(capacity)
    }

    /// Adds a field the record does not have yet (the caller knows).
    @inline(__always) mutating func append(new field: UInt32, _ value: consuming StoredValue) {
        if ids == nil, matched < expected.count, expected[matched] == field {
            matched += 1
        } else {
            if ids == nil { ids = Array(expected[..<matched]) }
            ids!.append(field)
        }
        values.append(value)
    }

    /// The record built so far.
    consuming func record() -> StoredRecord {
        let fieldIDs = ids ?? (matched == expected.count ? expected : Array(expected[..<matched]))
        return StoredRecord(fieldIDs: fieldIDs, values: values)
    }
}
