/// When each record field was last received, and how long its sender said it stays fresh:
/// the one owner of a field's age (docs/engine.md, "Freshness"). A field's time is a
/// *receipt*, an index into the receipts of the commits that wrote something (each its
/// time by the ``CacheClock`` and the `Cache-Control: max-age` of the response, if any),
/// so a field costs four bytes, not a date. Most writes write a record whole (a new
/// record, a refetch of the same fields), so each record keeps one receipt, and only a
/// field written apart from the rest of its record keeps its own (then the record's
/// receipt has its top bit set, so a record without any costs no lookup).
///
/// Receipt 0 is "unknown" (a record from a file written by Apollo iOS, or before the
/// cache kept times): such a field is never stale. Only written fields are stamped: a
/// field set by `.gc dangling` or an eviction keeps its time; a snapshot's restore sets
/// the times the snapshot carries. Each commit's change (``Change``) is made before the
/// store writes the commit, which is handed the times of the records it set
/// (``RecordTimes``, kept beside each record), and undone when the store refuses it; a
/// record loaded from the store takes the times the store kept of it.
///
/// ```swift
/// var times = ReceivedTimes()
/// var change = ReceivedTimes.Change(recording: false)
/// let receipt = times.receipt(at: 1_900_000_000, maxAge: 60, into: &change)
/// times.stamp(7, fields: [1, 2], whole: true, receipt: receipt, into: &change)   // record 7, written whole
/// times.received(7, 2)?.at                                         // 1_900_000_000
/// times.received(8, 2)                                             // nil: never stamped
/// ```
struct ReceivedTimes {
    /// One commit's receipt: its time (seconds since 1970) and the max age its response
    /// came with.
    struct Receipt: Hashable {
        let at: Double
        let maxAge: Double?
    }

    private static let hasOwnFields: UInt32 = 1 << 31

    /// The receipts; the first is "unknown".
    private(set) var receipts: [Receipt] = [Receipt(at: 0, maxAge: nil)]
    private var receiptIndex: [Receipt: UInt32] = [:]
    /// Each record's receipt by record id (top bit: some of its fields have their own).
    private var byRecord: [UInt32] = []
    /// The receipts of fields written apart from their record, by record and field.
    private var byField: [UInt32: [UInt32: UInt32]] = [:]

    /// Whether no field has a known time.
    var isEmpty: Bool { receipts.count == 1 }
    /// Whether some receipt came with a max age of its sender's.
    private(set) var hasSenderMaxAges = false

    /// The receipt for `at` with `maxAge`: the one already kept, or a new one.
    private mutating func receipt(at: Double, maxAge: Double?) -> UInt32 {
        let receipt = Receipt(at: at, maxAge: maxAge)
        if let index = receiptIndex[receipt] { return index }
        let index = UInt32(receipts.count)
        receipts.append(receipt)
        receiptIndex[receipt] = index
        if maxAge != nil { hasSenderMaxAges = true }
        return index
    }

    /// The receipt of `field` of `record`; nil when unknown.
    @inline(__always) func received(_ record: UInt32, _ field: UInt32) -> Receipt? {
        let i = Int(record)
        guard i < byRecord.count else { return nil }
        var index = byRecord[i]
        if index & Self.hasOwnFields != 0 {
            index = byField[record]?[field] ?? index & ~Self.hasOwnFields
        }
        return index == 0 ? nil : receipts[Int(index)]
    }

    /// The receipt `record`'s fields share, and whether some have their own instead (then
    /// ask ``received(_:_:)`` field by field); nil when unknown.
    @inline(__always) func received(_ record: UInt32) -> (shared: Receipt?, ownFields: Bool) {
        let i = Int(record)
        guard i < byRecord.count else { return (nil, false) }
        let index = byRecord[i]
        let own = index & Self.hasOwnFields != 0
        let shared = index & ~Self.hasOwnFields
        return (shared == 0 ? nil : receipts[Int(shared)], own)
    }

    /// `record`'s times, to keep outside memory; nil when none is known.
    func times(of record: UInt32) -> RecordTimes? {
        let i = Int(record)
        guard i < byRecord.count, byRecord[i] != 0 else { return nil }
        let index = byRecord[i] & ~Self.hasOwnFields
        let own = byRecord[i] & Self.hasOwnFields == 0 ? [] : (byField[record] ?? [:]).map { (field: $0.key, receipt: receipts[Int($0.value)]) }
        return RecordTimes(receipt: index == 0 ? nil : receipts[Int(index)], fields: own)
    }

