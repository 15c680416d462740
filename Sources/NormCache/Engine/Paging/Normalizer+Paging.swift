/// What the response wrote to a field kept inline (``Normalizer/inlineWritten``): the page
/// with the arguments it came with, what the field held before it, and what it holds now.
struct InlineWrite {
    let page: CacheValue
    let arguments: [String: ArgumentValue]
    let before: StoredValue?
    let stored: StoredValue?
}

/// Writing a field that keeps its objects inline (``FieldIDs/Paged``): a paginated field,
/// whose page merges with what the field holds (``PageMerge``), or an embedded one.
extension Normalizer {
    /// What `field` of `parent` keeps of `page` (the field's value, inline: ``inline(_:selections:parent:fieldKey:returnType:)``):
    /// for a paginated field, the page merged with what the field holds. `nil` when a page
    /// is refused and the field holds nothing: it stays absent (the warning says why).
    ///
    /// What the field holds is the base's value for a write to the base, the layers' for
    /// an optimistic one. A field the response wrote already (selected twice under
    /// fragments, or another page of it under an alias) goes on from that: the same page
    /// again is one page with both selections; another page merges after it.
    mutating func storeInline(_ page: CacheValue, field: FieldPlan, paged: FieldIDs.Paged, parent: UInt32, fieldKey: UInt32) throws(Failure) -> StoredValue? {
        let pair = RecordField(record: parent, field: fieldKey)
        let arguments = state.keys.arguments(of: field, variables: variables)
        var page = page
        var cached = layer == nil ? state.records.base.value(parent, fieldKey) : state.records.value(parent, fieldKey)
        if let earlier = inlineWritten[pair] {
            if earlier.arguments == arguments {
                page = earlier.page.merged(with: page)
                cached = earlier.before
            } else {
                cached = earlier.stored
            }
        }
        let stored = try merged(page, into: cached, field: field, paged: paged, arguments: arguments, pair: pair)
        inlineWritten[pair] = InlineWrite(page: page, arguments: arguments, before: cached, stored: stored)
        return stored
    }

    /// `page` merged into `cached` as the field's style says; a refused page leaves `cached`.
    private mutating func merged(_ page: CacheValue, into cached: StoredValue?, field: FieldPlan, paged: FieldIDs.Paged,
                                 arguments: [String: ArgumentValue], pair: RecordField) throws(Failure) -> StoredValue? {
        guard let style = paged.style else { return try kept(page) }
        let name = paged.parentType + "." + field.name
        switch style {
        case .connection:
            let merge = state.listedNodes.withNodes(of: pair) { listed in
                PageMerge.connection(page, into: cached.map(state.keys.cacheValue), arguments: arguments, field: name, listed: &listed)
            }
            switch merge {
            case .merged(let merged): return try kept(merged)
            case .refused(let why):
                state.warnings.append(why)
                return cached
            }
        case .offset(let argument, _):
            var offset = 0
            switch arguments[argument] {
            case .int(let value)?: offset = Int(clamping: value)
            case nil, .null?: break
            case let other?: throw Failure(message: "\(name)'s \(argument) is \(other), not an integer offset")
            }
            let stored = try kept(page)
            guard let items = Self.items(stored) else {
                if offset == 0 { return stored }  // a first page that is null: no list
                state.warnings.append("\(name): the page at offset \(offset) is null: the cached list is kept")
                return cached
            }
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

    /// `value` as a record keeps it, in its canonical form (``KeySpace/stored(_:)``).
    private func kept(_ value: CacheValue) throws(Failure) -> StoredValue {
        do { return try state.keys.stored(value) } catch { throw Failure(message: "\(error)") }
    }

    /// `value` kept inline: an object with an entity key is written to its record and
    /// becomes a reference to it; another keeps the fields its selection asks for, under
    /// their field keys, as an Apollo Client snapshot keeps an object inline.
    mutating func inline<Node: ResponseNode>(_ value: Node, selections: SelectionPlan, parent: UInt32, fieldKey: UInt32,
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
                   keying.keys(object) {
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
                    do throws(Failure) {
                        let value: CacheValue
                        if let children = field.selections {
                            value = try inline(member, selections: children, parent: parent, fieldKey: fieldKey,
                                               returnType: fieldTypes?[index]?.namedType)
                        } else {
                            if member.kind == .reference { throw Failure(message: "a reference is not a response value") }
                            value = member.decoded()
                        }
                        // Selected twice (under fragments): each selection's members are kept.
                        if let earlier = kept[key] { kept[key] = earlier.merged(with: value) } else { kept.appendNew(key, value) }
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
