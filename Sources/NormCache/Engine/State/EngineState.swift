import Foundation

/// Everything the engine holds, guarded by ``NormalizedCache``'s lock, in parts with one
/// concern each: the interned keys (``KeySpace``), the records with their layers and store
/// (``RecordLayers``), what is known of types (``SchemaContext``) and the commit in
/// progress with its undo log (``CommitLog``); beside them the watchers, the warnings and
/// the read statistics. What needs several parts at once lives here: commits, loading
/// from the store (EngineState+Loading.swift), releasing record keys (KeyRelease.swift).
///
/// ```swift
/// let state = try EngineState(store: nil)
/// let (changes, _) = try state.commit(cause: .write) { () throws(CacheError) in
///     let trip = try state.keys.recordID("Trip:1")
///     state.records.setField(trip, try state.keys.fieldID("name"), .value("Lisbon"), log: &state.log)
///     return state.log.changes
/// }
/// ```
final class EngineState {
    let keys: KeySpace
    let records: RecordLayers
    let schema = SchemaContext()
    /// Unchecked at run time, as the record layers' hot storage is: only the engine's lock
    /// holder touches it, and the dynamic checks were 13% of a normalized write's
    /// instructions (docs/PERFORMANCE.md, "Exclusivity checks").
    @exclusivity(unchecked) var log = CommitLog()
    /// Each record's last changes, filed by every commit that succeeds.
    let history = RecordHistory()
    /// The last commits, whole, for explanations.
    let journal = CommitJournal()
    /// The time the engine goes by (``CacheClock``): nothing here reads the wall clock but it.
    var clock = CacheClock()
    /// When each field was received (``ReceivedTimes``), stamped by every commit that
    /// succeeds. Unchecked at run time as ``log`` is: a read judging ages looks at it for
    /// every field.
    @exclusivity(unchecked) var received = ReceivedTimes()
    /// The max ages set on the cache itself (the workbench's `.maxage`), over the endpoint's,
    /// and how long past its max age a field is still read, as stale (`.maxstale`).
    var maxAges = MaxAges()
    var maxStale: Double = 0
    var watchers = WatcherRegistry()
    /// The node keys of the connections paged through lately (``ListedNodes``).
    let listedNodes = ListedNodesMemo()
    var warnings: [String] = []
    /// Reads that found every field, and reads that did not.
    var hits = 0, misses = 0

    init(store: RecordStore?) throws(CacheError) {
        keys = try KeySpace()
        records = RecordLayers(store: store)
    }

    /// Runs `body` with `endpoint` as the schema knowledge of the call in progress
    /// (``SchemaContext/endpoint``). Here, not in the part: `body` reads the state.
    func withSchema<R>(_ endpoint: SchemaKnowledge?, _ body: () throws(CacheError) -> R) throws(CacheError) -> R {
        let outer = schema.endpoint
        schema.endpoint = endpoint
        defer { schema.endpoint = outer }
        return try body()
    }

    /// The type of the object `record` holds, as reads see its `__typename`; nil when it has none.
    func typename(of record: UInt32) -> String? {
        guard records.layers.isEmpty else {
            if case .value(.string(let name))? = records.value(record, keys.typenameField) { return name }
            return nil
        }
        return records.base.string(record, keys.typenameField)   // in place: the common case, read for every object
    }

    /// The key the object `record` holds would have by its type's key policy, or with none
    /// (a type left unkeyed) by its `id`, as the default policy keys: `Trip:2` for a
    /// path-keyed trip whose id is 2; nil without a `__typename` or a key value. What tells
    /// one object kept under two keys (`.why`'s `other-key`).
    func objectKey(of record: UInt32) -> String? {
        try? load(record)   // a store that unloads after each commit: what it holds, now
        guard let typename = typename(of: record) else { return nil }
        let keying = schema.keying(for: typename) ?? (["id"], typename, false)
        var values: [String] = []
        for name in keying.fields {
            guard let id = keys.fieldKeys.find(name)?.rawValue, case .value(let value)? = records.value(record, id),
                  let text = KeyText.of(value) else { return nil }
            values.append(text)
        }
        return try? keys.keyBuilder.entityKey(type: keying.group, values: values)
    }

    // MARK: transactions

