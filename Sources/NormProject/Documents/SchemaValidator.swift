import GraphQL

/// A schema that operations are validated against before anything runs, with GraphQLSwift's
/// rules (the GraphQL specification's): a project's, whose fragments the operations may
/// spread, or an endpoint's alone (a plugin's manifest SDL, an HTTP endpoint's
/// introspection result).
///
/// ```swift
/// let schema = try SchemaValidator(sdl: "type Query { trips: [Trip!]! } type Trip { id: ID! name: String! }",
///                                  source: "the schema of trips")
/// schema.validate(document: "{ trips { nmae } }")
///     // [1:11: Cannot query field "nmae" on type "Trip". Did you mean "name"?]
/// ```
package struct SchemaValidator: Sendable {
    package let schema: GraphQLSchema
    let catalog: OperationCatalog

    init(schema: GraphQLSchema, catalog: OperationCatalog) {
        self.schema = schema
        self.catalog = catalog
    }

    /// The schema of `sdl`; a schema that does not build throws every problem, placed in
    /// `source` (how messages name the SDL, e.g. `the schema of trips`).
    package init(sdl: String, source: String) throws(ProjectError) {
        var problems: [ProjectError.Problem] = []
        guard let schema = ProjectSchema.load([(source, sdl)], problems: &problems) else { throw ProjectError(problems) }
        self.init(schema: schema.schema, catalog: OperationCatalog())
    }

    /// The problems of `document` (an operation typed at the REPL), with line and column in
    /// its text; the fragments it spreads without defining are taken from the project's.
    /// Empty when it is valid.
    package func validate(document: String) -> [ProjectError.Problem] {
        var problems: [ProjectError.Problem] = []
        guard let parsed = Document.read(document, file: Self.typedSourceName, problems: &problems) else { return problems }
        let spreads = parsed.definitions.flatMap { definition -> [String] in
            switch definition {
            case let operation as OperationDefinition: ProjectDefinition.spreads(in: operation.selectionSet).map(\.name.value)
            case let fragment as FragmentDefinition: ProjectDefinition.spreads(in: fragment.selectionSet).map(\.name.value)
            default: []
            }
        }
        return ProjectError(validate(parsed.definitions, spreading: spreads)).problems
    }

    /// The source name of a document typed at the REPL: its problems have no file.
    static let typedSourceName = "(typed)"

    /// The problems of every operation of the project with the fragments it uses, and of the
    /// fragments no operation uses (codegen generates those too; that nobody uses them is no
    /// problem). One pass over all of them: the rules' set-up, which grows with the schema,
    /// is paid once rather than once per operation.
    func projectProblems() -> [ProjectError.Problem] {
        validate(catalog.operations.values.map(\.node), spreading: catalog.fragments.values.map(\.name))
    }

    /// The problems of `definitions` with the project's fragments they spread (those they
    /// do not define themselves).
    private func validate(_ definitions: [any Definition], spreading names: [String]) -> [ProjectError.Problem] {
        let defined = Set(definitions.compactMap { ($0 as? FragmentDefinition)?.name.value })
        let fragments = catalog.fragments(usedBy: names.filter { !defined.contains($0) }).filter { !defined.contains($0.name) }
        guard !definitions.isEmpty || !fragments.isEmpty else { return [] }
        let unusedMessages = Set(fragments.map { "Fragment \"\($0.name)\" is never used." })
        return GraphQL.validate(schema: schema, ast: Document.of(definitions + fragments.map(\.node)))
            .filter { !unusedMessages.contains($0.message) }
            .map(ProjectError.Problem.init)
    }
}
