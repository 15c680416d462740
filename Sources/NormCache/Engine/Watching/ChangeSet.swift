/// Why records changed, and so why a watcher emits.
public enum ChangeCause: String, Sendable, Equatable {
    case initial, write, refetch, evict, optimistic, rollback, gc, clear
}

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

/// What one commit changed: the record-field pairs whose value really changed (a pair
/// changed twice appears twice), the records to write through to the store whole, and
/// the records removed.
struct ChangeSet: Sendable {
    /// Pairs that changed one by one.
    var fields: [UInt64] = []
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
    func forEachField(_ body: (UInt64) -> Void) {
        for pair in fields { body(pair) }
        for (ids, records) in newRecords {
            for record in records { for field in ids { body(pack(record, field)) } }
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
    var changedFields: Set<UInt64> {
        var changed = Set<UInt64>(minimumCapacity: fields.count)
        forEachField { changed.insert($0) }
        return changed
    }
}

/// One step to take back if a transaction fails.
enum UndoStep {
    /// A field of the base table (layer nil) or of a layer had this value (nil: absent).
    case field(layer: String?, record: UInt32, field: UInt32, old: StoredValue?)
    case invalidation(UInt64, wasInvalid: Bool)
    case layerAdded(String)
    case layerRemoved(OptimisticLayer, at: Int)
    /// The retained and emptied roots were these.
    case roots(RootState)
}

/// What a commit changed: the record-field keys whose value really changed.
///
/// ```swift
/// let changes = try cache.write(data: data, for: op)
/// changes.count     // 12
/// changes.keys      // ["QUERY_ROOT.trips", "Trip:1.name", ...] (named on demand)
/// ```
public struct Changes: Sendable {
    let changes: ChangeSet
    let cache: NormalizedCache

    public var count: Int { changes.changedFields.count }
    public var isEmpty: Bool { changes.isEmpty }
    /// `Trip:1.name`, …, sorted.
    public var keys: [String] { cache.names(changes.changedFields) }
}
