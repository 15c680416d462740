/// The engine's records: the base table, the optimistic layers over it, the invalidated
/// fields, the roots beyond the records (``RootState``), and the store behind the base
/// with which of its records are loaded. The one owner of what a record's field reads as
/// (``value(_:_:)``, layers over base) and of changing records: each change is noted in
/// the commit's ``CommitLog`` (change set, undo step, write-through, history) only if it
/// really changed something.
///
/// A class, held by ``EngineState`` in a constant: the reader and the writer call it for
/// every field, and a struct kept in a class is copied whole for each call of one of its
/// methods (measured: +11% instructions per read of 10,000 records).
///
/// ```swift
/// let records = RecordLayers(store: nil)
/// var log = CommitLog()
/// log.begin(cause: .write, checkedFirst: false, writesThrough: false, possibleTypes: PossibleTypes(), warnings: 0)
/// records.setField(7, 3, .value("Lisbon"), log: &log)
/// records.value(7, 3)             // .value("Lisbon")
/// log.changes.fields              // [RecordField(record: 7, field: 3)]
/// ```
final class RecordLayers {
    // The storage every write and read goes through is unchecked at run time: only the
    // engine's lock holder touches it (docs/PERFORMANCE.md, "Exclusivity checks").
    @exclusivity(unchecked) var base = RecordTable()
    @exclusivity(unchecked) var layers: [OptimisticLayer] = []
    @exclusivity(unchecked) var invalidated: Set<RecordField> = []
    /// Retained and emptied roots, as Apollo Client keeps them (see ``RootState``).
    private(set) var roots = RootState()
    let store: RecordStore?
    /// Which records hold what the store holds of them (every one without a store).
    @exclusivity(unchecked) var loaded: LoadedRecords
    /// Whether each commit ends by unloading the base records, so that every read loads
    /// what it reads from the store (the engine's tests run this way over each store).
    var unloadsAfterCommit = false
    /// Where the write in progress staged each record (see ``Normalizer``).
    @exclusivity(unchecked) var stagingSlots = StagingSlots()

    init(store: RecordStore?) {
        self.store = store
        loaded = LoadedRecords(all: store == nil)
    }

    // MARK: values as seen through the optimistic layers

    @inline(__always) func value(_ record: UInt32, _ field: UInt32) -> StoredValue? {
        if !layers.isEmpty {
            for layer in layers.reversed() {
                if let value = layer.table.value(record, field) { return value }
            }
        }
        return base.value(record, field)
    }

    func recordExists(_ record: UInt32) -> Bool {
        base[record] != nil || layers.contains { $0.table[record] != nil }
    }

    /// The record's fields as visible (layers over base), in field order.
    func visibleFields(_ record: UInt32) -> [(UInt32, StoredValue)] {
        var result: [(UInt32, StoredValue)] = []
        var seen = Set<UInt32>()
        for table in layers.reversed().map(\.table) + [base] {
            guard let stored = table[record] else { continue }
            for (field, value) in zip(stored.fieldIDs, stored.values) where seen.insert(field).inserted {
                result.append((field, value))
            }
        }
        return result
    }

    /// The record's visible fields as JSON: field keys, and references named by key.
    func visibleObject(_ record: UInt32, keys: KeySpace) -> CacheObject {
        var object = CacheObject()
        for (field, value) in visibleFields(record) { object.appendNew(keys.fieldKey(field), keys.cacheValue(value)) }
        return object
    }

    // MARK: changing records

    /// Sets (or with nil removes) one field in the base table or a layer; records the
    /// change only if the visible value really changed. The record must be loaded
    /// (``EngineState/load(_:)``): its old values decide what changed.
    func setField(_ record: UInt32, _ field: UInt32, _ value: StoredValue?, layer: String? = nil, log: inout CommitLog) {
        setFields(record, CollectionOfOne((field, value)), layer: layer, log: &log)
    }

    /// Sets the fields of a staged record, as ``setField(_:_:_:layer:log:)`` does each; into
    /// an absent base record they move whole.
    func setFields(_ record: UInt32, _ fields: consuming StoredRecord, layer: String?, log: inout CommitLog) {
        assert(loaded.contains(record), "record #\(record) changed before it was loaded")
        guard layer == nil, layers.isEmpty, !base.exists(record), !fields.isEmpty else {
            let (ids, values) = (fields.fieldIDs, fields.values)
            if layer == nil { log.received.append((record, ids)) }   // a new record is received with the change set's
            setFields(record, ids.indices.lazy.map { (ids[$0], Optional(values[$0])) }, layer: layer, log: &log)
            return
        }
        let ids = fields.fieldIDs
        base.insert(record, fields)
        noteNewRecord(record, ids, log: &log)
    }

