/// The field ids an operation's reads and writes use under one ``Pagination``: its static
/// field ids (``KeySpace/staticFieldIDs(_:)``), except that a paginated field's page
/// arguments leave its key, and which fields keep their objects inline and how their pages
/// merge. Without pagination it is the static ids alone, and a field costs one array index.
///
/// ```swift
/// // query Users($after: String) { users(first: 2, after: $after) { edges { node { id } } } }
/// let ids = try keys.fieldIDs(of: users, pagination: knowledge.pagination, schema: types, root: "Query")
/// keys.fieldKey(try keys.fieldID(of: usersField, ids: ids, variables: ["after": "c2"]))   // "users"
/// ids.paged[usersField.index]?.style                                                     // .connection
/// ```
struct FieldIDs {
    /// A field of the plan that keeps its objects inline: paginated (`style`) or embedded.
    struct Paged {
        /// The type the field belongs to, as the plan shows it (`Query`).
        let parentType: String
        /// How its pages merge; `nil` for a field only embedded.
        let style: Pagination.Style?
        /// Whether a list holds it (a paginated field in each item of a list): then an
        /// operation has one of it per item, and no one next page.
        let underList: Bool
    }

    /// By `FieldPlan.index`: the field-key id, or NC_ID_NONE where it depends on variables.
    let ids: [UInt32]
    /// By `FieldPlan.index`: the fields that keep their objects inline.
    let paged: [Int: Paged]

    init(ids: [UInt32], paged: [Int: Paged] = [:]) {
        self.ids = ids
        self.paged = paged
    }

    /// The arguments of field `index` that leave its key.
    @inline(__always) func droppedArguments(_ index: Int) -> [String]? {
        paged.isEmpty ? nil : paged[index]?.style?.droppedArguments
    }
}

extension KeySpace {
    /// The field ids of `operation` under `pagination`, whose root type is `root` and whose
    /// fields' types `schema` gives: a field is paginated or embedded when the type the plan
    /// shows it on (its fragment's type condition, else the type of the field above), or
    /// an interface that type implements, declares it so; on an interface or a union, when
    /// every object type of it that has the field declares it so.
    /// `schema` and `root` are asked only when the ids are not known yet: a read of an
    /// operation met before pays for neither.
    func fieldIDs(of operation: CompiledOperation, pagination: Pagination, schema types: @autoclosure () -> PossibleTypes,
                  root: @autoclosure () -> String) throws(CacheError) -> FieldIDs {
        let ids = try staticFieldIDs(operation)
        if pagination.isEmpty { return FieldIDs(ids: ids) }
        if let known = pagedFieldIDs[ObjectIdentifier(operation)], known.operation === operation, known.pagination == pagination {
            return known.ids
        }
        let schema = types()
        var adjusted = ids
        var paged: [Int: FieldIDs.Paged] = [:]
        func owner(of field: String, on parent: String) -> String? {
            if let owner = ([parent] + schema.supertypes(of: parent)).first(where: { pagination.isEmbedded($0, field) }) { return owner }
            let objects = schema.types(satisfying: parent).filter { schema.outputFields(of: $0)?[field] != nil }
            guard let first = objects.first, objects.allSatisfy({ pagination.isEmbedded($0, field) && pagination[$0, field] == pagination[first, field] })
            else { return nil }
            return first
        }
        func visit(_ plan: SelectionPlan, type: String?, underList: Bool) throws(CacheError) {
            for field in plan.fields {
                let parent = field.typeConditions.last ?? type
                if let parent, pagination.mentions(field.name), let owner = owner(of: field.name, on: parent) {
                    let style = pagination[owner, field.name]
                    paged[field.index] = FieldIDs.Paged(parentType: owner, style: style, underList: underList)
                    if let style, field.staticKey != nil {
                        var arguments = self.arguments(of: field, variables: CacheObject())
                        for name in style.droppedArguments { arguments[name] = nil }
                        adjusted[field.index] = try fieldID(named: field.name, arguments: arguments)
                    }
                }
                if let children = field.selections {
                    let fieldType = parent.flatMap { schema.outputFields(of: $0)?[field.name] }
                    try visit(children, type: fieldType?.namedType, underList: underList || fieldType?.isList == true)
                }
            }
        }
        try visit(operation.selections, type: root(), underList: false)
        let result = FieldIDs(ids: adjusted, paged: paged)
        pagedFieldIDs[ObjectIdentifier(operation)] = PaginatedFieldIDs(operation: operation, pagination: pagination, ids: result)
        return result
    }
}

/// One operation's ``FieldIDs`` under a pagination, and the operation while it lives.
struct PaginatedFieldIDs {
    weak var operation: CompiledOperation?
    let pagination: Pagination
    let ids: FieldIDs
}

extension EngineState {
    /// The field ids `operation` reads and writes with under the pagination of the endpoint
    /// whose call is in progress (``SchemaContext/endpoint``).
    func fieldIDs(of operation: CompiledOperation) throws(CacheError) -> FieldIDs {
        try keys.fieldIDs(of: operation, pagination: schema.endpoint?.pagination ?? Pagination(), schema: schema.declaredTypes,
                          root: schema.rootType(operation.kind))
    }
}
