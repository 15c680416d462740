/// Writes a response's data into records: objects with key fields become entity
/// records (`Trip:2`), others path records (`QUERY_ROOT.trips.0`), and each field is
/// stored under its field key. The whole response is checked and turned into staged
/// records before any record changes, so a rejected response leaves no trace.
struct Normalizer {
    let state: EngineState
    let operation: CompiledOperation
    let ids: FieldIDs
    /// Coerced, defaults filled (``VariableCoercion``).
    let variables: CacheObject
    /// With GraphQL errors beside the data, missing fields are expected: skip them.
    let partial: Bool
    /// The optimistic layer the records go to; nil for the base.
    let layer: String?
    /// The schema the response's values are checked against (the endpoint's, else the cache's).
    let schema: PossibleTypes
    /// The fields each record of the response writes, in the order the records were first
    /// met; an object met again (a shared child in every item of a list) merges into its
    /// record's staging, and the later one wins, field by field.
    let staged = StagedRecords()
    /// Records whose old fields go first: they held an object of another type.
    var replaced: [UInt32] = []
    /// The fields kept inline written so far (Normalizer+Paging.swift): one met again in
    /// the same response merges with what the response wrote before.
    var inlineWritten: [RecordField: InlineWrite] = [:]
    /// The list indices down to the value being stored, as a stack; those from
    /// `listBase` on belong to the current field, and an unkeyed object's path key ends
    /// with them (`QUERY_ROOT.trips.0`). Numbers, turned into text only for a path key.
    private var listIndices: [Int] = []
    private var listBase = 0

    init(state: EngineState, operation: CompiledOperation, variables: CacheObject, partial: Bool, layer: String?) throws(CacheError) {
        self.state = state
        self.operation = operation
        self.ids = try state.fieldIDs(of: operation)
        self.variables = variables
        self.partial = partial
        self.layer = layer
        self.schema = state.schema.declaredTypes
        state.records.stagingSlots.beginWrite()
    }

    mutating func normalize<Object: ResponseObject>(_ data: Object, rootKey: String) throws(CacheError) {
        let root = try state.keys.recordID(rootKey)
        try state.load(root)
        do {
            try writeObject(data, plan: operation.selections, record: root, typename: state.schema.rootType(operation.kind), returnType: nil)
        } catch {
            if let loadFailure { throw loadFailure }
            throw .response(ResponseError(message: error.message, path: "data" + error.path.reversed().joined()))
        }
    }

    /// A record the store could not load, which stopped the write (thrown as it is).
    private var loadFailure: CacheError?

    struct Failure: Error {
        var message: String
        var path: [String] = []
    }

