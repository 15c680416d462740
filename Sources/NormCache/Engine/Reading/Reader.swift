/// Reads an operation's selections out of the records, following references.
struct Reader {
    let state: EngineState
    let operation: CompiledOperation
    let ids: FieldIDs
    /// Coerced, defaults filled (``VariableCoercion``).
    let variables: CacheObject
    /// The base records, read directly when no optimistic layer lies over them (`layered`
    /// false): a read changes nothing but what it loads, so a copy of the table is only a
    /// reference to it (let go while a load adds to the table, see ``load(_:)``).
    var base: RecordTable
    let layered: Bool
    let checksInvalidation: Bool
    /// Whether the endpoint has field policies: only then may an absent field redirect.
    let followsFieldPolicies: Bool
    var dependencies: [RecordField] = []
    var missing: [String] = []
    var stale: [String] = []
    var redirects: [CacheRedirect] = []
    /// Deferred fields (`@defer`) the records lack, read as pending (``ReadResult/pending``).
    var pending: [String] = []
    /// What the read keeps beyond its result, when asked (``ReadTrace``); nil for a plain read.
    var trace: ReadTrace?
    /// What the read keeps to judge fields' ages, when a field can be stale (``ReadAges``);
    /// nil otherwise, and then a read pays one nil test a field for freshness.
    private var ages: ReadAges?
    /// The operation's root record and its type, the parent type of its fields' policies.
    private var root: (record: UInt32, typename: String) = (NC_ID_NONE_VALUE, "")
    private var missingNames: Set<String> = []
    /// The fields noted stale but read (within max stale), once each.
    private var staleReadNames: Set<String> = []
    /// Every absent field the read met, one met before counted again (``readLeniently(_:)``).
    private var missesMet = 0
    /// How many lenient reads the read is inside: their results are not kept for reuse.
    private var lenientDepth = 0
    /// How many lists of references the read is inside, and the last record read under
    /// each selection there, with its result (``readReferenced(_:plan:)``).
    private var listDepth = 0
    private var lastRead: [(plan: ObjectIdentifier, record: UInt32, result: CacheObject)] = []

    init(state: EngineState, operation: CompiledOperation, variables: CacheObject) throws(CacheError) {
        self.state = state
        self.base = state.records.base
        self.layered = !state.records.layers.isEmpty
        self.checksInvalidation = !state.records.invalidated.isEmpty
        self.followsFieldPolicies = state.schema.endpoint?.fieldPolicies.isEmpty == false
        self.ages = AgeJudge.judges(state) ? ReadAges(state) : nil
        self.operation = operation
        self.ids = try state.fieldIDs(of: operation)
        self.variables = variables
    }

    static func read(_ operation: CompiledOperation, variables: CacheObject, partial: Bool, state: EngineState) throws(CacheError) -> ReadResult {
        var reader = try Reader(state: state, operation: operation, variables: variables)
        let data = try reader.readOperation()
        let complete = reader.missing.isEmpty
        var result = ReadResult(data: complete || partial ? .object(data) : nil, missing: reader.missing,
                                stale: reader.stale, redirects: reader.redirects, dependencies: reader.dependencies)
        result.pending = reader.pending
        return result
    }

    /// What the cache holds of `operation`, a field it misses read as null with an error at
    /// its response path (``ReadTrace/fillsHoles``).
    static func readFillingHoles(_ operation: CompiledOperation, variables: CacheObject, state: EngineState) throws(CacheError) -> ReadResult {
        var reader = try Reader(state: state, operation: operation, variables: variables)
        let trace = ReadTrace(fillsHoles: true)
        reader.trace = trace
        let data = try reader.readOperation()
        return ReadResult(data: .object(data), missing: reader.missing, stale: reader.stale, redirects: reader.redirects,
                          dependencies: reader.dependencies, errors: trace.holeErrors)
    }

    /// Reads the operation from its root; what it found and missed stays in the reader.
    mutating func readOperation() throws(CacheError) -> CacheObject {
        root = (try state.keys.recordID(operation.kind.rootKey), state.schema.rootType(operation.kind))
        return try readRecord(root.record, plan: operation.selections, typename: root.typename)
    }

    /// Loads `records` from the store where they are not loaded yet. The copy of the base
    /// table goes first, so that the load adds to the table in place instead of copying it.
    private mutating func load<Records: Sequence<UInt32>>(_ records: Records) throws(CacheError) {
        base = RecordTable()
        defer { base = state.records.base }
        try state.load(records)
    }

