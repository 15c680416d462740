import Foundation

/// The last changes of each record, kept by the engine as commits make them (issue 36):
/// the one owner of what is kept and for how long. Each record keeps at most ``limit``
/// changes in a ``Ring``, oldest dropped first; a limit of 0 keeps none and costs a commit
/// nothing. Values are kept as the engine stores them (``StoredValue``), never rendered:
/// ``NormalizedCache/history(of:field:last:)`` turns them into JSON on demand.
///
/// A commit notes each visible change in its ``CommitLog`` (``HistoryNotes``: a run of new
/// records is one note); when it succeeds, ``record(_:stamp:)`` files them here; a failed
/// commit's go with it.
///
/// ```swift
/// let history = RecordHistory()
/// history.limit = 2
/// let stamp = HistoryStamp(number: 1, at: Date(), cause: .write, origin: .command("write", target: "Trip:1"))
/// var notes = HistoryNotes()
/// notes.note(7, .field(3, old: nil, new: .value("Lisbon")))
/// history.record(notes, stamp: stamp)
/// history.entries(of: 7).count   // 1
/// ```
final class RecordHistory {
    /// One change of a record made by one commit.
    enum Change {
        /// A field set (`new`), changed, or removed (`new` nil), as reads see it.
        case field(UInt32, old: StoredValue?, new: StoredValue?)
        /// The record was new to the base table with these fields, moved in whole. Their
        /// values are not copied: each is the old value of the field's next kept change,
        /// or, with none, its value now (``NormalizedCache/history(of:field:last:)``).
        case created([UInt32])
    }

    /// A change with the commit that made it.
    struct Entry {
        let stamp: HistoryStamp
        let change: Change
    }

    /// Indexed by record id (ids are dense): no hashing on the write path.
    /// Unchecked at run time, as the record layers' storage is: only the engine's lock
    /// holder touches it (docs/PERFORMANCE.md, "Exclusivity checks").
    @exclusivity(unchecked) private var rings: [Ring<Entry>] = []

    /// How many changes each record keeps (100 by default); 0 keeps none. Lowering it
    /// drops each record's oldest changes beyond it at once; 0 drops them all.
    var limit = 100 {
        didSet {
            if limit == 0 { return rings = [] }
            for record in rings.indices where rings[record].count > limit { rings[record] = Ring(rings[record].elements, limit: limit) }
        }
    }

    /// Files one successful commit's changes (`notes`, in the order it made them).
    func record(_ notes: HistoryNotes, stamp: HistoryStamp) {
        guard limit > 0 else { return }
        // New records have the highest ids: room for them at once, growing geometrically.
        if let newest = notes.newRecords.last?.records.last, Int(newest) >= rings.count {
            rings.reserveCapacity(max(Int(newest) + 1, rings.count * 2))
        }
        for note in notes.changes {
            switch note {
            case .change(let record, let change):
                file(Entry(stamp: stamp, change: change), of: record)
            case .created(let run, let positions):
                let entry = Entry(stamp: stamp, change: .created(notes.newRecords[run].fields))
                for record in notes.newRecords[run].records[positions] { file(entry, of: record) }
            }
        }
    }

    /// Appends `entry` to the ring of `record`; the newest record's ring begins with it.
    private func file(_ entry: Entry, of record: UInt32) {
        let index = Int(record)
        if index == rings.count { return rings.append(Ring(entry)) }
        while index >= rings.count { rings.append(Ring()) }
        rings[index].append(entry, limit: limit)
    }

    /// The changes kept of `record`, oldest first.
    func entries(of record: UInt32) -> [Entry] { Int(record) < rings.count ? rings[Int(record)].elements : [] }

    /// How many changes are kept, over all records (a record's creation counts as one).
    var count: Int { rings.reduce(0) { $0 + $1.count } }

    /// The bytes the kept changes take, roughly: each entry, and each record's ring.
    var bytes: Int {
        let kept = count
        return kept == 0 ? 0 : kept * MemoryLayout<Entry>.stride + rings.count * MemoryLayout<Ring<Entry>>.stride
    }

    /// Calls `body` with every record a kept value references (see KeyRelease.swift).
    func forEachReference(_ body: (UInt32) -> Void) {
        for ring in rings {
            ring.forEach { entry in
                guard case .field(_, let old, let new) = entry.change else { return }
                old?.forEachReference(body)
                new?.forEachReference(body)
            }
        }
    }

    /// Forgets the changes of a record whose key was released.
    func forget(_ record: UInt32) { if Int(record) < rings.count { rings[Int(record)] = Ring() } }
}
