import GraphQL

/// The operations and fragments of a project's operation files, by name. Fragments are
/// shared across files, as Apollo iOS's codegen allows: an operation's runnable document is
/// its text and the text of every fragment it uses, transitively.
struct OperationCatalog: Sendable {
    private(set) var operations: [String: ProjectDefinition] = [:]
    private(set) var fragments: [String: ProjectDefinition] = [:]

    /// No operations or fragments: what an endpoint's schema alone validates against.
    init() {}

    /// Parses the operation files; syntax errors, anonymous operations, type definitions,
    /// duplicate names and unknown fragments are problems.
    init(_ files: ProjectFiles, problems: inout [ProjectError.Problem]) {
        var parsed: [ProjectDefinition] = []
        for file in files.operations {
            guard let text = files.texts[file], let document = Document.read(text, file: file, problems: &problems) else { continue }
            let isExecutable = { (node: Definition) in node is OperationDefinition || node is FragmentDefinition }
            let schemaDefinitions = document.definitions.filter { !isExecutable($0) }
            if let first = schemaDefinitions.first {
                problems.append(.init(at: first.loc, Self.schemaDefinitions(schemaDefinitions.count, in: file, files: files)))
            }
            for node in document.definitions where isExecutable(node) {
                guard let definition = ProjectDefinition(node) else {
                    problems.append(.init(at: node.loc, "an operation without a name: codegen names each operation"))
                    continue
                }
                add(definition, problems: &problems)
                parsed.append(definition)
            }
        }
        for definition in parsed {
            for spread in definition.spreads where fragments[spread.name.value] == nil {
                problems.append(.init(at: spread.name.loc, Self.unknownFragment(spread.name.value)))
            }
        }
    }

    private mutating func add(_ definition: ProjectDefinition, problems: inout [ProjectError.Problem]) {
        let isFragment = definition.kind == .fragment
        if let other = isFragment ? fragments[definition.name] : operations[definition.name] {
            problems.append(.init(file: definition.file, line: definition.line, column: definition.column,
                                  message: "a second \(isFragment ? "fragment" : "operation") named \(definition.name) "
                                           + "(the first is at \(other.file):\(other.line):\(other.column))"))
        } else if isFragment {
            fragments[definition.name] = definition
        } else {
            operations[definition.name] = definition
        }
    }

    /// The fragments `names` spread and those they spread, each once, in order of first use;
    /// unknown names are left out.
    func fragments(usedBy names: [String]) -> [ProjectDefinition] {
        var used: [ProjectDefinition] = []
        var seen: Set<String> = []
        var pending = names[...]
        while let name = pending.popFirst() {
            guard seen.insert(name).inserted, let fragment = fragments[name] else { continue }
            used.append(fragment)
            pending += fragment.fragmentNames
        }
        return used
    }

    /// One problem for a file of operations that holds `count` schema definitions: which
    /// setting caught it, and what to change.
    private static func schemaDefinitions(_ count: Int, in file: String, files: ProjectFiles) -> String {
        let what = "\(count) schema definition\(count == 1 ? "" : "s") in a file read for operations and fragments"
        guard files.hasConfiguration else {
            return what + ": without \(ProjectFiles.configurationName), every *.graphql file holds operations; "
                + "name a schema file *.graphqls"
        }
        let alsoSchema = files.schema.contains(file) ? " (input.schemaSearchPaths reads it as schema too)" : ""
        return what + alsoSchema + ": input.operationSearchPaths matches it; narrow those patterns or add \"!\(file)\" to them"
    }

    /// GraphQLSwift's words for a spread of a fragment nobody defines, so that its finding
    /// and ours are one problem.
    static func unknownFragment(_ name: String) -> String { "Unknown fragment \"\(name)\"." }
}
