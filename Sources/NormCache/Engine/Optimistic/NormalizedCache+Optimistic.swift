/// Optimistic layers: a mutation's expected result, written over the records until the
/// server answers (committed) or the mutation fails (rolled back).
extension NormalizedCache {
    /// Writes an optimistic response for a mutation in its own layer: reads and watchers
    /// see it until ``commitOptimistic(_:response:for:variables:)`` or ``rollBackOptimistic(_:)``.
    @discardableResult
    public func writeOptimistic(_ layer: String, data: CacheObject, for operation: CompiledOperation,
                                variables: CacheObject = CacheObject(), schema: SchemaKnowledge? = nil) throws(CacheError) -> Changes {
        try commit(cause: .optimistic, origin: .command("optimistic layer", target: layer)) { () throws(CacheError) in
            guard !state.records.layers.contains(where: { $0.id == layer }) else { throw .invalid("optimistic layer \"\(layer)\" exists already") }
            state.records.layers.append(OptimisticLayer(id: layer))
            state.log.undo.append(.layerAdded(layer))
            return try normalize(data, for: operation, variables: variables, schema: schema, partial: true, layer: layer)
        }
    }

    /// Replaces an optimistic layer with the server's result, in one commit.
    @discardableResult
    public func commitOptimistic(_ layer: String, response: CacheValue, for operation: CompiledOperation,
                                 variables: CacheObject = CacheObject(), schema: SchemaKnowledge? = nil) throws(CacheError) -> Changes {
        try commitOptimistic(layer) { () throws(CacheError) in
            try write(response: response, for: operation, variables: variables, schema: schema)
        }
    }

    /// ``commitOptimistic(_:response:for:variables:schema:)`` of a response read from its
    /// JSON text (``JSONText``), as a transport hands it over.
    @discardableResult
    package func commitOptimistic(_ layer: String, response: JSONText, for operation: CompiledOperation,
                                  variables: CacheObject = CacheObject(), schema: SchemaKnowledge? = nil) throws(CacheError) -> Changes {
        try commitOptimistic(layer) { () throws(CacheError) in
            try write(response: response, for: operation, variables: variables, schema: schema)
        }
    }

    /// Removes `layer` and writes the server's result (`write`) in one commit.
    private func commitOptimistic(_ layer: String, write: () throws(CacheError) -> Changes) throws(CacheError) -> Changes {
        try commit(cause: .write, origin: .command("commit layer", target: layer)) { () throws(CacheError) in
            try removeLayer(layer)
            return try write()
        }
    }

    /// Removes an optimistic layer (the mutation failed); watchers hear `rollback`.
    @discardableResult
    public func rollBackOptimistic(_ layer: String) throws(CacheError) -> Changes {
        try commit(cause: .rollback, origin: .command("roll back layer", target: layer)) { () throws(CacheError) in
            try removeLayer(layer)
            return changedNames()
        }
    }

    private func removeLayer(_ id: String) throws(CacheError) {
        guard let index = state.records.layers.firstIndex(where: { $0.id == id }) else { throw .invalid("no optimistic layer \"\(id)\"") }
        let layer = state.records.layers[index]
        // What the layer hid shows again: the base records under it, loaded.
        try state.load(layer.table.ids)
        var pairs: [RecordField] = []
        for record in layer.table.ids {
            for field in layer.table[record]!.fieldIDs { pairs.append(RecordField(record: record, field: field)) }
        }
        let before = pairs.map { state.records.value($0.record, $0.field) }
        state.records.layers.remove(at: index)
        state.log.undo.append(.layerRemoved(layer, at: index))
        for (pair, old) in zip(pairs, before) {
            let new = state.records.value(pair.record, pair.field)
            guard new != old else { continue }
            state.log.changes.fields.append(pair)
            state.log.noteHistory(pair.record, .field(pair.field, old: old, new: new))
        }
    }
}
