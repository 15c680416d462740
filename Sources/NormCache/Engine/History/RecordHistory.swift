import Foundation

/// The last changes of each record, kept by the engine as commits make them (issue 36):
/// the one owner of what is kept and for how long. Each record keeps at most ``limit``
/// changes in a ``Ring``, oldest dropped first; a limit of 0 keeps none and costs a commit
/// nothing. Values are kept as the engine stores them (``StoredValue``), never rendered:
/// ``NormalizedCache/history(of:field:last:)`` turns them into JSON on demand.
///
/// A commit notes each visible change in its ``CommitLog`` (``CommitLog/noteHistory(_:_:)``);
/// when it succeeds, ``record(_:stamp:)`` files them here; a failed commit's go with it.
///
/// ```swift
/// let history = RecordHistory()
/// history.limit = 2
/// let stamp = HistoryStamp(number: 1, at: Date(), cause: .write, origin: .command("write", target: "Trip:1"))
/// history.record([(7, .field(3, old: nil, new: .value("Lisbon")))], stamp: stamp)
/// history.entries(of: 7).count   // 1
/// ```
final class RecordHistory {
    /// One change of a record made by one commit.
    enum Change {
        /// A field set (`new`), changed, or removed (`new` nil), as reads see it.
        case field(UInt32, old: StoredValue?, new: StoredValue?)
        /// The record was new to the base table with these fields, moved in whole.
        case created(StoredRecord)
    }

    /// A change with the commit that made it.
    struct Entry {
        let stamp: HistoryStamp
        let change: Change
    }

    private var rings: [UInt32: Ring<Entry>] = [:]

    /// How many changes each record keeps (100 by default); 0 keeps none. Lowering it
    /// drops each record's oldest changes beyond it at once; 0 drops them all.
    var limit = 100 {
        didSet {
            if limit == 0 { return rings = [:] }
            for (record, ring) in rings where ring.count > limit { rings[record] = Ring(ring.elements, limit: limit) }
        }
    }

    /// Files one successful commit's changes (`changes`, in the order it made them).
    func record(_ changes: [(record: UInt32, change: Change)], stamp: HistoryStamp) {
        guard limit > 0 else { return }
        for (record, change) in changes {
            rings[record, default: Ring()].append(Entry(stamp: stamp, change: change), limit: limit)
        }
    }

    /// The changes kept of `record`, oldest first.
    func entries(of record: UInt32) -> [Entry] { rings[record]?.elements ?? [] }

    /// How many changes are kept, over all records (a record's creation counts as one).
    var count: Int { rings.values.reduce(0) { $0 + $1.count } }

    /// The bytes the kept changes take, roughly: each entry, and each record's ring.
    var bytes: Int {
        count * MemoryLayout<Entry>.stride + rings.count * (MemoryLayout<UInt32>.stride + MemoryLayout<Ring<Entry>>.stride)
    }

    /// Calls `body` with every record a kept value references (see KeyRelease.swift).
    func forEachReference(_ body: (UInt32) -> Void) {
        for ring in rings.values {
            ring.forEach { entry in
                switch entry.change {
                case .field(_, let old, let new):
                    old?.forEachReference(body)
                    new?.forEachReference(body)
                case .created(let stored):
                    for value in stored.values { value.forEachReference(body) }
                }
            }
        }
    }

    /// Forgets the changes of a record whose key was released.
    func forget(_ record: UInt32) { rings[record] = nil }
}