    /// What one commit changed of the times: the records whose times it set, which the
    /// store is handed with the commit's records, and what ``undo(_:)`` needs to take the
    /// change back when the store refuses the commit.
    struct Change {
        /// Whether the change is noted (a commit over a store, which can refuse it): without
        /// a store nothing needs undoing or writing.
        let recording: Bool
        /// The records stamped or set, in order (one may come twice).
        fileprivate(set) var records: [UInt32] = []
        /// Each record's times before the change touched it, in order.
        fileprivate var saved: [(record: UInt32, receipt: UInt32, fields: [UInt32: UInt32]?)] = []
        /// Every time before the commit cleared them.
        fileprivate var beforeClear: (byRecord: [UInt32], byField: [UInt32: [UInt32: UInt32]])?
        /// The receipts and whether one had a sender's max age, before the change.
        fileprivate var receipts: (count: Int, hadSenderMaxAges: Bool)?

        init(recording: Bool) { self.recording = recording }
    }

    /// Notes in `change` how `record`'s times were, before it is changed.
    private mutating func save(_ record: UInt32, setting: Bool, into change: inout Change) {
        guard change.recording else { return }
        let i = Int(record)
        let old = i < byRecord.count ? byRecord[i] : 0
        change.saved.append((record, old, old & Self.hasOwnFields != 0 ? byField[record] : nil))
        if setting { change.records.append(record) }
    }

    /// The receipt for `at` with `maxAge` (``receipt(at:maxAge:)``), noting in `change` how
    /// the receipts were.
    mutating func receipt(at: Double, maxAge: Double?, into change: inout Change) -> UInt32 {
        if change.recording, change.receipts == nil { change.receipts = (receipts.count, hasSenderMaxAges) }
        return receipt(at: at, maxAge: maxAge)
    }

    /// Stamps `fields` of `record` with `receipt`; `whole`: they are all the record has,
    /// so they take the record's receipt and no field keeps its own.
    mutating func stamp(_ record: UInt32, fields: some Sequence<UInt32>, whole: Bool, receipt: UInt32, into change: inout Change) {
        save(record, setting: true, into: &change)
        let i = Int(record)
        while i >= byRecord.count { byRecord.append(0) }
        let old = byRecord[i]
        if whole {
            if old & Self.hasOwnFields != 0 { byField[record] = nil }
            byRecord[i] = receipt
            return
        }
        for field in fields { byField[record, default: [:]][field] = receipt }
        byRecord[i] = old | Self.hasOwnFields
    }

    /// Sets `record`'s times to `times` (nil: unknown), as a store or a snapshot kept them.
    mutating func set(_ record: UInt32, to times: RecordTimes?, into change: inout Change) {
        save(record, setting: true, into: &change)
        let i = Int(record)
        while i >= byRecord.count { byRecord.append(0) }
        byField[record] = nil
        guard let times else { return byRecord[i] = 0 }
        var index: UInt32 = 0
        if let whole = times.receipt { index = receipt(at: whole.at, maxAge: whole.maxAge, into: &change) }
        if !times.fields.isEmpty {
            var own: [UInt32: UInt32] = [:]
            for (field, receipt) in times.fields { own[field] = self.receipt(at: receipt.at, maxAge: receipt.maxAge, into: &change) }
            byField[record] = own
            index |= Self.hasOwnFields
        }
        byRecord[i] = index
    }

    /// Forgets the times of `record`'s fields (a record removed).
    mutating func forget(_ record: UInt32, into change: inout Change) {
        let i = Int(record)
        guard i < byRecord.count, byRecord[i] != 0 else { return }
        save(record, setting: false, into: &change)
        if byRecord[i] & Self.hasOwnFields != 0 { byField[record] = nil }
        byRecord[i] = 0
    }

    /// Forgets every time (the cache cleared).
    mutating func forgetAll(into change: inout Change) {
        if change.recording, change.beforeClear == nil { change.beforeClear = (byRecord, byField) }
        byRecord = []
        byField = [:]
    }

    /// Takes back what `change` changed: the times are as they were before it.
    mutating func undo(_ change: Change) {
        for (record, receipt, fields) in change.saved.reversed() {
            while Int(record) >= byRecord.count { byRecord.append(0) }
            byRecord[Int(record)] = receipt
            byField[record] = fields
        }
        if let (byRecord, byField) = change.beforeClear { (self.byRecord, self.byField) = (byRecord, byField) }
        guard let (count, hadSenderMaxAges) = change.receipts else { return }
        for receipt in receipts[count...] { receiptIndex[receipt] = nil }
        receipts.removeSubrange(count...)
        hasSenderMaxAges = hadSenderMaxAges
    }

    /// What a record's times take in memory beyond the receipts: four bytes a record, and
    /// a dictionary entry a field written apart.
    var bytes: Int { byRecord.count * 4 + byField.values.reduce(0) { $0 + $1.count * 8 } }
}