    /// Sets (or with nil removes) fields of one record, as ``setField(_:_:_:layer:log:)`` does each.
    func setFields<Fields: Collection>(_ record: UInt32, _ fields: Fields, layer: String? = nil, log: inout CommitLog)
    where Fields.Element == (UInt32, StoredValue?) {
        assert(loaded.contains(record), "record #\(record) changed before it was loaded")
        if layer == nil, layers.isEmpty {
            // The common case: no optimistic layers, so the base value is the visible one.
            for (field, value) in fields {
                let old = base.set(record, field, value)
                if old == value {
                    // The same value again (a refetch) still makes an invalidated field fresh.
                    if value != nil, !invalidated.isEmpty { revalidate(record, field, log: &log) }
                    continue
                }
                noteBaseChange(record, field, old: old, new: value, log: &log)
            }
            return
        }
        for (field, value) in fields {
            let visibleBefore = self.value(record, field)
            let old: StoredValue?
            if let layer, let index = layers.firstIndex(where: { $0.id == layer }) {
                old = layers[index].table.set(record, field, value)
            } else {
                old = base.set(record, field, value)
            }
            if old == value {
                if value != nil, layer == nil, !invalidated.isEmpty { revalidate(record, field, log: &log) }
                continue
            }
            log.note(.field(layer: layer, record: record, field: field, old: old))
            if layer == nil, store != nil { log.changes.noteStoreChange(record, field) }
            let visible = self.value(record, field)
            if visibleBefore != visible {
                log.changes.fields.append(RecordField(record: record, field: field))
                log.noteHistory(record, .field(field, old: visibleBefore, new: visible))
            }
            if value != nil, layer == nil, !invalidated.isEmpty { revalidate(record, field, log: &log) }
        }
    }

    /// The bookkeeping of a base field whose value changed from `old` to `new`: undo,
    /// write-through, the change set, the history, and (when written, not removed) freshness.
    private func noteBaseChange(_ record: UInt32, _ field: UInt32, old: StoredValue?, new: StoredValue?, log: inout CommitLog) {
        log.note(.field(layer: nil, record: record, field: field, old: old))
        if store != nil { log.changes.noteStoreChange(record, field) }
        log.changes.fields.append(RecordField(record: record, field: field))
        log.noteHistory(record, .field(field, old: old, new: new))
        if new != nil, !invalidated.isEmpty { revalidate(record, field, log: &log) }
    }

    /// The same for a record new to the base table, whose fields are `fields`: each check
    /// made once, and the change set names the record once.
    private func noteNewRecord(_ record: UInt32, _ fields: [UInt32], log: inout CommitLog) {
        if log.keepsUndo { for field in fields { log.undo.append(.field(layer: nil, record: record, field: field, old: nil)) } }
        if store != nil {
            // Emptied earlier in this commit (a record that changed type): the store's record
            // goes first, so that the fields it had do not stay beside the new ones.
            if log.changes.storeChanges[record] != nil { log.changes.removedRecords.insert(record) }
            log.changes.storeChanges[record] = .whole
        }
        log.noteNewRecord(record, fields: fields)
        if !invalidated.isEmpty { for field in fields { revalidate(record, field, log: &log) } }
    }

    /// A written field is no longer invalidated.
    private func revalidate(_ record: UInt32, _ field: UInt32, log: inout CommitLog) {
        let pair = RecordField(record: record, field: field)
        guard invalidated.remove(pair) != nil else { return }
        log.note(.invalidation(pair, wasInvalid: true))
        log.changes.fields.append(pair)
    }

    /// Removes the fields of a base record that `removes` picks, as ``setField(_:_:_:layer:log:)``
    /// with nil does each, in one pass over the record: removing many of a wide record's
    /// fields costs what its fields do, not what each removal's shift of the rest does.
    func removeFields(_ record: UInt32, log: inout CommitLog, where removes: (UInt32) -> Bool) {
        guard let stored = base.remove(record) else { return }
        var keptIDs: [UInt32] = [], keptValues: [StoredValue] = []
        for (field, old) in zip(stored.fieldIDs, stored.values) {
            guard removes(field) else {
                keptIDs.append(field)
                keptValues.append(old)
                continue
            }
            log.note(.field(layer: nil, record: record, field: field, old: old))
            if store != nil { log.changes.noteStoreChange(record, field) }
            // An optimistic layer's value of the field still shows: then nothing visible changed.
            if value(record, field) == nil {
                log.changes.fields.append(RecordField(record: record, field: field))
                log.noteHistory(record, .field(field, old: old, new: nil))
            }
        }
        if !keptIDs.isEmpty { base.insert(record, StoredRecord(fieldIDs: keptIDs, values: keptValues)) }
    }

