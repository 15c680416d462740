/// The changes one commit made, noted for the ``RecordHistory`` in the order it made
/// them: ``CommitLog`` gathers them, ``RecordHistory/record(_:stamp:)`` files them. Records
/// new to the base table one after another are one note, the span of positions they take
/// in a run of the change set's ``ChangeSet/newRecords``, not a change each: a list's
/// items cost the note one step each, not an entry.
///
/// ```swift
/// var notes = HistoryNotes()
/// notes.noteCreated(run: 0, at: 0)
/// notes.noteCreated(run: 0, at: 1)   // the same note, now positions 0..<2 of run 0
/// notes.note(7, .field(3, old: nil, new: .value("Lisbon")))
/// notes.changes.count   // 2
/// ```
struct HistoryNotes {
    enum Note {
        /// One change of one record.
        case change(UInt32, RecordHistory.Change)
        /// Records new to the base table: these positions in run `run` of ``newRecords``.
        case created(run: Int, positions: Range<Int>)
    }

    /// The notes, oldest first, but for the newest span of new records while it is open.
    private var closed: [Note] = []
    /// The newest span of new records, while the next new record may still widen it.
    private var open: (run: Int, positions: Range<Int>)?
    /// The commit's runs of new records, its change set's, which the `.created` notes point into.
    var newRecords: [(fields: [UInt32], records: [UInt32])] = []

    var isEmpty: Bool { closed.isEmpty && open == nil }

    /// The notes, oldest first.
    var changes: [Note] { open.map { closed + [.created(run: $0.run, positions: $0.positions)] } ?? closed }

    mutating func note(_ record: UInt32, _ change: RecordHistory.Change) {
        close()
        closed.append(.change(record, change))
    }

    /// Notes that the record at `position` of run `run` is new: right after the open
    /// span, it widens it (a few integer steps, the cost of a new record).
    @inline(__always) mutating func noteCreated(run: Int, at position: Int) {
        if let open, open.run == run, open.positions.upperBound == position {
            self.open = (run, open.positions.lowerBound..<position + 1)
        } else {
            close()
            open = (run, position..<position + 1)
        }
    }

    private mutating func close() {
        guard let open else { return }
        closed.append(.created(run: open.run, positions: open.positions))
        self.open = nil
    }
}
