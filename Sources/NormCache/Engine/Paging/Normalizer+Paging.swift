/// Writing a field that keeps its objects inline (``FieldIDs/Paged``): a paginated field,
/// whose page merges with what the field holds (``PageMerge``), or an embedded one.
extension Normalizer {
    /// The value `field` of `parent` keeps: objects with an entity key written to their
    /// records and named by reference, the others inline under their field keys, merged
    /// with the field's pages when it is paginated. `nil` when a page is refused and the
    /// field holds nothing: it stays absent (the warning says why).
    mutating func storeInline<Node: ResponseNode>(_ value: Node, selections: SelectionPlan, field: FieldPlan, paged: FieldIDs.Paged,
                                                  parent: UInt32, fieldKey: UInt32, returnType: String?) throws(Failure) -> StoredValue? {
        let page = try inline(value, selections: selections, parent: parent, fieldKey: fieldKey, returnType: returnType)
        guard let style = paged.style else { return try kept(page) }
        let cached = state.records.value(parent, fieldKey)
        let arguments = state.keys.arguments(of: field, variables: variables)
        let name = paged.parentType + "." + field.name
        switch style {
        case .connection:
            let merge = state.listedNodes.withNodes(of: RecordField(record: parent, field: fieldKey)) { listed in
                PageMerge.connection(page, into: cached.map(state.keys.cacheValue), arguments: arguments, field: name, listed: &listed)
            }
            switch merge {
            case .merged(let merged): return try kept(merged)
            case .refused(let why):
                state.warnings.append(why)
                return cached
            }
        case .offset(let argument, _):
            guard case .list = page else { return try kept(page) }  // null: no list
            var offset = 0
            switch arguments[argument] {
            case .int(let value)?: offset = Int(clamping: value)
            case nil, .null?: break
            case let other?: throw Failure(message: "\(name)'s \(argument) is \(other), not an integer offset")
            }
            guard case .list(let items) = try kept(page) else { return cached }
            switch PageMerge.offset(items, into: cached.flatMap(Self.items), at: offset, field: name) {
            case .merged(let merged): return .list(of: merged)
            case .refused(let why):
                state.warnings.append(why)
                return cached
            }
        }
    }

    /// A list field's items as records keep them, whatever its form.
    private static func items(_ value: StoredValue) -> [StoredValue]? {
        switch value {
        case .list(let items): items
        case .value(.list(let items)): items.map(StoredValue.value)
        default: nil
        }
    }

    /// `value` as a record keeps it (``KeySpace/stored(_:)``); as a list for ``PageMerge/offset``.
    private func kept(_ value: CacheValue) throws(Failure) -> StoredValue {
        do {
            let stored = try state.keys.stored(value)
            if case .value(.list(let items)) = stored { return .list(items.map(StoredValue.value)) }
            return stored
        } catch { throw Failure(message: "\(error)") }
    }

    /// `value` kept inline: an object with an entity key is written to its record and
    /// becomes a reference to it; another keeps the fields its selection asks for, under
    /// their field keys, as an Apollo Client snapshot keeps an object inline.
    private mutating func inline<Node: ResponseNode>(_ value: Node, selections: SelectionPlan, parent: UInt32, fieldKey: UInt32,
                                                     returnType: String?) throws(Failure) -> CacheValue {
        switch value.kind {
        case .null:
            return .null
        case .list:
            var items: [CacheValue] = []
            items.reserveCapacity(value.count)
            try value.forEachItem { (index, item) throws(Failure) in
                do throws(Failure) { items.append(try inline(item, selections: selections, parent: parent, fieldKey: fieldKey, returnType: returnType)) }
                catch var failure {
                    failure.path.append("[\(index)]")
                    throw failure
                }
            }
            return .list(items)
        case .object:
            return try value.withObject { object throws(Failure) -> CacheValue in
                let name = object.member("__typename", near: 0)
                let typename = name?.kind == .string ? name!.text! : nil
                if let typename, let keying = keying(for: typename, returnedAs: returnType, in: selections),
                   keying.responseKeys.indices.allSatisfy({ keying.value($0, in: object).flatMap(Self.keyText) != nil }) {
                    let record = try storeObject(object, selections: selections, parent: parent, fieldKey: fieldKey, returnType: returnType)
                    return .reference(state.keys.recordKey(record))
                }
                let fieldTypes = (typename ?? returnType).flatMap { declaredTypes(of: $0, in: selections) }
                var kept = CacheObject(capacity: selections.fields.count)
                try selections.forEachField { (index, field) throws(Failure) in
                    guard let member = object.member(field.responseKey, near: index) else {
                        if partial || selections.isConditional || field.name == "__typename" { return }
                        throw Failure(message: "missing field \"\(field.responseKey)\"", path: ["." + field.responseKey])
                    }
                    let key: String
                    do { key = state.keys.fieldKey(try state.keys.fieldID(of: field, ids: ids, variables: variables)) }
                    catch { throw Failure(message: "\(error)", path: ["." + field.responseKey]) }
                    guard kept[key] == nil else { return }
                    do throws(Failure) {
                        if let children = field.selections {
                            kept.appendNew(key, try inline(member, selections: children, parent: parent, fieldKey: fieldKey,
                                                           returnType: fieldTypes?[index]?.namedType))
                        } else {
                            if member.kind == .reference { throw Failure(message: "a reference is not a response value") }
                            kept.appendNew(key, member.decoded())
                        }
                    } catch var failure {
                        failure.path.append("." + field.responseKey)
                        throw failure
                    }
                }
                return .object(kept)
            }!
        default:
            throw Failure(message: "expected an object or null, found \(value.kind)")
        }
    }
}
