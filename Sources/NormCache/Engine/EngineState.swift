/// Everything the engine holds, guarded by ``NormalizedCache``'s lock: interned keys,
/// the base records, optimistic layers, invalidations, watchers and compiled plans.
final class EngineState {
    let recordKeys: KeyInterner
    let fieldKeys: KeyInterner
    let keyBuilder = KeyBuilder()
    var base = RecordTable()
    var layers: [OptimisticLayer] = []
    var invalidated: Set<RecordField> = []
    /// Retained and emptied roots, as Apollo Client keeps them (see ``RootState``).
    var roots = RootState()
    var policies = TypePolicies()
    /// Whose answers reads and writes give where Apollo iOS and Apollo Client differ.
    var semantics = Semantics.apolloIOS
    var possibleTypes = PossibleTypes()
    /// The knowledge of the endpoint whose operation is being read or written, for the
    /// length of that call (``withSchema(_:_:)``); `nil`: the cache's own alone.
    private(set) var schema: SchemaKnowledge?
    let store: RecordStore?
    /// Which records hold what the store holds of them (every one without a store).
    var loaded: LoadedRecords
    /// Whether each commit ends by unloading the base records, so that every read loads
    /// what it reads from the store (the engine's tests run this way over each store).
    var unloadsAfterCommit = false
    var watchers = WatcherRegistry()
    var warnings: [String] = []
    /// Reads that found every field, and reads that did not.
    var hits = 0, misses = 0
    /// Where the write in progress staged each record (see ``Normalizer``).
    var stagingSlots = StagingSlots()

    /// Static field-key ids of each operation's fields, by `FieldPlan.index` (NC_ID_NONE
    /// where the key depends on variables). Keyed by identity, each with a weak reference
    /// to its operation: a plan the memo let go (``CompiledOperations``) may free its
    /// address for another, which must not be taken for it.
    private var fieldIDs: [ObjectIdentifier: OperationFieldIDs] = [:]
    /// When ``fieldIDs`` grows to this, the entries of freed operations go.
    private var fieldIDsPruneAt = 64
    /// The arguments each field key was built from, for Apollo Client snapshots.
    var fieldArguments: [UInt32: (name: String, arguments: [String: ArgumentValue])] = [:]

    /// The commit in progress: what changed so far and how to undo it.
    var changes = ChangeSet()
    /// The change set of the last commit, for a monitor.
    var lastCommit = ChangeSet()
    var undo: [UndoStep] = []
    var transactionDepth = 0
    /// Whether this commit can still fail after changing records (an explicit
    /// transaction, or a store to write through), so it must keep an undo log. A plain
    /// write is checked whole before it changes anything and needs none.
    var keepsUndo = false
    var explicitTransaction = false
    /// Possible types and the number of warnings when the commit began, for a rollback.
    private var possibleTypesBefore = PossibleTypes()
    private var warningsBefore = 0

    let typenameField: UInt32

    init(store: RecordStore?) throws(CacheError) {
        do {
            recordKeys = try KeyInterner()
            fieldKeys = try KeyInterner()
            typenameField = try fieldKeys.intern("__typename").rawValue
        } catch { throw .key(error) }
        self.store = store
        loaded = LoadedRecords(all: store == nil)
    }

    // MARK: schema knowledge

    /// Runs `body` with `schema` as the knowledge of the call in progress.
    func withSchema<R>(_ schema: SchemaKnowledge?, _ body: () throws(CacheError) -> R) throws(CacheError) -> R {
        let outer = self.schema
        self.schema = schema
        defer { self.schema = outer }
        return try body()
    }

    /// The name of the root type of operations of `kind` (`Query` unless a schema renames it).
    func rootType(_ kind: CompiledOperation.Kind) -> String { declaredTypes.rootTypes[kind] ?? "Query" }

    /// The schema that names the root types and types input object fields: the
    /// endpoint's when it has one, else the cache's own.
    var declaredTypes: PossibleTypes {
        if let schema, schema.possibleTypes.fromSchema { return schema.possibleTypes }
        return possibleTypes
    }

