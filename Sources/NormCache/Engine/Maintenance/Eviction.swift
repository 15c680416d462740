/// Removing data: evict a record or a field, remove by key pattern, clear. Each notifies
/// the watchers it affects (Apollo iOS notifies nobody when records go; normcache does).
extension NormalizedCache {
    /// Removes a record (`Trip:2`) or one field of it (`Trip:2.name`; a field name
    /// without arguments also removes its argument variants, `trips` → `trips(first:3)`).
    /// A root whose last field goes stays in ``extract()`` as `{"__typename":"Query"}`,
    /// as in Apollo Client. Returns the record-field keys removed.
    @discardableResult
    public func evict(_ key: String, field: String? = nil) throws(CacheError) -> [String] {
        try commit(cause: .evict, origin: .command("evict", target: field.map { key + "." + $0 } ?? key)) { () throws(CacheError) in
            if !state.records.loaded.all { try state.load(try state.keys.recordID(key)) }
            guard let id = state.keys.recordKeys.find(key)?.rawValue, state.records.base[id] != nil else {
                throw .invalid("no record \"\(key)\"")
            }
            if let field {
                let fields = Set(state.records.base[id]!.fieldIDs.filter { Self.field(field, names: state.keys.fieldKey($0)) })
                guard !fields.isEmpty else { throw .invalid("record \"\(key)\" has no field \"\(field)\"") }
                state.records.removeFields(id, log: &state.log, where: fields.contains)
                if CompiledOperation.Kind.allRootKeys.contains(key) { state.records.keepEmptiedRoot(id, log: &state.log) }
            } else {
                state.records.removeRecord(id, log: &state.log)
            }
            return state.log.changes.changedFields.map(state.keys.name).sorted()
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
        try commit(cause: .evict, origin: .command("remove", target: pattern)) { () throws(CacheError) in
            try state.loadAll()
            let matches = state.records.base.ids.filter { Glob.matches(pattern, state.keys.recordKey($0)) }
            for id in matches { state.records.removeRecord(id, log: &state.log) }
            return matches.map(state.keys.recordKey).sorted()
        }
    }

    /// Removes every record and optimistic layer, and forgets the retained roots.
    public func clear() throws(CacheError) {
        try commit(cause: .clear, origin: .command("clear", target: nil)) { () throws(CacheError) in
            for (index, layer) in state.records.layers.enumerated().reversed() {
                for record in layer.table.ids {
                    for field in layer.table[record]!.fieldIDs { state.log.changes.fields.append(RecordField(record: record, field: field)) }
                }
                state.log.undo.append(.layerRemoved(layer, at: index))
            }
            state.records.layers = []
            try state.loadAll()
            for id in state.records.base.ids { state.records.removeRecord(id, log: &state.log) }
            state.records.setRoots(RootState(), log: &state.log)
            state.log.changes.cleared = true
            for pair in state.records.invalidated { state.log.undo.append(.invalidation(pair, wasInvalid: true)) }
            state.records.invalidated = []
        }
    }
}
