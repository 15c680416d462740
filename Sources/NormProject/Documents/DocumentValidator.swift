import GraphQL

/// Validation of operations against the project's schema with GraphQLSwift's rules (the
/// GraphQL specification's), each operation together with the fragments it uses.
struct DocumentValidator {
    let schema: GraphQLSchema
    let catalog: OperationCatalog

    /// The problems of every operation of the project, and of the fragments no operation
    /// uses (codegen generates those too; that nobody uses them is no problem).
    func problems() -> [ProjectError.Problem] {
        var problems: [ProjectError.Problem] = []
        for operation in catalog.operations.values {
            problems += validate([operation.node], spreading: operation.fragmentNames)
        }
        let used = Set(catalog.fragments(usedBy: catalog.operations.values.flatMap(\.fragmentNames)).map(\.name))
        let unused = catalog.fragments.values.filter { !used.contains($0.name) }
        problems += validate([], spreading: unused.map(\.name))
        return problems
    }

    /// The problems of `definitions` with the project's fragments they spread (those they
    /// do not define themselves).
    func validate(_ definitions: [any Definition], spreading names: [String]) -> [ProjectError.Problem] {
        let defined = Set(definitions.compactMap { ($0 as? FragmentDefinition)?.name.value })
        let fragments = catalog.fragments(usedBy: names.filter { !defined.contains($0) }).filter { !defined.contains($0.name) }
        guard !definitions.isEmpty || !fragments.isEmpty else { return [] }
        let unusedMessages = Set(fragments.map { "Fragment \"\($0.name)\" is never used." })
        return GraphQL.validate(schema: schema, ast: Document.of(definitions + fragments.map(\.node)))
            .filter { !unusedMessages.contains($0.message) }
            .map(ProjectError.Problem.init)
    }
}