    /// The key fields and the key's type part of `typename`: the cache's policy, else the
    /// endpoint's, else that of an interface or union the type belongs to (in name order),
    /// or, for a type the schema does not define returned by a field whose type is
    /// `returnType` (an interface), that type's policy, else the default (`declared` false).
    func keying(for typename: String, returnedAs returnType: String? = nil) -> (fields: [String], group: String, declared: Bool)? {
        let unknown = returnType != nil && declaredTypes.fromSchema && !declaredTypes.definesObjectType(typename)
        let supertypes = unknown ? [returnType!] : declaredTypes.supertypes(of: typename)
        return policies.keying(for: typename, over: schema?.typePolicies, inheritingFrom: supertypes)
    }

    // MARK: keys

    func recordID(_ key: String) throws(CacheError) -> UInt32 {
        do { return try recordKeys.intern(key).rawValue } catch { throw .key(error) }
    }

    func fieldID(_ key: String) throws(CacheError) -> UInt32 {
        do { return try fieldKeys.intern(key).rawValue } catch { throw .key(error) }
    }

    /// The field-key id of a key given as UTF-8 bytes (a record's text, as loaded).
    func fieldID(utf8 key: UnsafeRawBufferPointer) throws(CacheError) -> UInt32 {
        do { return try fieldKeys.intern(utf8: key).rawValue } catch { throw .key(error) }
    }

    func recordKey(_ id: UInt32) -> String { recordKeys.key(for: KeyID(rawValue: id)) ?? "#\(id)" }
    func fieldKey(_ id: UInt32) -> String { fieldKeys.key(for: KeyID(rawValue: id)) ?? "#\(id)" }
    /// `Trip:2.name`.
    func name(_ field: RecordField) -> String {
        recordKey(field.record) + "." + fieldKey(field.field)
    }

    /// The static field ids of `operation`, interned the first time it is seen.
    func staticFieldIDs(_ operation: CompiledOperation) throws(CacheError) -> [UInt32] {
        if let known = fieldIDs[ObjectIdentifier(operation)], known.operation === operation { return known.ids }
        var ids = [UInt32](repeating: NC_ID_NONE_VALUE, count: operation.fieldCount)
        func visit(_ plan: SelectionPlan) throws(CacheError) {
            for field in plan.fields {
                if let key = field.staticKey {
                    ids[field.index] = try fieldID(key)
                    if !field.arguments.isEmpty { fieldArguments[ids[field.index]] = (field.name, arguments(of: field, variables: CacheObject())) }
                }
                if let children = field.selections { try visit(children) }
            }
        }
        try visit(operation.selections)
        if fieldIDs.count >= fieldIDsPruneAt {
            fieldIDs = fieldIDs.filter { $0.value.operation != nil }
            fieldIDsPruneAt = max(64, fieldIDs.count * 2)
        }
        fieldIDs[ObjectIdentifier(operation)] = OperationFieldIDs(operation: operation, ids: ids)
        return ids
    }

    /// The field-key id of `field` under `variables` (coerced: ``VariableCoercion``).
    @inline(__always)
    func fieldID(of field: FieldPlan, ids: [UInt32], variables: CacheObject) throws(CacheError) -> UInt32 {
        let id = ids[field.index]
        if id != NC_ID_NONE_VALUE { return id }
        let arguments = self.arguments(of: field, variables: variables)
        let key: String
        do { key = try keyBuilder.fieldKey(field.name, arguments: arguments) } catch { throw .key(error) }
        let fid = try fieldID(key)
        if !arguments.isEmpty, fieldArguments[fid] == nil { fieldArguments[fid] = (field.name, arguments) }
        return fid
    }