    /// Writes `object`, of type `typename` (empty without a `__typename`), into `record`;
    /// `returnType` is the type the schema gives the field it came from.
    private mutating func writeObject<Object: ResponseObject>(_ object: Object, plan: SelectionPlan, record: UInt32,
                                                              typename: String, returnType: String?) throws(Failure) {
        let slot: Int
        // A record staged here first, under a plan whose fields all have their own name,
        // meets each field key once: it is built aside, with no search, and staged at the
        // end. Otherwise (met before, or two fields of one name) fields go into the
        // staging one by one, each replacing any earlier value.
        var builder: RecordBuilder?
        var expected: [UInt32]?
        if let earlier = state.records.stagingSlots.slot(of: record) {
            slot = earlier
        } else {
            slot = staged.append(record, plan.hasDistinctNames ? StoredRecord() : StoredRecord(capacity: plan.fields.count))
            state.records.stagingSlots.mark(record, slot: slot)
            if plan.hasDistinctNames {
                expected = builtFieldIDs.first { $0.plan == ObjectIdentifier(plan) }?.ids
                builder = RecordBuilder(expecting: expected ?? [], capacity: plan.fields.count)
            }
        }
        var next = object.firstMember
        let declared = declaredTypes(of: typename, in: plan)
        // The types of the fields, for the objects below: the object's type's, else (a type
        // the schema does not define) those of the type its field returns.
        let fieldTypes = declared ?? returnType.flatMap { declaredTypes(of: $0, in: plan) }
        /// Under fragments: the response keys written, fields whose fragment does not apply,
        /// and fields under a fragment nothing decides whose value does not fit the fragment's
        /// selection (what it misses).
        var written: [String] = []
        var notApplying: [(field: FieldPlan, condition: String)] = []
        var unfitting: [(field: FieldPlan, misfit: Failure)] = []
        try plan.forEachField { (index, field) throws(Failure) in
            if plan.isConditional {
                let applicability = state.schema.applicability(of: field, to: typename, in: operation, variables: variables) { condition in
                    carriesFieldSelectedOnlyUnder(condition, object: object, plan: plan)
                }
                switch applicability {
                case .applies: written.append(field.responseKey)
                case .leftOut: return
                case .notSatisfying(let condition):
                    notApplying.append((field, condition))
                    return
                case .undecided, .deferred:
                    // Written when the object carries it and its value fits the field's
                    // selection; the reader includes it by the same rule.
                    guard let position = object.position(of: field.responseKey, from: object.firstMember) else { return }
                    if let misfit = selectionMisfit(of: object.value(at: position), to: field.selections) {
                        unfitting.append((field, misfit))
                        return
                    }
                    written.append(field.responseKey)
                }
            }
            guard let position = object.position(of: field.responseKey, from: next) else {
                if partial || field.name == "__typename" { return }
                throw Failure(message: "missing field \"\(field.responseKey)\"", path: ["." + field.responseKey])
            }
            next = object.position(after: position)
            let value = object.value(at: position)
            let fid: UInt32
            do { fid = try state.keys.fieldID(of: field, ids: ids, variables: variables) }
            catch { throw Failure(message: "\(error)", path: ["." + field.responseKey]) }
            do throws(Failure) {
                if let declared, let type = declared[index] { try check(value, of: field, in: typename, against: type) }
                let stored: StoredValue
                if let selections = field.selections {
                    let outerBase = listBase
                    listBase = listIndices.count
                    defer { listBase = outerBase }
                    if !ids.paged.isEmpty, let paged = ids.paged[field.index] {
                        let page = try inline(value, selections: selections, parent: record, fieldKey: fid, returnType: fieldTypes?[index]?.namedType)
                        guard let kept = try storeInline(page, field: field, paged: paged, parent: record, fieldKey: fid) else { return }
                        stored = kept
                    } else {
                        stored = try store(value, selections: selections, field: field, parent: record, fieldKey: fid,
                                           returnType: fieldTypes?[index]?.namedType)
                    }
                    if builder != nil, !staged[slot].isEmpty { stage(builder.take()!, before: slot) }
                } else {
                    let kind = value.kind
                    if kind == .reference { throw Failure(message: "a reference is not a response value") }
                    if !ids.paged.isEmpty, let paged = ids.paged[field.index] {
                        // A paginated list of scalars.
                        guard let kept = try storeInline(value.decoded(), field: field, paged: paged, parent: record, fieldKey: fid) else { return }
                        stored = kept
                    } else if kind == .list {
                        // Scalars, or references kept by record id (KeySpace.stored).
                        do { stored = try state.keys.stored((consume value).decoded()) } catch { throw Failure(message: "\(error)") }
                    } else {
                        stored = .value((consume value).decoded())  // a scalar: without the call, which cost a write a tenth
                    }
                }
                if builder != nil { builder!.append(new: fid, stored) } else { staged[slot].merge(fid, stored) }
            } catch var failure {
                failure.path.append("." + field.responseKey)
                throw failure
            }
        }
        // A field the response carries is never dropped: if only a fragment the schema says
        // does not apply selects it, the response and the schema disagree.
        for (field, condition) in notApplying where field.name != "__typename" && !written.contains(field.responseKey)
            && object.member(field.responseKey, near: 0) != nil {
            throw Failure(message: "the response has \"\(field.responseKey)\", selected by a fragment on \(condition), "
                + "but \(state.schema.whyNot(typename, satisfies: condition))", path: ["." + field.responseKey])
        }
        // Nor when only fragments nothing decides select it and it fits none of them: the
        // first one's missing field is the error.
        for (field, misfit) in unfitting where field.name != "__typename" && !written.contains(field.responseKey) {
            var failure = misfit
            failure.message += " (\"\(field.responseKey)\" is selected only under type conditions nothing says "
                + "\(typename.isEmpty ? "the object" : "a " + typename) satisfies, and fits none of their selections)"
            failure.path.append("." + field.responseKey)
            throw failure
        }
        if let builder = builder.take() {
            let fields = builder.record()
            if expected == nil { builtFieldIDs.append((ObjectIdentifier(plan), fields.fieldIDs)) }
            staged[slot] = fields
        }
    }

