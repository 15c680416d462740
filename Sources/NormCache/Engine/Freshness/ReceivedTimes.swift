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
/// field set by `.gc dangling`, an eviction or a snapshot's restore keeps its time.
///
/// ```swift
/// var times = ReceivedTimes()
/// let receipt = times.receipt(at: 1_900_000_000, maxAge: 60)
/// times.stamp(7, fields: [1, 2], whole: true, receipt: receipt)   // record 7, written whole
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
    mutating func receipt(at: Double, maxAge: Double?) -> UInt32 {
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

    /// Stamps `fields` of `record` with `receipt`; `whole`: they are all the record has,
    /// so they take the record's receipt and no field keeps its own.
    mutating func stamp(_ record: UInt32, fields: some Sequence<UInt32>, whole: Bool, receipt: UInt32) {
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

    /// Forgets the times of `record`'s fields (a record removed).
    mutating func forget(_ record: UInt32) {
        let i = Int(record)
        guard i < byRecord.count else { return }
        if byRecord[i] & Self.hasOwnFields != 0 { byField[record] = nil }
        byRecord[i] = 0
    }

    /// Forgets every time (the cache cleared).
    mutating func forgetAll() {
        byRecord = []
        byField = [:]
    }

    /// What a record's times take in memory beyond the receipts: four bytes a record, and
    /// a dictionary entry a field written apart.
    var bytes: Int { byRecord.count * 4 + byField.values.reduce(0) { $0 + $1.count * 8 } }
}