    @inline(__always)
    private mutating func load(_ record: UInt32) throws(CacheError) {
        if !state.records.loaded.contains(record) { try load(CollectionOfOne(record)) }
    }

    private mutating func readRecord(_ record: UInt32, plan: SelectionPlan, typename knownTypename: String?) throws(CacheError) -> CacheObject {
        try load(record)
        var typename = knownTypename ?? ""
        if knownTypename == nil, plan.isConditional || ages != nil, let name = state.typename(of: record) {
            typename = name
        }
        let maxAges = ages?.maxAges(of: plan, typename: typename, rootField: record == root.record,
                                    schema: state.schema.declaredTypes) ?? []
        let outer = ages?.enter(record, received: state.received)
        defer { if let outer { ages!.leave(outer) } }
        if plan.isConditional {
            var result = CacheObject(capacity: plan.fields.count)
            // A deferred fragment is shown whole or not at all (pending), as Apollo iOS reads it.
            var deferred = DeferredParts()
            try plan.forEachField { (index, field) throws(CacheError) in
                guard let read = guardedRead(of: field, typename: typename) else { return }
                if ages != nil { ages!.field = maxAges[index] }
                let required = read == .required, part = read.pendingPart
                let pendingBefore = pending.count
                let value = required ? try readFieldOrHole(field, of: record, near: index)
                    : try readLeniently(pendingWhenMissed: part != nil) { reader throws(CacheError) in
                        try reader.readField(field, of: record, near: index, required: false)
                    }
                guard let part else {
                    if let value { merge(value, as: field.responseKey, into: &result) }
                    return
                }
                if let value { deferred.found.append((part, field.responseKey, value)) } else {
                    deferred.incomplete.insert(part)
                    if pending.count == pendingBefore {   // absent itself, not a field below it
                        pending.append(state.keys.name(RecordField(record: record, field: try state.keys.fieldID(of: field, ids: ids, variables: variables))))
                    }
                }
            }
            for (part, key, value) in deferred.found where !deferred.incomplete.contains(part) { merge(value, as: key, into: &result) }
            return result
        }
        // Every field applies: the result shares the plan's response keys unless one is absent.
        var values: [CacheValue] = []
        values.reserveCapacity(plan.fields.count)
        var keys: [String]? = nil
        try plan.forEachField { (index, field) throws(CacheError) in
            if ages != nil { ages!.field = maxAges[index] }
            if let value = try readFieldOrHole(field, of: record, near: index) {
                values.append(value)
                keys?.append(field.responseKey)
            } else if keys == nil {
                keys = Array(plan.responseKeys[..<index])
            }
        }
        return CacheObject(keys: keys ?? plan.responseKeys, values: values)
    }

    /// ``readField(_:of:near:required:)``, but while filling holes a field it misses reads
    /// as null, with an error at its response path, as Apollo Kotlin's partial cache reads
    /// answer (the message is theirs: `Object 'Trip:1' has no field named 'name'`).
    /// (A plain read's path is one nil test; what a trace needs is out of line, so the
    /// closure each field is read in stays as small as it was.)
    @inline(__always)
    private mutating func readFieldOrHole(_ field: FieldPlan, of record: UInt32, near hint: Int) throws(CacheError) -> CacheValue? {
        if trace == nil { return try readField(field, of: record, near: hint) }
        return try readTracedField(field, of: record, near: hint)
    }

    @inline(never)
    private mutating func readTracedField(_ field: FieldPlan, of record: UInt32, near hint: Int) throws(CacheError) -> CacheValue? {
        guard let trace, trace.fillsHoles else { return try readField(field, of: record, near: hint) }
        trace.path.append(.string(field.responseKey))
        defer { trace.path.removeLast() }
        let misses = missesMet
        let value = try readField(field, of: record, near: hint)
        guard value == nil, missesMet > misses else { return value }
        let fid = try state.keys.fieldID(of: field, ids: ids, variables: variables)
        let (recordKey, fieldKey) = (state.keys.recordKey(record), state.keys.fieldKey(fid))
        let message = state.records.value(record, fid) == nil ? "Object '\(recordKey)' has no field named '\(fieldKey)'"
            : "Object '\(recordKey)' holds '\(fieldKey)' in a form the operation cannot read (a null its type refuses, or another shape)"
        trace.holeErrors.append(["message": .string(message), "path": .list(trace.path), "extensions": ["missing": .string(trace.lastMissing)]])
        return .null
    }