    /// The schema's type of each field of `plan` in an object of type `typename`, by the
    /// field's place; `nil` when the schema of the write does not define the type.
    mutating func declaredTypes(of typename: String, in plan: SelectionPlan) -> [TypeReference?]? {
        let id = ObjectIdentifier(plan)
        if let known = fieldTypes.first(where: { $0.plan == id && $0.typename == typename }) { return known.types }
        let types = schema.outputFields(of: typename).map { fields in plan.fields.map { fields[$0.name] } }
        fieldTypes.append((id, typename, types))
        return types
    }

    /// The schema's field types met so far in this write, by selection and type.
    private var fieldTypes: [(plan: ObjectIdentifier, typename: String, types: [TypeReference?]?)] = []

    /// Refuses a value that does not fit the type the schema gives its field.
    private func check<Node: ResponseNode>(_ value: Node, of field: FieldPlan, in typename: String, against type: TypeReference) throws(Failure) {
        guard let misfit = schema.misfit(of: value, to: type, nullsAllowed: partial) else { return }
        throw Failure(message: "the schema's \(typename).\(field.name) is \(type), not \(misfit.problem)",
                      path: misfit.path.isEmpty ? [] : [misfit.path])
    }

    /// Stages what `builder` holds under fields that an object nested in itself (the same
    /// key) staged meanwhile: the built fields came first, so the nested ones win.
    @inline(never)
    private mutating func stage(_ builder: consuming RecordBuilder, before slot: Int) {
        var fields = builder.record()
        let nested = staged[slot]
        for (field, value) in zip(nested.fieldIDs, nested.values) { fields.merge(field, value) }
        staged[slot] = fields
    }

    /// The field ids of the first record built under each plan in this write: later ones
    /// share the array when theirs are the same.
    private var builtFieldIDs: [(plan: ObjectIdentifier, ids: [UInt32])] = []

    /// The value to keep for `value` of an object-typed field: objects become references
    /// to their records.
    private mutating func store<Node: ResponseNode>(_ value: Node, selections: SelectionPlan, field: FieldPlan, parent: UInt32,
                                                    fieldKey: UInt32, returnType: String?) throws(Failure) -> StoredValue {
        switch value.kind {
        case .null: return .value(.null)
        case .list:
            // A list's objects are mostly new records the first time: room for their keys,
            // stagings and slots at once instead of growing item by item.
            let count = value.count
            state.keys.recordKeys.reserve(count)
            staged.reserveRoom(for: count)
            state.records.stagingSlots.reserve(upTo: state.keys.recordKeys.count + count)
            var stored: [StoredValue] = []
            stored.reserveCapacity(count)
            try value.forEachItem { (index, item) throws(Failure) in
                listIndices.append(index)
                defer { listIndices.removeLast() }
                do throws(Failure) {
                    stored.append(try store(item, selections: selections, field: field, parent: parent, fieldKey: fieldKey, returnType: returnType))
                }
                catch var failure {
                    failure.path.append("[\(index)]")
                    throw failure
                }
            }
            return .list(of: stored)
        case .object:
            return try value.withObject { object throws(Failure) in
                .reference(try storeObject(object, selections: selections, parent: parent, fieldKey: fieldKey, returnType: returnType))
            }!
        default:
            throw Failure(message: "expected an object or null for \"\(field.responseKey)\", found \(value.kind)")
        }
    }

