/// A record field's value as the engine keeps it: JSON as a ``CacheValue``, except that a
/// reference holds the interned id of the record it names. A read then follows it by
/// index instead of hashing its key again, and `gc` walks ids.
///
/// The form is canonical, so two equal values compare equal however they were written:
/// ``list(_:)`` only for a list that holds a reference (at any depth of lists), and
/// ``value(_:)`` for everything else. References inside objects kept inline (restored
/// from an Apollo Client snapshot) stay keys, as reads of those objects expect.
///
/// ```swift
/// // {"owner": {"$reference": "User:1"}, "tags": ["a", "b"], "stops": [{"$reference": "Stop:1"}]}
/// // owner → .reference(#7)   tags → .value(["a", "b"])   stops → .list([.reference(#9)])
/// let kept = try keys.stored(.reference("User:1"))   // .reference(#7)
/// keys.cacheValue(kept)                              // .reference("User:1")
/// ```
enum StoredValue: Equatable {
    /// A value with no reference outside inline objects.
    case value(CacheValue)
    /// A link to the record with this id.
    case reference(UInt32)
    /// A list that holds a reference, itself or in a nested list.
    case list([StoredValue])

    /// A list of kept items, in canonical form: ``value(_:)`` when none holds a reference.
    static func list(of items: [StoredValue]) -> StoredValue {
        var plain: [CacheValue] = []
        plain.reserveCapacity(items.count)
        for item in items {
            guard case .value(let value) = item else { return .list(items) }
            plain.append(value)
        }
        return .value(.list(plain))
    }

    /// Whether `value` is a reference or a list that holds one (at any depth of lists).
    static func holdsReference(_ value: CacheValue) -> Bool {
        switch value {
        case .reference: true
        case .list(let items): items.contains(where: holdsReference)
        default: false
        }
    }

    /// Calls `body` with the record id of every reference the value holds.
    func forEachReference(_ body: (UInt32) -> Void) {
        switch self {
        case .value: break
        case .reference(let id): body(id)
        case .list(let items): for item in items { item.forEachReference(body) }
        }
    }
}

extension KeySpace {
    /// Calls `body` with the record id of every reference `value` holds, those in objects
    /// kept inline too (an embedded or paginated field's, an Apollo Client snapshot's),
    /// which name records by key: what gc and `.refs` follow.
    func forEachReference(in value: StoredValue, _ body: (UInt32) -> Void) {
        switch value {
        case .reference(let id): body(id)
        case .list(let items): for item in items { forEachReference(in: item, body) }
        case .value(let inline):
            switch inline {
            case .object, .list: inline.forEachReference { key in if let id = recordKeys.find(key) { body(id.rawValue) } }
            default: break
            }
        }
    }
}

extension KeySpace {
    /// `value` as records keep it: each reference's key interned to its record's id.
    func stored(_ value: CacheValue) throws(CacheError) -> StoredValue {
        switch value {
        case .reference(let key):
            return .reference(try recordID(key))
        case .list(let items) where items.contains(where: StoredValue.holdsReference):
            var kept: [StoredValue] = []
            kept.reserveCapacity(items.count)
            for item in items { kept.append(try stored(item)) }
            return .list(kept)
        default:
            return .value(value)
        }
    }

    /// A kept value as JSON: each reference named by its record's key.
    func cacheValue(_ value: StoredValue) -> CacheValue {
        switch value {
        case .value(let value): value
        case .reference(let id): .reference(recordKey(id))
        case .list(let items): .list(items.map(cacheValue))
        }
    }
}