    /// Runs `body` as one commit: on success the changes are written through to the
    /// store and watchers hear of them once; on a throw every change is undone.
    /// `checkedFirst`: the body validates everything before it changes anything (a
    /// normalized write), so unless a store or an outer transaction can still fail
    /// afterwards, no undo log is kept. `origin`: what started the commit, for the history.
    /// `writesThrough`: false for a commit that brings in what the store holds already
    /// (another process's commit, reloaded): nothing of it is handed to the store.
    func commit<R>(cause: ChangeCause, origin: HistoryStamp.Origin? = nil, checkedFirst: Bool = false, writesThrough: Bool = true,
                   _ body: () throws(CacheError) -> R) throws(CacheError) -> (R, [WatchDelivery]) {
        let writesThrough = writesThrough && records.store != nil
        log.begin(cause: cause, origin: origin, keepsHistory: history.limit > 0, checkedFirst: checkedFirst, writesThrough: writesThrough,
                  possibleTypes: schema.possibleTypes, warnings: warnings.count)
        let result: R
        do {
            result = try body()
        } catch {
            if log.end() { rollBack() }
            throw error
        }
        guard log.end() else { return (result, []) }
        let changes = log.changes, origin = log.origin, now = clock.now()
        // The times first, so that the store writes them with the records; undone with
        // the records when the store refuses the commit.
        let times = stampReceived(changes, at: now)
        do { if writesThrough { try records.writeThrough(changes, keys: keys, received: keptTimes(times, changes)) } } catch {
            received.undo(times)
            rollBack()
            throw error
        }
        // Fields written again with equal values change nothing, but are no longer stale.
        let renewed = AgeJudge.maxAgesInForce(self) ? log.received.filter { records.base.exists($0.record) } : []
        let noted = log.completed()
        let stamp = HistoryStamp(number: log.number, at: now, cause: changes.cause, origin: origin)
        let (deliveries, reached) = watchers.notify(renewed.isEmpty ? changes : changes.renewing(renewed), commit: stamp.number, state: self)
        if !noted.isEmpty { history.record(noted, stamp: stamp) }
        journal.record(stamp, changes: changes, reached: reached)
        if records.unloadsAfterCommit { records.unloadAll() }
        return (result, deliveries)
    }

    /// Stamps what the commit in progress wrote (its new records, and the fields of others
    /// it wrote) as received `now`, with the max age its response came with, then sets the
    /// times it restored; forgets the times of the records it removed. Returns the change,
    /// which a commit over a store notes.
    private func stampReceived(_ changes: ChangeSet, at now: Date) -> ReceivedTimes.Change {
        var change = ReceivedTimes.Change(recording: records.store != nil)
        if changes.cleared { received.forgetAll(into: &change) }
        for record in changes.removedRecords where !records.base.exists(record) { received.forget(record, into: &change) }
        if !log.received.isEmpty || !changes.newRecords.isEmpty {
            let receipt = received.receipt(at: now.timeIntervalSince1970, maxAge: log.receivedMaxAge, into: &change)
            for (fields, news) in changes.newRecords {
                for record in news { received.stamp(record, fields: fields, whole: true, receipt: receipt, into: &change) }
            }
            for (record, fields) in log.received where records.base.exists(record) {   // not one removed after
                let whole = fields.count >= records.base[record]?.fieldIDs.count ?? 0
                received.stamp(record, fields: fields, whole: whole, receipt: receipt, into: &change)
            }
        }
        for (record, times) in log.keptTimes { received.set(record, to: times, into: &change) }
        return change
    }

    /// The times the store keeps of each record whose times `change` set, and of each
    /// record the commit removed and made again (the store removes the old record's), as
    /// their JSON text (``RecordTimes``); records of unknown age are left out.
    private func keptTimes(_ change: ReceivedTimes.Change, _ changes: ChangeSet) -> [UInt32: String] {
        guard change.recording else { return [:] }
        var kept: [UInt32: String] = [:]
        // Most records are received whole, all with the commit's one receipt: one text each.
        var wholeTexts: [ReceivedTimes.Receipt: String] = [:]
        for record in change.records + changes.removedRecords where kept[record] == nil && records.base.exists(record) {
            guard let times = received.times(of: record) else { continue }
            let whole = times.fields.isEmpty ? times.receipt : nil
            let text = whole.flatMap { wholeTexts[$0] } ?? JSON.string(times.json(fieldKey: keys.fieldKey), references: .none)
            if let whole { wholeTexts[whole] = text }
            kept[record] = text
        }
        return kept
    }

    private func rollBack() {
        let origin = log.origin
        let undone = log.abandoned()
        // What writes learned and warned of goes with them.
        schema.possibleTypes = undone.possibleTypes
        if warnings.count > undone.warnings { warnings.removeSubrange(undone.warnings...) }
        records.revert(undone.undo)
        guard !undone.changes.isEmpty else { return }
        journal.record(HistoryStamp(number: log.number, at: clock.now(), cause: undone.changes.cause, origin: origin),
                       changes: undone.changes, reached: [], rolledBack: true)
    }
}