    /// Writes an object of an object-typed field into its record, and returns the record.
    mutating func storeObject<Object: ResponseObject>(_ object: Object, selections: SelectionPlan, parent: UInt32,
                                                              fieldKey: UInt32, returnType: String?) throws(Failure) -> UInt32 {
        let typename: String?
        let name = object.member("__typename", near: 0)  // first, where it is added
        switch name?.kind {
        case .string?: typename = name!.text
        case nil, .null?: typename = nil
        case let other?: throw Failure(message: "__typename is \(other), not a string", path: [".__typename"])
        }
        let record = try recordID(for: object, typename: typename, returnType: returnType, selections: selections, parent: parent,
                                  fieldKey: fieldKey)
        // Loaded before it is written: its stored fields decide what changes.
        do { try state.load(record) } catch {
            loadFailure = error
            throw Failure(message: "\(error)")
        }
        if let typename, case .value(.string(let old))? = state.records.base.value(record, state.keys.typenameField), old != typename {
            state.warnings.append("\(state.keys.recordKey(record)) held a \(old) and now holds a \(typename): its old fields were dropped")
            replaced.append(record)
        }
        try writeObject(object, plan: selections, record: record, typename: typename ?? "", returnType: returnType)
        return record
    }

    /// How objects of one type under one selection get their key: the key's type part,
    /// the response keys that hold the key fields' values and where the selection asks
    /// for them, and, when the type part needs no escaping or normalisation, a buffer that
    /// starts with the bytes of `group:`, where each plain key is put together. (A class:
    /// the memo below hands it out without copying its strings.)
    final class Keying {
        let group: String
        let fields: [String]
        /// Whether a type policy names the key fields (not the default `id`).
        let declared: Bool
        let responseKeys: [String]
        let positions: [Int]
        /// The length of `group:` at the start of `keyBytes`; nil when the group needs
        /// escaping or normalisation, and keys are made by the key builder instead.
        let prefixLength: Int?
        private var keyBytes: UnsafeMutableRawBufferPointer
        /// The key field's text of the last plain key made here, and its record: a child
        /// shared by every item of a list (each post's author) repeats it.
        var lastText: String? = nil
        var lastRecord: UInt32 = 0

        init(group: String, fields: [String], declared: Bool, in selections: SelectionPlan) {
            let selected = fields.map { name in
                selections.fields.firstIndex { $0.name == name && $0.arguments.isEmpty }
            }
            self.group = group
            self.fields = fields
            self.declared = declared
            self.responseKeys = zip(fields, selected).map { name, position in position.map { selections.fields[$0].responseKey } ?? name }
            self.positions = selected.map { $0 ?? 0 }
            let prefix = Normalizer.isPlainASCII(group) ? Array(group.utf8) + [UInt8(ascii: ":")] : []
            self.prefixLength = prefix.isEmpty ? nil : prefix.count
            keyBytes = .allocate(byteCount: prefix.count + 32, alignment: 1)
            keyBytes.copyBytes(from: prefix)
        }

        deinit { keyBytes.deallocate() }

        /// The bytes of `group:` + `text`, valid until the next call (`prefixLength` is set).
        @inline(__always) func plainKey(_ text: String) -> UnsafeRawBufferPointer {
            let prefix = prefixLength!
            let length = prefix + text.utf8.count
            if length > keyBytes.count {
                let grown = UnsafeMutableRawBufferPointer.allocate(byteCount: length, alignment: 1)
                grown.copyMemory(from: UnsafeRawBufferPointer(rebasing: keyBytes[..<prefix]))
                keyBytes.deallocate()
                keyBytes = grown
            }
            UnsafeMutableRawBufferPointer(rebasing: keyBytes[prefix...]).copyBytes(from: text.utf8)
            return UnsafeRawBufferPointer(rebasing: keyBytes[..<length])
        }

        /// The value of key field `i` in `object`, looked for first where the selection
        /// has it (a response lists an object's members in the selection's order).
        @inline(__always) func value<Object: ResponseObject>(_ i: Int, in object: Object) -> Object.Node? {
            object.member(responseKeys[i], near: positions[i])
        }

        /// Whether every key field of `object` is there and usable in a key (a string or a number).
        func keys<Object: ResponseObject>(_ object: Object) -> Bool {
            for i in responseKeys.indices where value(i, in: object).flatMap({ Normalizer.keyText($0) }) == nil { return false }
            return true
        }
    }

