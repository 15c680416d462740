import GraphQL
import NormProject

/// What codegen refuses before it writes anything: a name Swift cannot take even escaped
/// (`_`), two generated types with one name, a type named after one of NormAPI's (which
/// would hide it from every generated file), enum values that become the same case, and a
/// deferred inline fragment without a label that can name its type.
struct NameCheck {
    let project: Project
    let names: SchemaNames
    let schema: SchemaTypes

    /// The names generated code uses unqualified, which no generated top-level type may take.
    static let reservedTopLevel = SwiftNames.reservedTypeNames.subtracting(["Data"])

    func check() throws(ProjectError) {
        var problems: [ProjectError.Problem] = []
        let namespace = names.namespace
        if !Self.isIdentifier(namespace) || SwiftNames.keywords.contains(namespace) {
            problems.append(.init(file: nil, message: "schema namespace \"\(namespace)\" cannot be a Swift type name"))
        }
        var owners: [String: ProjectDefinition] = [:]
        for definition in project.operations + project.fragments {
            let place = ProjectError.Problem(file: definition.file, line: definition.line, column: definition.column, message: "")
            let typeName = definition.typeName
            if Self.reservedTopLevel.contains(typeName) || typeName == namespace {
                problems.append(place.saying("\(definition.kind.rawValue) \(definition.name): its type \(typeName) would hide "
                                             + (typeName == namespace ? "the schema namespace" : "NormAPI's \(typeName)") + "; rename it"))
            }
            if let other = owners[typeName] {
                problems.append(place.saying("\(definition.kind.rawValue) \(definition.name) and \(other.kind.rawValue) \(other.name) "
                                             + "(\(other.file):\(other.line)) would both be the type \(typeName); rename one"))
            } else {
                owners[typeName] = definition
            }
            if let node = definition.operationNode {
                for variable in node.variableDefinitions { check(name: variable.variable.name, what: "variable", in: &problems) }
                check(node.selectionSet, in: &problems)
            } else if let node = definition.fragmentNode {
                check(node.selectionSet, in: &problems)
            }
        }
        for case let type as GraphQLEnumType in project.usedEnumTypes(schema) {
            var cases: [String: String] = [:]
            for value in names.cases(of: type) {
                let name = names.enumCase(value.name, of: type.name)
                if let other = cases[name] {
                    let location = value.astNode?.loc
                    problems.append(.init(file: location?.source.name, line: location?.startToken.line, column: location?.startToken.column,
                                          message: "enum \(type.name): values \(other) and \(value.name) would both be the case \(name)"))
                }
                cases[name] = value.name
            }
        }
        if !problems.isEmpty { throw ProjectError(problems) }
    }

    private func check(_ selections: GraphQL.SelectionSet, in problems: inout [ProjectError.Problem]) {
        for selection in selections.selections {
            switch selection {
            case let field as Field:
                check(name: field.alias ?? field.name, what: "field", in: &problems)
                if let child = field.selectionSet { check(child, in: &problems) }
            case let inline as InlineFragment:
                checkLabel(of: inline, in: &problems)
                check(inline.selectionSet, in: &problems)
            default: break
            }
        }
    }

    private func check(name: Name, what: String, in problems: inout [ProjectError.Problem]) {
        guard SwiftNames.isUnusable(name.value) else { return }
        problems.append(.init(file: name.loc?.source.name, line: name.loc?.startToken.line, column: name.loc?.startToken.column,
                              message: "\(what) \"\(name.value)\" cannot be a Swift name; give it an alias"))
    }

    /// A deferred inline fragment's label names its part (`DeferredCat` under
    /// `fragments.deferredCat`): Apollo iOS's codegen requires one, and it must make a name.
    private func checkLabel(of inline: InlineFragment, in problems: inout [ProjectError.Problem]) {
        guard let label = SelectionScope.deferredLabel(of: inline) else { return }
        let place = ProjectError.Problem(file: inline.loc?.source.name, line: inline.loc?.startToken.line, column: inline.loc?.startToken.column, message: "")
        if label.isEmpty {
            problems.append(place.saying("a deferred inline fragment needs a label (@defer(label: \"…\")): its type is named after it, "
                                         + "and Apollo iOS refuses it too"))
        } else if !Self.isIdentifier(label) || SwiftNames.reservedTypeNames.contains(SwiftNames.firstUppercased(label)) {
            problems.append(place.saying("deferred label \"\(label)\" cannot name a Swift type and property; rename it"))
        }
    }

    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else { return false }
        return !SwiftNames.isUnusable(name) && name.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    }
}

extension ProjectError.Problem {
    /// The same place with another message.
    func saying(_ message: String) -> ProjectError.Problem {
        ProjectError.Problem(file: file, line: line, column: column, message: message)
    }
}

extension Project {
    /// The enum types the project's operations and fragments use.
    func usedEnumTypes(_ schema: SchemaTypes) -> [GraphQLNamedType] {
        var used = UsedSchemaTypes(schema: schema)
        for definition in operations + fragments {
            if let node = definition.operationNode { used.add(node) }
            if let node = definition.fragmentNode { used.add(node) }
        }
        return used.names.sorted().compactMap { schema.type(named: $0) }.filter { $0 is GraphQLEnumType }
    }
}
