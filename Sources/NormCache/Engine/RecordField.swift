/// A record-field pair, as interned ids, e.g. `Trip:2` + `name`. Name it with
/// ``NormalizedCache/name(of:)`` (`Trip:2.name`).
public struct FieldRef: Hashable, Sendable, Comparable {
    public let record: KeyID
    public let field: KeyID

    init(packed: UInt64) {
        record = KeyID(rawValue: UInt32(packed >> 32))
        field = KeyID(rawValue: UInt32(truncatingIfNeeded: packed))
    }

    var packed: UInt64 { UInt64(record.rawValue) << 32 | UInt64(field.rawValue) }

    public static func < (lhs: FieldRef, rhs: FieldRef) -> Bool { lhs.packed < rhs.packed }
}

@inline(__always) func pack(_ record: UInt32, _ field: UInt32) -> UInt64 { UInt64(record) << 32 | UInt64(field) }