    /// The value of one field of `record`, references followed, with the field noted as a
    /// dependency; `nil` when it is absent (noted as missing unless it may be, or is not
    /// `required`) or holds a value of the wrong kind for its selection (``mismatch(at:)``). `hint` is the field's place in its selection, where a record written by
    /// it keeps the field.
    private mutating func readField(_ field: FieldPlan, of record: UInt32, near hint: Int, required: Bool = true) throws(CacheError) -> CacheValue? {
        let fid = try state.keys.fieldID(of: field, ids: ids, variables: variables)
        let pair = RecordField(record: record, field: fid)
        dependencies.append(pair)
        guard let value = layered ? state.records.value(record, fid) : base.value(record, fid, near: hint) else {
            // A response may leave out a __typename its document did not ask for (the
            // writer skips it), so a record without one is not a miss; a gone record is.
            if field.name == "__typename", state.records.recordExists(record) { return nil }
            if followsFieldPolicies, let redirected = try redirect(field, at: pair) { return redirected }
            if required {
                noteMissing(state.keys.name(pair))
                trace?.absent.append((pair, field))
            }
            return nil
        }
        if checksInvalidation, state.records.invalidated.contains(pair) { noteMissing(state.keys.name(pair), stale: true) }
        if ages?.fieldMayBeStale == true { judgeAge(of: pair) }
        guard let selections = field.selections else {
            if case .value(let value) = value { return refusingNull(value, of: field, at: pair) }
            return mismatch(at: state.keys.name(pair))  // a record where the operation asks for a scalar
        }
        guard ages != nil else { return try resolve(value, selections: selections, at: pair).flatMap { refusingNull($0, of: field, at: pair) } }
        // The objects below are read under this field's max age.
        let outer = ages!.parent
        ages!.parent = ages!.field
        defer { ages!.parent = outer }
        return try resolve(value, selections: selections, at: pair).flatMap { refusingNull($0, of: field, at: pair) }
    }

    /// Notes the field `pair` stale when it is as old as its max age or older (the field's,
    /// or its response's if less): missing too when older than that and `.maxstale` together.
    /// A `__typename` never is: an object's type does not change; nor is a value an
    /// optimistic layer holds, which no response sent. (Called only for a field that may
    /// be: ``ReadAges/fieldMayBeStale``.)
    @inline(never)
    private mutating func judgeAge(of pair: RecordField) {
        let (judge, maxAge) = (ages!.judge, ages!.field)
        guard let received = state.received.received(pair.record, pair.field),
              judge.now - received.at >= min(maxAge, received.maxAge ?? .infinity),
              pair.field != state.keys.typenameField, let verdict = judge.verdict(received, maxAge: maxAge),
              !layered || !state.records.layers.contains(where: { $0.table.value(pair.record, pair.field) != nil }) else { return }
        let name = state.keys.name(pair)
        trace?.ages[name] = verdict
        if verdict.missing { noteMissing(name, stale: true) } else if staleReadNames.insert(name).inserted { stale.append(name) }
    }

    /// `value`, unless under Apollo iOS's semantics it holds a null where the schema
    /// declares the field (or its list's items) non-null: then the field is a miss, as
    /// Apollo iOS's cache read fails on it (`GraphQLExecutor` answers a null for a
    /// non-null type with `JSONDecodingError.nullValue`), where Apollo Client returns the
    /// null. Such a null is written from a response with errors, or set by hand. The
    /// schema is looked up only for a value that holds a null.
    /// (Inlined: the common value, which holds no null, costs one look at its kind.)
    @inline(__always)
    private mutating func refusingNull(_ value: CacheValue, of field: FieldPlan, at pair: RecordField) -> CacheValue? {
        guard Self.holdsNull(value) else { return value }
        return refusingHeldNull(value, of: field, at: pair)
    }

    /// ``refusingNull(_:of:at:)`` for a value that holds a null.
    @inline(never)
    private mutating func refusingHeldNull(_ value: CacheValue, of field: FieldPlan, at pair: RecordField) -> CacheValue? {
        guard state.schema.semantics == .apolloIOS, let parentType = typename(of: pair.record),
              let declared = state.schema.declaredTypes.outputFields(of: parentType)?[field.name],
              state.schema.declaredTypes.misfit(of: value, to: declared) != nil else { return value }
        return mismatch(at: state.keys.name(pair))
    }

