/// Which fields of an operation merge their pages, for what pages the next one (NormClient's
/// `Client.nextPage(of:)`, the workbench's `.more`).
extension NormalizedCache {
    /// The response keys from the root down to each field of `operation` that the
    /// pagination of `schema` (the endpoint's knowledge) declares paginated, in document
    /// order, once each; none without a declaration. A field in the items of a list is
    /// not among them: the operation has one a item, and no one next page.
    ///
    /// ```swift
    /// // extend type Query @typePolicy(connectionFields: "users")
    /// try cache.paginatedFields(of: users, schema: knowledge)   // [["users"]]
    /// ```
    package func paginatedFields(of operation: CompiledOperation, schema: SchemaKnowledge?) throws(CacheError) -> [[String]] {
        try lockedThrowing { () throws(CacheError) in
            try state.withSchema(schema) { () throws(CacheError) in
                let ids = try state.fieldIDs(of: operation)
                var paths: [[String]] = []
                func visit(_ plan: SelectionPlan, under path: [String]) {
                    for field in plan.fields {
                        let paged = ids.paged[field.index]
                        if paged?.style != nil, paged?.underList == false, !paths.contains(path + [field.responseKey]) {
                            paths.append(path + [field.responseKey])
                        }
                        if let children = field.selections { visit(children, under: path + [field.responseKey]) }
                    }
                }
                visit(operation.selections, under: [])
                return paths
            }
        }
    }
}