    /// Removes a whole record from the base table (a root with it: it is no longer emptied but gone).
    func removeRecord(_ record: UInt32, log: inout CommitLog) {
        removeFields(record, log: &log) { _ in true }
        if roots.emptied.contains(record) {
            var gone = roots
            gone.emptied.remove(record)
            setRoots(gone, log: &log)
        }
        log.changes.removedRecords.insert(record)
        log.changes.storeChanges[record] = nil
    }

    /// Keeps a root record (`QUERY_ROOT`, …) whose last base field went as emptied, as
    /// Apollo Client keeps it (``RootState``); a root that still has fields is left as it is.
    func keepEmptiedRoot(_ record: UInt32, log: inout CommitLog) {
        guard base[record] == nil, !roots.emptied.contains(record) else { return }
        var emptied = roots
        emptied.emptied.insert(record)
        setRoots(emptied, log: &log)
    }

    /// Replaces the root state, as a step a failed commit undoes.
    func setRoots(_ new: RootState, log: inout CommitLog) {
        guard new != roots else { return }
        log.note(.roots(roots))
        roots = new
    }

    /// Takes back `steps`, a failed commit's undo log (oldest first), newest first.
    func revert(_ steps: [UndoStep]) {
        for step in steps.reversed() {
            switch step {
            case .field(let layer, let record, let field, let old):
                if let layer, let index = layers.firstIndex(where: { $0.id == layer }) {
                    layers[index].table.set(record, field, old)
                } else if layer == nil {
                    base.set(record, field, old)
                }
            case .invalidation(let pair, let wasInvalid):
                if wasInvalid { invalidated.insert(pair) } else { invalidated.remove(pair) }
            case .layerAdded(let id): layers.removeAll { $0.id == id }
            case .layerRemoved(let layer, let index): layers.insert(layer, at: min(index, layers.count))
            case .roots(let old): roots = old
            }
        }
    }

    // MARK: the store

    /// Hands the store what the commit changed (`changes`): of each record the fields it
    /// set and removed (a new record's, or one removed and made again, whole) with its
    /// `received` times (JSON text, when they changed), and the records removed.
    func writeThrough(_ changes: ChangeSet, keys: KeySpace, received: [UInt32: String]) throws(CacheError) {
        guard let store else { return }
        if changes.cleared, base.ids.isEmpty {
            do { try store.clear() } catch { throw .storage("\(error)") }
            return
        }
        guard !(changes.storeChanges.isEmpty && changes.removedRecords.isEmpty && received.isEmpty) else { return }
        var received = received
        var records: [RecordChange] = []
        var removed: [String] = []
        for (id, change) in changes.storeChanges {
            guard let stored = base[id] else {
                removed.append(keys.recordKey(id))
                continue
            }
            let remade = changes.removedRecords.contains(id)
            var fields = CacheObject()
            var removedFields: [String] = []
            switch remade ? .whole : change {
            case .whole:
                for (field, value) in zip(stored.fieldIDs, stored.values) { fields.appendNew(keys.fieldKey(field), keys.cacheValue(value)) }
            case .fields(var ids):
                // In the record's order, so a record made field by field is stored as it reads.
                for (field, value) in zip(stored.fieldIDs, stored.values) where ids.remove(field) != nil {
                    fields.appendNew(keys.fieldKey(field), keys.cacheValue(value))
                }
                removedFields = ids.map(keys.fieldKey)
            }
            if remade { removed.append(keys.recordKey(id)) }   // replaced: the stored record goes first
            records.append(RecordChange(key: keys.recordKey(id), fields: fields, removedFields: removedFields,
                                        received: received.removeValue(forKey: id)))
        }
        // Records received again, unchanged.
        for (id, times) in received.sorted(by: { $0.key < $1.key }) {
            records.append(RecordChange(key: keys.recordKey(id), fields: CacheObject(), received: times))
        }
        removed += changes.removedRecords.filter { base[$0] == nil }.map(keys.recordKey)
        do { try store.write(merging: records, removing: removed) } catch { throw .storage("\(error)") }
    }

    /// Puts a loaded record's fields into the base table (a load, not a change: no watcher
    /// hears of it, nothing is written through); a record absent there goes in whole.
    func insertLoaded(_ record: UInt32, _ fields: consuming StoredRecord) {
        guard base.exists(record) else {
            base.insert(record, fields)
            return
        }
        for (id, value) in zip(fields.fieldIDs, fields.values) { base.set(record, id, value) }
    }

    /// Forgets every loaded record, as if the cache had just opened over its store (which,
    /// after a commit, holds each of them as the base table does). Tests use it to make
    /// every read load what it reads.
    func unloadAll() {
        guard store != nil else { return }
        base = RecordTable()
        loaded = LoadedRecords(all: false)
    }
}