    /// Keyings looked up so far, by selection and type: a response repeats a few of each.
    private var keyings: [(plan: ObjectIdentifier, typename: String, keying: Keying?)] = []

    @inline(__always) mutating func keying(for typename: String, returnedAs returnType: String?,
                                                   in selections: SelectionPlan) -> Keying? {
        let plan = ObjectIdentifier(selections)
        for i in keyings.indices where keyings[i].plan == plan && keyings[i].typename == typename { return keyings[i].keying }
        return newKeying(for: typename, returnedAs: returnType, in: selections)
    }

    /// The keying of a type first met under `selections` in this write (out of line: rare).
    /// The cache learns here that the type is an object type: a response named it as a
    /// `__typename`, so no object of another type satisfies a condition on it.
    @inline(never) private mutating func newKeying(for typename: String, returnedAs returnType: String?,
                                                   in selections: SelectionPlan) -> Keying? {
        state.schema.possibleTypes.learn(typenameSeen: typename)
        let plan = ObjectIdentifier(selections)
        let keying = state.schema.keying(for: typename, returnedAs: returnType)
            .map { Keying(group: $0.group, fields: $0.fields, declared: $0.declared, in: selections) }
        keyings.append((plan, typename, keying))
        return keying
    }

    /// The record of an object: its entity key from the type policy and key fields, or
    /// else its path key, interned.
    private mutating func recordID<Object: ResponseObject>(for object: Object, typename: String?, returnType: String?,
                                   selections: SelectionPlan, parent: UInt32, fieldKey: UInt32) throws(Failure) -> UInt32 {
        let key: String
        if let typename, let keying = keying(for: typename, returnedAs: returnType, in: selections) {
            if keying.responseKeys.count == 1, let text = keying.value(0, in: object).flatMap({ Self.keyText($0) }) {
                if text == keying.lastText { return keying.lastRecord }
                // The common case: nothing to escape or normalise.
                if keying.prefixLength != nil, Self.isPlainASCII(text) {
                    do { keying.lastRecord = try state.keys.recordKeys.intern(utf8: keying.plainKey(text)).rawValue }
                    catch { throw Failure(message: "\(CacheError.key(error))") }
                    keying.lastText = text
                    return keying.lastRecord
                }
            }
            let values = keying.responseKeys.indices.compactMap { keying.value($0, in: object).flatMap { Self.keyText($0) } }
            if values.count == keying.fields.count {
                do { key = try state.keys.keyBuilder.entityKey(type: keying.group, values: values) }
                catch { throw Failure(message: "\(error)") }
            } else {
                try refuseAbsentKeyField(of: object, typename: typename, keying: keying)
                key = pathKey(parent, fieldKey)
                // A key field present but not a String, Int or Float (a Boolean, null, a list or an object).
                let unusable = keying.responseKeys.indices.compactMap { i in
                    keying.value(i, in: object).flatMap { Self.keyText($0) == nil ? "\($0.kindDescription) as its \(keying.fields[i])" : nil }
                }
                let why = unusable.isEmpty ? "has no \(keying.fields.joined(separator: ", "))"
                    : "has \(unusable.joined(separator: " and ")), not a string or a number"
                state.warnings.append("\(typename) at \(key) \(why): stored under its path key")
            }
        } else {
            key = pathKey(parent, fieldKey)
        }
        do { return try state.keys.recordID(key) } catch { throw Failure(message: "\(error)") }
    }

    /// Under Apollo Client's semantics, an object whose type policy names key fields that
    /// the response lacks is refused, as Apollo Client's `keyFields` extraction refuses it;
    /// Apollo iOS stores it under its path key (the caller's warning says so). The default
    /// `id` is not a policy: without it both store the object unkeyed.
    private func refuseAbsentKeyField<Object: ResponseObject>(of object: Object, typename: String, keying: Keying) throws(Failure) {
        guard state.schema.semantics == .apolloClient, keying.declared,
              let absent = keying.fields.indices.first(where: { keying.value($0, in: object) == nil }) else { return }
        let field = keying.fields[absent]
        throw Failure(message: "missing field \"\(field)\", a key field of \(typename) (its type policy keys it by "
            + keying.fields.joined(separator: ", ") + "; under Apollo Client's semantics an object without its key fields is refused)",
                      path: ["." + field])
    }