    /// `field`'s arguments with `variables` substituted; arguments of variables not given are left out.
    func arguments(of field: FieldPlan, variables: CacheObject) -> [String: ArgumentValue] {
        var arguments: [String: ArgumentValue] = [:]
        for argument in field.arguments {
            if let value = argument.value.resolve(with: variables) { arguments[argument.name] = value }
        }
        return arguments
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
    func visibleObject(_ record: UInt32) -> CacheObject {
        var object = CacheObject()
        for (field, value) in visibleFields(record) { object.appendNew(fieldKey(field), cacheValue(value)) }
        return object
    }

    // MARK: changing records

    /// Sets (or with nil removes) one field in the base table or a layer; records the
    /// change only if the visible value really changed. The record must be loaded
    /// (``load(_:)``): its old values decide what changed.
    func setField(_ record: UInt32, _ field: UInt32, _ value: StoredValue?, layer: String? = nil) {
        setFields(record, CollectionOfOne((field, value)), layer: layer)
    }

    /// Sets the fields of a staged record, as ``setField(_:_:_:layer:)`` does each; into
    /// an absent base record they move whole.
    func setFields(_ record: UInt32, _ fields: consuming StoredRecord, layer: String?) {
        assert(loaded.contains(record), "\(recordKey(record)) changed before it was loaded")
        guard layer == nil, layers.isEmpty, !base.exists(record), !fields.isEmpty else {
            let (ids, values) = (fields.fieldIDs, fields.values)
            setFields(record, ids.indices.lazy.map { (ids[$0], Optional(values[$0])) }, layer: layer)
            return
        }
        let ids = fields.fieldIDs
        base.insert(record, fields)
        noteNewRecord(record, ids)
    }

    /// Sets (or with nil removes) fields of one record, as ``setField(_:_:_:layer:)`` does each.
    func setFields<Fields: Collection>(_ record: UInt32, _ fields: Fields, layer: String? = nil)
    where Fields.Element == (UInt32, StoredValue?) {
        assert(loaded.contains(record), "\(recordKey(record)) changed before it was loaded")
        if layer == nil, layers.isEmpty {
            // The common case: no optimistic layers, so the base value is the visible one.
            for (field, value) in fields {
                let old = base.set(record, field, value)
                if old == value {
                    // The same value again (a refetch) still makes an invalidated field fresh.
                    if value != nil, !invalidated.isEmpty { revalidate(record, field) }
                    continue
                }
                noteBaseChange(record, field, old: old, written: value != nil)
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
                if value != nil, layer == nil, !invalidated.isEmpty { revalidate(record, field) }
                continue
            }
            if keepsUndo { undo.append(.field(layer: layer, record: record, field: field, old: old)) }
            if layer == nil, store != nil { changes.noteStoreChange(record, field) }
            if visibleBefore != self.value(record, field) { changes.fields.append(RecordField(record: record, field: field)) }
            if value != nil, layer == nil, !invalidated.isEmpty { revalidate(record, field) }
        }
    }

    /// The bookkeeping of a base field whose value changed from `old`: undo, write-through,
    /// the change set, and (when `written`, not removed) freshness.
    private func noteBaseChange(_ record: UInt32, _ field: UInt32, old: StoredValue?, written: Bool) {
        if keepsUndo { undo.append(.field(layer: nil, record: record, field: field, old: old)) }
        if store != nil { changes.noteStoreChange(record, field) }
        changes.fields.append(RecordField(record: record, field: field))
        if written, !invalidated.isEmpty { revalidate(record, field) }
    }

    /// The same for a record new to the base table, whose fields are `fields`: each check
    /// made once, and the change set names the record once.
    private func noteNewRecord(_ record: UInt32, _ fields: [UInt32]) {
        if keepsUndo { for field in fields { undo.append(.field(layer: nil, record: record, field: field, old: nil)) } }
        if store != nil {
            // Emptied earlier in this commit (a record that changed type): the store's record
            // goes first, so that the fields it had do not stay beside the new ones.
            if changes.storeChanges[record] != nil { changes.removedRecords.insert(record) }
            changes.storeChanges[record] = .whole
        }
        changes.noteNewRecord(record, fields: fields)
        if !invalidated.isEmpty { for field in fields { revalidate(record, field) } }
    }

    /// A written field is no longer invalidated.
    private func revalidate(_ record: UInt32, _ field: UInt32) {
        let pair = RecordField(record: record, field: field)
        guard invalidated.remove(pair) != nil else { return }
        if keepsUndo { undo.append(.invalidation(pair, wasInvalid: true)) }
        changes.fields.append(pair)
    }

    /// Removes the fields of a base record that `removes` picks, as ``setField(_:_:_:layer:)``
    /// with nil does each, in one pass over the record: removing many of a wide record's
    /// fields costs what its fields do, not what each removal's shift of the rest does.
    func removeFields(_ record: UInt32, where removes: (UInt32) -> Bool) {
        guard let stored = base.remove(record) else { return }
        var keptIDs: [UInt32] = [], keptValues: [StoredValue] = []
        for (field, old) in zip(stored.fieldIDs, stored.values) {
            guard removes(field) else {
                keptIDs.append(field)
                keptValues.append(old)
                continue
            }
            if keepsUndo { undo.append(.field(layer: nil, record: record, field: field, old: old)) }
            if store != nil { changes.noteStoreChange(record, field) }
            // An optimistic layer's value of the field still shows: then nothing visible changed.
            if value(record, field) == nil { changes.fields.append(RecordField(record: record, field: field)) }
        }
        if !keptIDs.isEmpty { base.insert(record, StoredRecord(fieldIDs: keptIDs, values: keptValues)) }
    }

    /// Removes a whole record from the base table (a root with it: it is no longer emptied but gone).
    func removeRecord(_ record: UInt32) {
        removeFields(record) { _ in true }
        if roots.emptied.contains(record) {
            var gone = roots
            gone.emptied.remove(record)
            setRoots(gone)
        }
        changes.removedRecords.insert(record)
        changes.storeChanges[record] = nil
    }

    // MARK: transactions

    /// Runs `body` as one commit: on success the changes are written through to the
    /// store and watchers hear of them once; on a throw every change is undone.
    /// `checkedFirst`: the body validates everything before it changes anything (a
    /// normalized write), so unless a store or an outer transaction can still fail
    /// afterwards, no undo log is kept.
    func commit<R>(cause: ChangeCause, checkedFirst: Bool = false, _ body: () throws(CacheError) -> R) throws(CacheError) -> (R, [WatchDelivery]) {
        if transactionDepth == 0 {
            changes = ChangeSet()
            changes.cause = cause
            undo = []
            keepsUndo = store != nil || explicitTransaction || !checkedFirst
            possibleTypesBefore = possibleTypes
            warningsBefore = warnings.count
        }
        transactionDepth += 1
        let result: R
        do {
            result = try body()
        } catch {
            transactionDepth -= 1
            if transactionDepth == 0 { rollBack() }
            throw error
        }
        transactionDepth -= 1
        guard transactionDepth == 0 else { return (result, []) }
        do { try writeThrough() } catch {
            rollBack()
            throw error
        }
        let deliveries = watchers.notify(changes, state: self)
        lastCommit = changes
        changes = ChangeSet()
        undo = []
        if unloadsAfterCommit { unloadAll() }
        return (result, deliveries)
    }

    private func rollBack() {
        // What writes learned and warned of goes with them.
        possibleTypes = possibleTypesBefore
        if warnings.count > warningsBefore { warnings.removeSubrange(warningsBefore...) }
        for step in undo.reversed() {
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
        undo = []
        changes = ChangeSet()
    }

    /// Hands the store what the commit changed: of each record the fields it set and
    /// removed (a new record's, or one removed and made again, whole), and the records
    /// removed.
    private func writeThrough() throws(CacheError) {
        guard let store else { return }
        if changes.cleared, base.ids.isEmpty {
            do { try store.clear() } catch { throw .storage("\(error)") }
            return
        }
        guard !(changes.storeChanges.isEmpty && changes.removedRecords.isEmpty) else { return }
        var records: [RecordChange] = []
        var removed: [String] = []
        for (id, change) in changes.storeChanges {
            guard let stored = base[id] else {
                removed.append(recordKey(id))
                continue
            }
            let remade = changes.removedRecords.contains(id)
            var fields = CacheObject()
            var removedFields: [String] = []
            switch remade ? .whole : change {
            case .whole:
                for (field, value) in zip(stored.fieldIDs, stored.values) { fields.appendNew(fieldKey(field), cacheValue(value)) }
            case .fields(var ids):
                // In the record's order, so a record made field by field is stored as it reads.
                for (field, value) in zip(stored.fieldIDs, stored.values) where ids.remove(field) != nil {
                    fields.appendNew(fieldKey(field), cacheValue(value))
                }
                removedFields = ids.map(fieldKey)
            }
            if remade { removed.append(recordKey(id)) }   // replaced: the stored record goes first
            records.append(RecordChange(key: recordKey(id), fields: fields, removedFields: removedFields))
        }
        removed += changes.removedRecords.filter { base[$0] == nil }.map(recordKey)
        do { try store.write(merging: records, removing: removed) } catch { throw .storage("\(error)") }
    }
}

/// The static field ids of one operation, and the operation while it lives.
private struct OperationFieldIDs {
    weak var operation: CompiledOperation?
    let ids: [UInt32]
}

/// NC_ID_NONE as a Swift constant (the C macro's value).
let NC_ID_NONE_VALUE = UInt32.max
