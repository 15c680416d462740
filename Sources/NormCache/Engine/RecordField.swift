/// One field of one record, as interned ids (`Trip:2` + `name`): the unit of change sets,
/// watcher dependencies and invalidations. It is one word, the record id above the field
/// id, so a set of them or the watchers' index hashes a single integer, and they order by
/// record, then field. ``KeySpace/name(_:)`` names one: `Trip:2.name`.
///
/// ```swift
/// let name = RecordField(record: trip, field: nameField)
/// name.record           // trip
/// state.name(name)      // "Trip:2.name"
/// ```
struct RecordField: Hashable, Comparable, Sendable {
    private let packed: UInt64

    @inline(__always) init(record: UInt32, field: UInt32) { packed = UInt64(record) << 32 | UInt64(field) }

    var record: UInt32 { UInt32(packed >> 32) }
    var field: UInt32 { UInt32(truncatingIfNeeded: packed) }

    static func < (a: RecordField, b: RecordField) -> Bool { a.packed < b.packed }
}