    /// The key of an unkeyed object: its parent's key, the field key and the list indices
    /// down to it (`QUERY_ROOT.trips.0`, `Human:1000.grid.1.1`), Apollo iOS's path key. The
    /// one place a path key is made; its parts are canonical keys already.
    private func pathKey(_ parent: UInt32, _ fieldKey: UInt32) -> String {
        listIndices[listBase...].reduce(state.keys.recordKey(parent) + "." + state.keys.fieldKey(fieldKey)) { $0 + ".\($1)" }
    }

    /// A key field's value as it goes into a key (``KeyText``); `nil` for a Boolean, null,
    /// an object or a list (no key value). (Also what ``ImpliedKeyFields`` reads a stored
    /// record's key fields with.)
    @inline(__always) static func keyText<Node: ResponseNode>(_ value: Node) -> String? {
        switch value.kind {
        case .string: value.text
        case .int, .double: KeyText.of(value.decoded())
        default: nil
        }
    }

    /// ASCII without NUL: already canonical, so a key of it needs no normalisation.
    @inline(__always) private static func isPlainASCII(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { bytes in bytes.allSatisfy { $0 &- 1 < 0x7F } }
            ?? text.utf8.allSatisfy { $0 &- 1 < 0x7F }
    }

    /// Whether `object` has a member that, in `plan`, only fields under the type condition `condition` select.
    private func carriesFieldSelectedOnlyUnder<Object: ResponseObject>(_ condition: String, object: Object, plan: SelectionPlan) -> Bool {
        plan.fields.contains { field in
            field.typeConditions.contains(condition) && field.name != "__typename" && object.member(field.responseKey, near: 0) != nil
                && !plan.fields.contains { $0.responseKey == field.responseKey && !$0.typeConditions.contains(condition) }
        }
    }

    /// What `value` misses of `selections`, the first field a write under them would refuse
    /// (its message and path), or nil when it fits: every field that applies is there,
    /// down through objects and lists. Fields under conditions nothing decides are not
    /// required, as the reader does not require them (``Reader``'s lenient reads), and a
    /// response with errors may miss fields.
    private func selectionMisfit<Node: ResponseNode>(of value: Node, to selections: SelectionPlan?) -> Failure? {
        guard let selections, !partial else { return nil }
        switch value.kind {
        case .list:
            var found: Failure?
            value.forEachItem { index, item in
                guard found == nil, var misfit = selectionMisfit(of: item, to: selections) else { return }
                misfit.path.append("[\(index)]")
                found = misfit
            }
            return found
        case .object:
            return value.withObject { object in
                let name = object.member("__typename", near: 0)
                let typename = name?.kind == .string ? name!.text! : ""
                for field in selections.fields where field.name != "__typename" {
                    guard state.schema.applicability(of: field, to: typename, in: operation, variables: variables) == .applies else { continue }
                    guard let member = object.member(field.responseKey, near: 0) else {
                        return Failure(message: "missing field \"\(field.responseKey)\"", path: ["." + field.responseKey])
                    }
                    if var misfit = selectionMisfit(of: member, to: field.selections) {
                        misfit.path.append("." + field.responseKey)
                        return misfit
                    }
                }
                return nil
            } ?? nil
        default:
            return nil  // null fits; a scalar where an object belongs is refused by the write itself
        }
    }

    /// Applies the records staged by ``normalize(_:rootKey:)``.
    mutating func apply(layer: String?) {
        if layer == nil { state.records.base.reserve(upTo: state.keys.recordKeys.count) }
        for record in replaced {
            for (field, _) in state.records.visibleFields(record) { state.records.setField(record, field, nil, layer: layer, log: &state.log) }
        }
        staged.moveOut { record, fields in state.records.setFields(record, consume fields, layer: layer, log: &state.log) }
    }
}
