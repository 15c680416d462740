/// Writing: responses for operations, and fields of one record set directly. Each write
/// is one commit (``NormalizedCache/transaction(_:)`` makes several one).
extension NormalizedCache {
    /// Writes a GraphQL response (`{"data": …, "errors": […]}`) for `operation`. With
    /// errors present, fields missing from the data are skipped instead of refused.
    /// `schema` is the knowledge of the endpoint that sent it. Returns what changed.
    @discardableResult
    public func write(response: CacheValue, for operation: CompiledOperation, variables: CacheObject = CacheObject(),
                      schema: SchemaKnowledge? = nil, cause: ChangeCause = .write) throws(CacheError) -> Changes {
        guard case .object(let object) = response else {
            throw .invalid("a response must be a JSON object, not \(response.kindDescription)")
        }
        let hasErrors: Bool
        switch object["errors"] {
        case nil, .null?: hasErrors = false
        case .list(let errors)?: hasErrors = !errors.isEmpty
        case let other?: throw .invalid("a response's \"errors\" must be a list, not \(other.kindDescription)")
        }
        switch object["data"] {
        case .object(let data)?: return try write(data: data, for: operation, variables: variables, schema: schema, partial: hasErrors, cause: cause)
        case nil, .null?: return Changes(changes: ChangeSet(), cache: self)
        case let other?: throw .invalid("a response's \"data\" must be an object, not \(other.kindDescription)")
        }
    }

    /// Writes `data` (the response's `data` object) for `operation`, from the endpoint
    /// whose knowledge is `schema`.
    @discardableResult
    public func write(data: CacheObject, for operation: CompiledOperation, variables: CacheObject = CacheObject(),
                      schema: SchemaKnowledge? = nil, partial: Bool = false, cause: ChangeCause = .write) throws(CacheError) -> Changes {
        try commit(cause: cause, checkedFirst: true) { () throws(CacheError) in
            try normalize(data, for: operation, variables: variables, schema: schema, partial: partial, layer: nil)
        }
    }

    /// Sets fields of one record directly (the workbench's `.write KEY JSON`); a
    /// `{"$reference": K}` value links to record K.
    @discardableResult
    public func write(record key: String, fields: CacheObject) throws(CacheError) -> Changes {
        try commit(cause: .write) { () throws(CacheError) in
            let record = try state.recordID(key)
            try state.load(record)
            for (field, value) in fields.members { state.setField(record, try state.fieldID(field), try state.stored(value)) }
            return changedNames()
        }
    }

    func normalize(_ data: CacheObject, for operation: CompiledOperation, variables: CacheObject, schema: SchemaKnowledge?,
                           partial: Bool, layer: String?) throws(CacheError) -> Changes {
        try state.withSchema(schema) { () throws(CacheError) in
            var normalizer = try Normalizer(state: state, operation: operation, variables: try coerced(variables, for: operation), partial: partial)
            try normalizer.normalize(data, rootKey: operation.kind.rootKey)
            normalizer.apply(layer: layer)
            return changedNames()
        }
    }

    func changedNames() -> Changes { Changes(changes: state.changes, cache: self) }
}
