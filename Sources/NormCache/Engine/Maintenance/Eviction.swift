/// Removing data: evict a record or a field, remove by key pattern, clear. Each notifies
/// the watchers it affects (Apollo iOS notifies nobody when records go; normcache does).
extension NormalizedCache {
    /// Removes a record (`Trip:2`) or one field of it (`Trip:2.name`; a field name
    /// without arguments also removes its argument variants, `trips` → `trips(first:3)`).
    /// A root whose last field goes stays in ``extract()`` as `{"__typename":"Query"}`,
    /// as in Apollo Client. Returns the record-field keys removed.
    @discardableResult
    public func evict(_ key: String, field: String? = nil) throws(CacheError) -> [String] {
        try commit(cause: .evict) { () throws(CacheError) in
            if !state.loaded.all { try state.load(try state.recordID(key)) }
            guard let id = state.recordKeys.find(key)?.rawValue, state.base[id] != nil else {
                throw .invalid("no record \"\(key)\"")
            }
            if let field {
                let fields = Set(state.base[id]!.fieldIDs.filter { Self.field(field, names: state.fieldKey($0)) })
                guard !fields.isEmpty else { throw .invalid("record \"\(key)\" has no field \"\(field)\"") }
                state.removeFields(id, where: fields.contains)
                if state.base[id] == nil, CompiledOperation.Kind.allRootKeys.contains(key) {
                    var emptied = state.roots
                    emptied.emptied.insert(id)
                    state.setRoots(emptied)
                }
            } else {
                state.removeRecord(id)
            }
            return state.changes.changedFields.map(state.name).sorted()
        }
    }

    /// Whether `field` names the field key `fieldKey`: it is that key, or a field name
    /// without arguments and `fieldKey` one of its argument variants, as ``evict(_:field:)``
    /// takes them (`trips` names `trips` and `trips(first:3)`; `trips(first:3)` only itself).
    public static func field(_ field: String, names fieldKey: String) -> Bool {
        fieldKey == field || (!field.contains("(") && fieldKey.hasPrefix(field + "("))
    }

    /// Removes every record whose key matches a glob (`*` any run, `?` one character).
    /// Returns the keys removed.
    @discardableResult
    public func remove(matching pattern: String) throws(CacheError) -> [String] {
        try commit(cause: .evict) { () throws(CacheError) in
            try state.loadAll()
            let matches = state.base.ids.filter { Glob.matches(pattern, state.recordKey($0)) }
            for id in matches { state.removeRecord(id) }
            return matches.map(state.recordKey).sorted()
        }
    }

    /// Removes every record and optimistic layer, and forgets the retained roots.
    public func clear() throws(CacheError) {
        try commit(cause: .clear) { () throws(CacheError) in
            for (index, layer) in state.layers.enumerated().reversed() {
                for record in layer.table.ids {
                    for field in layer.table[record]!.fieldIDs { state.changes.fields.append(RecordField(record: record, field: field)) }
                }
                state.undo.append(.layerRemoved(layer, at: index))
            }
            state.layers = []
            try state.loadAll()
            for id in state.base.ids { state.removeRecord(id) }
            state.setRoots(RootState())
            state.changes.cleared = true
            for pair in state.invalidated { state.undo.append(.invalidation(pair, wasInvalid: true)) }
            state.invalidated = []
        }
    }
}
