/// The commit in progress, and what a failed one takes back: the change set it gathers
/// for the watchers and the store, the undo steps, how deep transactions nest, what
/// writes learned or warned of before it began, and the changes it noted for the
/// ``RecordHistory`` (``HistoryNotes``) with what started it. The one owner of whether a commit keeps
/// an undo log (``begin(cause:checkedFirst:writesThrough:possibleTypes:warnings:)``).
///
/// ```swift
/// var log = CommitLog()
/// log.begin(cause: .write, checkedFirst: true, writesThrough: false, possibleTypes: PossibleTypes(), warnings: 0)
/// log.keepsUndo   // false: a checked write with nothing after it that can fail
/// log.end()       // true: the outermost commit ended
/// ```
struct CommitLog {
    /// The commit in progress: what changed so far.
    var changes = ChangeSet()
    /// The change set of the last commit, for a monitor.
    var lastCommit = ChangeSet()
    /// How to undo what the commit in progress changed, in order.
    var undo: [UndoStep] = []
    var transactionDepth = 0
    /// Whether this commit can still fail after changing records (an explicit
    /// transaction, or a store to write through), so it must keep an undo log. A plain
    /// write is checked whole before it changes anything and needs none.
    private(set) var keepsUndo = false
    /// Whether the commit runs inside ``NormalizedCache/transaction(_:)``.
    var explicitTransaction = false
    /// Possible types and the number of warnings when the commit began, for a rollback.
    private var possibleTypesBefore = PossibleTypes()
    private var warningsBefore = 0
    /// Whether the commit in progress notes its changes for the ``RecordHistory``
    /// (its limit is above 0), and the changes it noted, in order.
    private(set) var keepsHistory = false
    private(set) var historyNotes = HistoryNotes()
    /// What started the commit in progress, for the history.
    private(set) var origin: HistoryStamp.Origin?
    /// The records the commit in progress wrote apart from new ones (those are in the change
    /// set), with the fields written, changed or not: a refetch of equal values is received
    /// again (``ReceivedTimes``). Only writes of responses and of a record's fields by hand.
    var received: [(record: UInt32, fields: [UInt32])] = []
    /// The max age the responses the commit writes came with (`Cache-Control: max-age`):
    /// a commit's writes share one receipt, so in a transaction of several it is the least
    /// of theirs (a response with none counts as none), stale early rather than late.
    private(set) var receivedMaxAge: Double?
    /// Records whose received times the commit in progress sets as they were kept (a
    /// snapshot's restore; nil: unknown), after it stamps what it wrote.
    var keptTimes: [(record: UInt32, times: RecordTimes?)] = []
    /// Notes the max age a response written in the commit came with.
    mutating func receive(maxAge: Double?) {
        guard let maxAge else { return }
        receivedMaxAge = min(receivedMaxAge ?? .infinity, maxAge)
    }

    /// The number of the last commit that ended (``CommitJournal``): each commit that
    /// succeeded, or failed after changing something, takes the next.
    private(set) var number = 0

    /// Begins a commit: the outermost starts a new change set and undo log; one inside
    /// another is part of it. `checkedFirst`: the body validates everything before it
    /// changes anything (a normalized write), so unless a store (`writesThrough`) or an
    /// outer transaction can still fail afterwards, no undo log is kept.
    /// `origin`: what started the commit; `keepsHistory`: whether its changes are noted for the history.
    mutating func begin(cause: ChangeCause, origin: HistoryStamp.Origin? = nil, keepsHistory: Bool = false, checkedFirst: Bool, writesThrough: Bool,
                        possibleTypes: @autoclosure () -> PossibleTypes, warnings: Int) {
        if transactionDepth == 0 {
            changes = ChangeSet()
            changes.cause = cause
            self.origin = origin
            self.keepsHistory = keepsHistory
            historyNotes = HistoryNotes()
            received = []
            receivedMaxAge = nil
            keptTimes = []
            undo = []
            keepsUndo = writesThrough || explicitTransaction || !checkedFirst
            possibleTypesBefore = possibleTypes()
            warningsBefore = warnings
        }
        transactionDepth += 1
    }

    /// Ends a commit begun with ``begin(cause:checkedFirst:writesThrough:possibleTypes:warnings:)``;
    /// whether it was the outermost, which ``completed()`` or ``abandoned()`` closes.
    mutating func end() -> Bool {
        transactionDepth -= 1
        return transactionDepth == 0
    }

    /// Closes the outermost commit, which succeeded: its change set becomes the last
    /// commit's, and it takes the next number. Returns the changes it noted for the history.
    mutating func completed() -> HistoryNotes {
        number += 1
        var noted = historyNotes
        historyNotes = HistoryNotes()
        if !noted.isEmpty { noted.newRecords = changes.newRecords }
        lastCommit = changes
        changes = ChangeSet()
        undo = []
        received = []
        keptTimes = []
        return noted
    }

    /// Closes the outermost commit, which failed: its change set goes (numbered when it
    /// had changed something), and what to take back is returned: the undo steps (oldest
    /// first), the possible types it began with, how many warnings there were, and the
    /// changes it had made.
    mutating func abandoned() -> (undo: [UndoStep], possibleTypes: PossibleTypes, warnings: Int, changes: ChangeSet) {
        defer {
            undo = []
            changes = ChangeSet()
            historyNotes = HistoryNotes()
            received = []
            keptTimes = []
        }
        if !changes.isEmpty { number += 1 }
        return (undo, possibleTypesBefore, warningsBefore, changes)
    }

    /// Notes a change of a record for the history, when the commit keeps one.
    @inline(__always) mutating func noteHistory(_ record: UInt32, _ change: @autoclosure () -> RecordHistory.Change) {
        if keepsHistory { historyNotes.note(record, change()) }
    }

    /// Notes a record new to the base table, with its fields, in the change set and, when
    /// the commit keeps one, for the history (where it is the change set's run position).
    mutating func noteNewRecord(_ record: UInt32, fields: [UInt32]) {
        changes.noteNewRecord(record, fields: fields)
        guard keepsHistory else { return }
        let run = changes.newRecords.count - 1
        historyNotes.noteCreated(run: run, at: changes.newRecords[run].records.count - 1)
    }

    /// Notes an undo step, when the commit keeps an undo log.
    @inline(__always) mutating func note(_ step: @autoclosure () -> UndoStep) {
        if keepsUndo { undo.append(step()) }
    }
}