    /// Whether `value` is null or a list holding one at any depth (its objects' fields are
    /// read, and checked, on their own).
    @inline(__always)
    private static func holdsNull(_ value: CacheValue) -> Bool {
        switch value {
        case .null: true
        case .list(let items): listHoldsNull(items)
        default: false
        }
    }

    private static func listHoldsNull(_ items: [CacheValue]) -> Bool { items.contains(where: holdsNull) }

    /// The value of the absent field `pair` when its field policy names records that all
    /// exist: they are read under the field's selections (their absent fields are the
    /// missing ones) and the redirect is noted. `nil` otherwise: then the field itself is
    /// missing, and the read depends on the fields of the named records that do not exist,
    /// to be read again when they come. (It depends on the absent field already.)
    @inline(never)
    private mutating func redirect(_ field: FieldPlan, at pair: RecordField) throws(CacheError) -> CacheValue? {
        guard let selections = field.selections, let parentType = typename(of: pair.record),
              let targets = try state.schema.redirectTargets(of: field, on: parentType, variables: variables, keys: state.keys) else { return nil }
        var records: [UInt32] = []
        for keys in targets.candidates {
            var ids: [UInt32] = []
            for key in keys { ids.append(try recordID(forKey: key)) }
            try load(ids)
            if let found = ids.first(where: state.records.recordExists) {
                records.append(found)
            } else {
                for id in ids { try noteDangling(id, plan: selections) }
            }
        }
        guard records.count == targets.candidates.count else { return nil }
        redirects.append(CacheRedirect(field: state.keys.name(pair), records: records.map(state.keys.recordKey)))
        let target: StoredValue = targets.isList ? .list(records.map(StoredValue.reference)) : .reference(records[0])
        return try resolve(target, selections: selections, at: pair)
    }

    /// The type of the object `record` holds: the root's, or its stored `__typename`.
    private func typename(of record: UInt32) -> String? {
        record == root.record ? root.typename : state.typename(of: record)
    }

    /// Lists a record-field key as missing (and stale: present but invalidated), once
    /// however often the read meets it.
    private mutating func noteMissing(_ name: String, stale isStale: Bool = false) {
        if !isStale { missesMet += 1 }  // a stale field is there: it does not make a value misfit
        trace?.lastMissing = name
        guard missingNames.insert(name).inserted else { return }
        missing.append(name)
        if isStale { stale.append(name) }
    }

    /// The record a single reference names, read under `plan`. Below a list's items the
    /// same reference may come once per item (each post's author), and the same record
    /// under the same selection reads the same within one read: so there the last one
    /// read under each selection is kept, and a record met again shares that result
    /// instead of being read again. (Its fields are already among the dependencies, and
    /// the missing if any.) Elsewhere a selection is read once, and nothing is kept.
    private mutating func readReferenced(_ record: UInt32, plan: SelectionPlan) throws(CacheError) -> CacheObject {
        guard listDepth > 0, lenientDepth == 0, trace?.fillsHoles != true else { return try readRecord(record, plan: plan, typename: nil) }
        let id = ObjectIdentifier(plan)
        let last = lastRead.firstIndex { $0.plan == id }
        if let last, lastRead[last].record == record { return lastRead[last].result }
        let result = try readRecord(record, plan: plan, typename: nil)
        if let last { lastRead[last] = (id, record, result) } else { lastRead.append((id, record, result)) }
        return result
    }

    /// A value of the wrong kind for its selection (a scalar where an object is selected, a
    /// record where a scalar is) is a miss of the field `name`, as Apollo iOS's cache read
    /// fails on it: the network must answer it again. (`nil`, for the field's value.)
    private mutating func mismatch(at name: String) -> CacheValue? {
        noteMissing(name)
        return nil
    }

