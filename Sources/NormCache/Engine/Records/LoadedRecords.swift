/// Which records of the engine's store are loaded: a cache opens over a store without
/// reading it, and each record's fields come in from the store (``RecordStore/load(_:)``)
/// the first time a read or a write reaches the record, or all at once for what needs
/// every record (gc, extract, clear). A loaded record's fields are those in the base
/// table; a record loaded and absent there is one the store does not hold (or a commit
/// removed). Ids are record-key ids (``KeyInterner``), one bit each.
///
/// ```swift
/// var loaded = LoadedRecords(all: false)
/// loaded.insert(7)      // true: record 7 was not loaded yet
/// loaded.contains(7)    // true
/// ```
struct LoadedRecords {
    /// Every record the store holds is loaded (or there is no store): nothing is left to load.
    var all: Bool
    private var bits: [UInt64] = []

    init(all: Bool) { self.all = all }

    @inline(__always) func contains(_ record: UInt32) -> Bool {
        if all { return true }
        let word = Int(record >> 6)
        return word < bits.count && bits[word] & (1 << UInt64(record & 63)) != 0
    }

    /// Marks `record` loaded; whether it was not before.
    @discardableResult
    mutating func insert(_ record: UInt32) -> Bool {
        if contains(record) { return false }
        let word = Int(record >> 6)
        if word >= bits.count { bits.append(contentsOf: repeatElement(0, count: word + 1 - bits.count)) }
        bits[word] |= 1 << UInt64(record & 63)
        return true
    }

    /// Marks `record` not loaded (a load that failed).
    mutating func remove(_ record: UInt32) {
        let word = Int(record >> 6)
        if word < bits.count { bits[word] &= ~(1 << UInt64(record & 63)) }
    }
}
