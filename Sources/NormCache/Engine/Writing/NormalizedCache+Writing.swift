/// Writing: responses for operations, and fields of one record set directly. Each write
/// is one commit (``NormalizedCache/transaction(_:)`` makes several one).
extension NormalizedCache {
    /// Writes a GraphQL response (`{"data": …, "errors": […]}`) for `operation`. With
    /// errors present, fields missing from the data are skipped instead of refused.
    /// `schema` is the knowledge of the endpoint that sent it; `maxAge`, the seconds its
    /// transport said what it wrote stays fresh (HTTP `Cache-Control: max-age`), kept with
    /// the time it was received (docs/engine.md, "Freshness"). Returns what changed.
    @discardableResult
    public func write(response: CacheValue, for operation: CompiledOperation, variables: CacheObject = CacheObject(),
                      schema: SchemaKnowledge? = nil, cause: ChangeCause = .write, maxAge: Double? = nil) throws(CacheError) -> Changes {
        try write(responseNode: response, for: operation, variables: variables, schema: schema, cause: cause, maxAge: maxAge)
    }

    /// Writes a GraphQL response from its JSON text, as a transport receives it: the bytes
    /// are read once into a tape (``JSONTape``) and normalized from it, with no tree of
    /// values in between, so strings are made only for what records keep. Invalid JSON is
    /// refused with ``CacheError/json(_:)`` (line, column and path) before anything is
    /// written; otherwise as ``write(response:for:variables:schema:cause:)``.
    ///
    /// ```swift
    /// let body: [UInt8] = Array(#"{"data":{"trip":{"__typename":"Trip","id":"2","name":"Porto"}}}"#.utf8)
    /// try cache.write(responseJSON: body, for: tripDetail, variables: ["id": "2"])   // Trip:2
    /// ```
    @discardableResult
    public func write<Bytes: Collection<UInt8>>(responseJSON bytes: Bytes, for operation: CompiledOperation,
                                                variables: CacheObject = CacheObject(), schema: SchemaKnowledge? = nil,
                                                cause: ChangeCause = .write, maxAge: Double? = nil) throws(CacheError) -> Changes {
        let write = { (text: UnsafeBufferPointer<UInt8>) in
            Result { () throws(CacheError) in
                try self.write(responseText: text, for: operation, variables: variables, schema: schema, cause: cause, maxAge: maxAge)
            }
        }
        return try (bytes.withContiguousStorageIfAvailable(write) ?? Array(bytes).withUnsafeBufferPointer(write)).get()
    }

    /// Writes a GraphQL response whose JSON text a transport has read already (checking
    /// that it is one): from its tape, as ``write(responseJSON:for:variables:schema:cause:)``
    /// does, without reading the bytes again.
    @discardableResult
    package func write(response: JSONText, for operation: CompiledOperation, variables: CacheObject = CacheObject(),
                       schema: SchemaKnowledge? = nil, cause: ChangeCause = .write, maxAge: Double? = nil) throws(CacheError) -> Changes {
        try response.withRoot { root throws(CacheError) in
            try write(responseNode: root, for: operation, variables: variables, schema: schema, cause: cause, maxAge: maxAge)
        }
    }

    private func write(responseText text: UnsafeBufferPointer<UInt8>, for operation: CompiledOperation, variables: CacheObject,
                       schema: SchemaKnowledge?, cause: ChangeCause, maxAge: Double?) throws(CacheError) -> Changes {
        let tape: JSONTape
        do throws(JSONError) { tape = try JSONTape(reading: text) } catch { throw .json(error) }
        return try tape.withRoot(text: text) { root throws(CacheError) in
            try write(responseNode: root, for: operation, variables: variables, schema: schema, cause: cause, maxAge: maxAge)
        }
    }

    /// Writes a response in either form: its `data` when it has some, with its `errors`
    /// saying whether missing fields are expected.
    private func write<Node: ResponseNode>(responseNode response: Node, for operation: CompiledOperation, variables: CacheObject,
                                           schema: SchemaKnowledge?, cause: ChangeCause, maxAge: Double?) throws(CacheError) -> Changes {
        let written = try response.withObject { object throws(CacheError) in
            let errors = object.member("errors", near: 1)
            let hasErrors: Bool
            switch errors?.kind {
            case nil, .null?: hasErrors = false
            case .list?: hasErrors = errors!.count > 0
            case let other?: throw .invalid("a response's \"errors\" must be a list, not \(other)")
            }
            let data = object.member("data", near: 0)
            switch data?.kind {
            case .object?:
                return try data!.withObject { data throws(CacheError) in
                    try write(dataObject: data, for: operation, variables: variables, schema: schema, partial: hasErrors, cause: cause, maxAge: maxAge)
                }!
            case nil, .null?: return Changes(changes: ChangeSet(), cache: self)
            case let other?: throw .invalid("a response's \"data\" must be an object, not \(other)")
            }
        }
        guard let written else { throw .invalid("a response must be a JSON object, not \(response.kindDescription)") }
        return written
    }

    /// Writes `data` (the response's `data` object) for `operation`, from the endpoint
    /// whose knowledge is `schema`.
    @discardableResult
    public func write(data: CacheObject, for operation: CompiledOperation, variables: CacheObject = CacheObject(),
                      schema: SchemaKnowledge? = nil, partial: Bool = false, cause: ChangeCause = .write) throws(CacheError) -> Changes {
        try write(dataObject: data, for: operation, variables: variables, schema: schema, partial: partial, cause: cause, maxAge: nil)
    }

    private func write<Object: ResponseObject>(dataObject data: Object, for operation: CompiledOperation, variables: CacheObject,
                                               schema: SchemaKnowledge?, partial: Bool, cause: ChangeCause, maxAge: Double?) throws(CacheError) -> Changes {
        try commit(cause: cause, origin: .operation(operation.name ?? "anonymous \(operation.kind)", variables: variables), checkedFirst: true) { () throws(CacheError) in
            state.log.receive(maxAge: maxAge)
            return try normalize(data, for: operation, variables: variables, schema: schema, partial: partial, layer: nil)
        }
    }

    /// Sets fields of one record directly (the workbench's `.write KEY JSON`); a
    /// `{"$reference": K}` value links to record K.
    @discardableResult
    public func write(record key: String, fields: CacheObject) throws(CacheError) -> Changes {
        try commit(cause: .write, origin: .command("write", target: key)) { () throws(CacheError) in
            let record = try state.keys.recordID(key)
            try state.load(record)
            var written: [UInt32] = []
            for (field, value) in fields.members {
                let id = try state.keys.fieldID(field)
                state.records.setField(record, id, try state.keys.stored(value), log: &state.log)
                written.append(id)
            }
            state.log.received.append((record, written))
            return changedNames()
        }
    }

    func normalize<Object: ResponseObject>(_ data: Object, for operation: CompiledOperation, variables: CacheObject, schema: SchemaKnowledge?,
                           partial: Bool, layer: String?) throws(CacheError) -> Changes {
        try state.withSchema(schema) { () throws(CacheError) in
            var normalizer = try Normalizer(state: state, operation: operation, variables: try coerced(variables, for: operation), partial: partial,
                                            layer: layer)
            try normalizer.normalize(data, rootKey: operation.kind.rootKey)
            normalizer.apply(layer: layer)
            return changedNames()
        }
    }

    func changedNames() -> Changes { Changes(changes: state.log.changes, cache: self) }
}