    /// A kept value under `selections`: references followed by their record ids; `nil`
    /// when it holds a scalar where the selections ask for an object (noted missing).
    private mutating func resolve(_ value: StoredValue, selections: SelectionPlan, at pair: RecordField) throws(CacheError) -> CacheValue? {
        switch value {
        case .reference(let record):
            return .object(try readReferenced(record, plan: selections))
        case .list(let items):
            // The records the list names, loaded together: one call to the store, not one per item.
            if !state.records.loaded.all { try load(items.lazy.compactMap { if case .reference(let record) = $0 { record } else { nil } }) }
            var resolved: [CacheValue] = []
            resolved.reserveCapacity(items.count)
            listDepth += 1
            defer { listDepth -= 1 }
            for index in items.indices {
                switch items[index] {
                case .reference(let record):
                    if leavesOut(record) {
                        try noteDangling(record, plan: selections)
                        continue
                    }
                    let filling = trace?.fillsHoles == true
                    if filling { trace!.path.append(CacheValue(index)) }
                    resolved.append(.object(try readRecord(record, plan: selections, typename: nil)))
                    if filling { trace!.path.removeLast() }
                case .value(let item):
                    let path: String = if case .object = item { ".\(index)" } else { "" }
                    guard let item = try resolveInline(item, selections: selections, at: pair, path: path) else { return nil }
                    resolved.append(item)
                case .list:
                    let filling = trace?.fillsHoles == true
                    if filling { trace!.path.append(CacheValue(index)) }
                    defer { if filling { trace!.path.removeLast() } }
                    guard let item = try resolve(items[index], selections: selections, at: pair) else { return nil }
                    resolved.append(item)
                }
            }
            return .list(resolved)
        case .value(let value):
            return try resolveInline(value, selections: selections, at: pair)
        }
    }

    /// Whether a list leaves out its reference to `record`: under Apollo Client's semantics,
    /// when the record does not exist (evicted, or never stored), as Apollo Client reads
    /// lists. Under Apollo iOS's the item is read as a single reference is, so its fields
    /// are missing and the read is a miss, as Apollo iOS's cache read fails on a record it
    /// cannot load.
    @inline(__always)
    private func leavesOut(_ record: UInt32) -> Bool {
        state.schema.semantics == .apolloClient && !state.records.recordExists(record)
    }

    /// The dependencies of a list item left out (``leavesOut(_:)``), or of a redirect's
    /// record that does not exist: the record's fields, so that the read is read again
    /// when the record comes back.
    private mutating func noteDangling(_ record: UInt32, plan: SelectionPlan) throws(CacheError) {
        for field in plan.fields { dependencies.append(RecordField(record: record, field: try state.keys.fieldID(of: field, ids: ids, variables: variables))) }
    }

    /// The record `key` names (interned if it was never met): a reference kept as a key, a
    /// redirect's target.
    private func recordID(forKey key: String) throws(CacheError) -> UInt32 {
        if let id = state.keys.recordKeys.find(key) { return id.rawValue }
        return try state.keys.recordID(key)
    }

    /// `value` of the record field `pair` when it holds no record ids: null, objects kept
    /// inline (restored from an Apollo Client snapshot) and lists of them, whose references
    /// are keys; `path` names the place of an inline object's member below that field
    /// (`.settings.theme`) for ``missing``. `nil` when it holds a scalar where `selections`
    /// ask for an object (noted missing).
    private mutating func resolveInline(_ value: CacheValue, selections: SelectionPlan?, at pair: RecordField, path: String = "") throws(CacheError) -> CacheValue? {
        guard let selections else { return StoredValue.holdsReference(value) ? mismatch(at: state.keys.name(pair) + path) : value }
        switch value {
        case .reference(let key):
            return .object(try readRecord(try recordID(forKey: key), plan: selections, typename: nil))
        case .list(let items):
            var resolved: [CacheValue] = []
            resolved.reserveCapacity(items.count)
            for (index, item) in items.enumerated() {
                if case .reference(let key) = item {
                    let record = try recordID(forKey: key)
                    try load(record)
                    if leavesOut(record) {
                        try noteDangling(record, plan: selections)
                        continue
                    }
                    resolved.append(.object(try readRecord(record, plan: selections, typename: nil)))
                } else {
                    let itemPath: String = if case .object = item { path + ".\(index)" } else { path }
                    guard let item = try resolveInline(item, selections: selections, at: pair, path: itemPath) else { return nil }
                    resolved.append(item)
                }
            }
            return .list(resolved)
        case .object(let object):
            // An object kept inline (restored from an Apollo Client snapshot): its members are
            // field keys, and a member it lacks is missing like a record's field.
            var typename = ""
            if case .string(let name)? = object["__typename"] { typename = name }
            var result = CacheObject()
            for field in selections.fields {
                var required = true
                if selections.isConditional {
                    guard let read = guardedRead(of: field, typename: typename) else { continue }
                    required = read == .required
                }
                let key = try state.keys.fieldKey(state.keys.fieldID(of: field, ids: ids, variables: variables))
                guard let member = object[key] else {
                    if field.name != "__typename", required { noteMissing(state.keys.name(pair) + path + "." + key) }
                    continue
                }
                let resolved = required ? try resolveInline(member, selections: field.selections, at: pair, path: path + "." + key)
                    : try readLeniently { reader throws(CacheError) in
                        try reader.resolveInline(member, selections: field.selections, at: pair, path: path + "." + key)
                    }
                guard let resolved else { continue }
                if selections.isConditional { merge(resolved, as: field.responseKey, into: &result) }
                else { result[field.responseKey] = resolved }
            }
            return .object(result)
        case .null:
            return value
        default:
            return mismatch(at: state.keys.name(pair) + path)
        }
    }

