import GraphQL
import NormCache

/// An app's GraphQL project, as Apollo iOS's codegen reads it: the schema with its
/// `@typePolicy` / `@fieldPolicy` extension files, and the app's operations and fragments,
/// every operation validated against the schema. A project loads whole or not at all: a
/// ``ProjectError`` names every file, line and column at fault.
///
/// The files: with `apollo-codegen-config.json` in the directory, its
/// `input.schemaSearchPaths` and `input.operationSearchPaths` (path patterns relative to the
/// directory, `**` included); without it, every `*.graphqls` and `schema.json`, and every
/// `*.graphql`, under the directory. docs/project.md has the details.
///
/// ```swift
/// let project = try Project(directory: "examples/TripsApp")
/// project.operations.map(\.name)                         // ["CreateTrip", "DeleteTrip", "RenameTrip", "TripDetail", "TripList"]
/// let text = try project.document(forOperation: "TripDetail")   // the query and its fragments
/// project.schemaKnowledge.typePolicies["Airport"]        // .keyFields(["code"])
/// project.fieldPolicies["Query", "trip"]                 // ["id"]
/// project.validate(document: "{ trips { nmae } }")       // 1:11: Cannot query field "nmae" on type "Trip". Did you mean "name"?
/// ```
package struct Project: Sendable {
    /// The directory the project was loaded from, as given.
    package let directory: String
    /// The schema files read (SDL, extensions, or one `.json` introspection result),
    /// relative to ``directory``, sorted.
    package let schemaFiles: [String]
    /// The operation files read, relative to ``directory``, sorted.
    package let operationFiles: [String]
    /// What the schema tells the cache: possible types from the SDL, key fields from
    /// `@typePolicy` (an interface's policy applies to the types that implement it and
    /// have none of their own), and cache redirects from `@fieldPolicy`.
    package let schemaKnowledge: SchemaKnowledge
    /// The schema's `@fieldPolicy` directives (part of ``schemaKnowledge``).
    package var fieldPolicies: FieldPolicies { schemaKnowledge.fieldPolicies }
    /// The configuration's `schemaNamespace`: the name codegen gives the schema's types' namespace.
    package let schemaNamespace: String?
    /// What the configuration's `output` and `options` ask of codegen (Apollo iOS's defaults
    /// for what it leaves out, and without a configuration).
    package let codegen: CodegenConfiguration
    /// What loaded but deserves a word, with its place: a schema's own `@defer` declaration
    /// replaced by the one Apollo iOS supports (``ApolloDirectives``).
    package let warnings: [ProjectError.Problem]
    /// The named operations, sorted by name.
    package let operations: [ProjectDefinition]
    /// The fragments, sorted by name.
    package let fragments: [ProjectDefinition]

    /// The project's schema with its fragments, that operations are validated against.
    package let validator: SchemaValidator
    /// The schema as its server has it, as SDL (without Apollo's client directives): what
    /// codegen embeds for a plugin that serves the schema.
    package let serverSDL: String
    private let catalog: OperationCatalog

    /// Loads and validates the project in `directory`.
    package init(directory: String) throws(ProjectError) {
        let files = try ProjectFiles(directory: directory)
        var problems: [ProjectError.Problem] = []
        let schema = ProjectSchema.load(files, problems: &problems)
        let catalog = OperationCatalog(files, problems: &problems)
        let validator = schema.map { SchemaValidator(schema: $0.schema, catalog: catalog) }
        problems += validator?.projectProblems() ?? []
        guard let schema, let validator, problems.isEmpty else { throw ProjectError(problems) }
        self.directory = directory
        schemaFiles = files.schema
        operationFiles = files.operations
        schemaNamespace = files.schemaNamespace
        codegen = files.codegen
        schemaKnowledge = schema.knowledge
        warnings = schema.warnings
        operations = catalog.operations.values.sorted { $0.name < $1.name }
        fragments = catalog.fragments.values.sorted { $0.name < $1.name }
        self.validator = validator
        serverSDL = schema.serverSDL
        self.catalog = catalog
    }

    /// The built schema, for codegen.
    package var graphQLSchema: GraphQLSchema { validator.schema }

    /// The operation named `name`, if the project has one.
    package func operation(named name: String) -> ProjectDefinition? { catalog.operations[name] }

    /// The document that runs the operation `name`: its text, then the text of every fragment
    /// it uses (transitively, in order of first use), each as written in its file.
    package func document(forOperation name: String) throws(ProjectError) -> String {
        guard let operation = catalog.operations[name] else {
            throw ProjectError([.init(file: nil, message: "no operation named \(name) in the project (\(operations.count) operations)")])
        }
        return ([operation] + catalog.fragments(usedBy: operation.fragmentNames)).map(\.text).joined(separator: "\n\n")
    }

    /// The problems of `document` (an operation typed at the REPL) against the project's
    /// schema, with line and column in the text; the project's fragments it spreads
    /// without defining are taken from the project. Empty when it is valid.
    package func validate(document: String) -> [ProjectError.Problem] { validator.validate(document: document) }
}