    /// The fields of deferred fragments a read of one object met: each fragment's found
    /// values, shown only when none of its fields was missing.
    private struct DeferredParts {
        var found: [(part: Int, key: String, value: CacheValue)] = []
        var incomplete: Set<Int> = []
    }

    /// How a guarded field is read for an object of type `typename`: by the writer's rule
    /// (``SchemaContext/applicability(of:to:in:variables:shownBy:)``, asked once a field).
    private enum GuardedRead: Equatable {
        /// It applies: absent, it is missing.
        case required
        /// Read if the record has all of it (``readLeniently(_:)``), never called missing:
        /// a field under a type condition nothing decides (`pendingPart` nil), so a
        /// fragment's stored fields are not left out of the answer; or, under Apollo iOS's
        /// semantics, a field of the deferred fragment `pendingPart`
        /// (``FieldPlan/deferredPart(under:)``), which a missing field leaves pending.
        case lenient(pendingPart: Int?)

        var pendingPart: Int? {
            if case .lenient(let part) = self { part } else { nil }
        }
    }

    /// How `field` is read for an object of type `typename` (``GuardedRead``); nil when
    /// it does not apply.
    private func guardedRead(of field: FieldPlan, typename: String) -> GuardedRead? {
        switch state.schema.applicability(of: field, to: typename, in: operation, variables: variables) {
        case .applies: .required
        case .undecided: .lenient(pendingPart: nil)
        case .deferred: state.schema.semantics == .apolloClient ? .required : .lenient(pendingPart: field.deferredPart(under: variables))
        case .leftOut, .notSatisfying: nil
        }
    }

    /// Reads a field under a type condition nothing decides, as the writer writes one: its
    /// value when the records hold all that its selection asks for, else nil, with nothing
    /// it missed reported (it may not apply). The read still depends on every field it
    /// looked at, so a later write that completes it is heard.
    /// A deferred field's misses are its ``pending`` fields (`pendingWhenMissed`).
    private mutating func readLeniently(pendingWhenMissed: Bool = false,
                                        _ read: (inout Reader) throws(CacheError) -> CacheValue?) throws(CacheError) -> CacheValue? {
        let mark = (misses: missesMet, missing: missing.count, stale: stale.count, redirects: redirects.count,
                    absent: trace?.absent.count ?? 0, holes: trace?.holeErrors.count ?? 0)
        lenientDepth += 1
        defer { lenientDepth -= 1 }
        let value = try read(&self)
        guard missesMet > mark.misses else { return value }
        if pendingWhenMissed { pending += missing[mark.missing...] }
        for name in missing[mark.missing...] { missingNames.remove(name) }
        missing.removeSubrange(mark.missing...)
        stale.removeSubrange(mark.stale...)
        redirects.removeSubrange(mark.redirects...)
        trace?.absent.removeSubrange(mark.absent...)
        trace?.holeErrors.removeSubrange(mark.holes...)
        return nil
    }

    /// Sets `key` in `object`, merging objects field by field when two fragments select it.
    private func merge(_ value: CacheValue, as key: String, into object: inout CacheObject) {
        guard let existing = object[key] else {
            object.appendNew(key, value)
            return
        }
        object[key] = existing.merged(with: value)
    }
}
