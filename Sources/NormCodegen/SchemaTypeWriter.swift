import GraphQL
import NormCache

/// Writes the schema's types that operations use, in the namespace enum or at the top level
/// of the schema's module (``OutputLayout``), named as the configuration says
/// (``SchemaNames``): enums (a case per value, the GraphQL name as raw value), input objects
/// (nil leaves a field out; the JSON key is the schema's name; a `@oneOf` one is an enum of
/// its fields), custom scalars as a
/// `String` alias in a file written once and never again, for a team to replace with a type
/// of its own, and the cache metadata in Apollo iOS's shapes: `Objects.Trip`
/// (its interfaces and `@typePolicy` key fields), `Interfaces.Node`, `Unions.Endpoint`, and
/// `SchemaMetadata` listing them with the `@fieldPolicy` field policies and the root types.
struct SchemaTypeWriter {
    let names: SchemaNames
    let layout: OutputLayout
    let schema: SchemaTypes
    /// What the project's schema tells the cache: its `@typePolicy` and `@fieldPolicy`.
    let knowledge: SchemaKnowledge
    /// The SDL to embed for the server that serves the schema (a plugin's), or nil.
    let embeddedSDL: String?

    func files(for used: UsedSchemaTypes) -> [GeneratedFile] {
        var files = layout.namespaceFilePath.map { [GeneratedFile(path: $0, contents: namespaceFile())] } ?? []
        files.append(GeneratedFile(path: layout.schemaTypePath(folder: "", file: "SchemaMetadata.graphql.swift"), contents: metadataFile(used)))
        for name in used.names.sorted() {
            let swiftName = names.typeName(name)
            switch schema.type(named: name) {
            case let type as GraphQLObjectType:
                files.append(GeneratedFile(path: layout.schemaTypePath(folder: "Objects", file: swiftName + ".graphql.swift"), contents: objectFile(type)))
            case let type as GraphQLInterfaceType:
                files.append(GeneratedFile(path: layout.schemaTypePath(folder: "Interfaces", file: swiftName + ".graphql.swift"),
                                           contents: interfaceFile(type)))
            case let type as GraphQLUnionType:
                files.append(GeneratedFile(path: layout.schemaTypePath(folder: "Unions", file: swiftName + ".graphql.swift"), contents: unionFile(type)))
            case let type as GraphQLEnumType:
                files.append(GeneratedFile(path: layout.schemaTypePath(folder: "Enums", file: swiftName + ".graphql.swift"), contents: enumFile(type)))
            case let type as GraphQLInputObjectType:
                files.append(GeneratedFile(path: layout.schemaTypePath(folder: "InputObjects", file: swiftName + ".graphql.swift"),
                                           contents: inputObjectFile(type)))
            case let type as GraphQLScalarType:
                files.append(GeneratedFile(path: layout.schemaTypePath(folder: "CustomScalars", file: swiftName + ".swift"),
                                           contents: customScalarFile(type), isTeamOwned: true))
            default: break
            }
        }
        return files
    }

    private func namespaceFile() -> String {
        var swift = SwiftWriter.generatedFile(from: "the schema")
        swift.documentation("The schema's types that the operations use, and what it tells the cache (`SchemaMetadata`).")
        guard let embeddedSDL else {
            swift.line("public enum \(names.namespace) {}")
            return swift.text
        }
        swift.block("public enum \(names.namespace)") { swift in
            swift.documentation("The schema as SDL, for the server that serves it.")
            swift.line("public static let sdl = " + SwiftNames.multilineLiteral(embeddedSDL, indent: swift.indent + "    "))
        }
        return swift.text
    }

    /// `SchemaMetadata`, listing the object types, interfaces and unions written, the field
    /// policies, the paginated and embedded fields and the root types, and the enums
    /// `Objects`, `Interfaces` and `Unions` they are declared in.
    private func metadataFile(_ used: UsedSchemaTypes) -> String {
        let types = used.names.sorted().compactMap { schema.type(named: $0) }
        var swift = SwiftWriter.generatedFile(from: "the schema")
        swift.within(layout.schemaTypesEnum) { swift in
            swift.documentation("What the schema tells the cache: the object types, interfaces and unions the operations use, with their "
                                + "key fields (`@typePolicy`), the field policies (`@fieldPolicy`), the paginated and embedded fields "
                                + "and the root types.")
            swift.block("public enum SchemaMetadata: NormAPI.SchemaMetadata") { swift in
                list("objectTypes: [NormAPI.Object]", types.filter { $0 is GraphQLObjectType }.map { member("Objects", $0.name) }, into: &swift)
                list("interfaces: [NormAPI.Interface]", types.filter { $0 is GraphQLInterfaceType }.map { member("Interfaces", $0.name) }, into: &swift)
                list("unions: [NormAPI.Union]", types.filter { $0 is GraphQLUnionType }.map { member("Unions", $0.name) }, into: &swift)
                let policies = knowledge.fieldPolicies
                list("fieldPolicies: [NormAPI.FieldPolicy]", policies.types.flatMap { type in
                    policies.fields(of: type).compactMap { field -> String? in
                        guard let returned = schema.fieldType(field, of: type), let keyArgs = policies[type, field] else { return nil }
                        return "NormAPI.FieldPolicy(type: \(quoted(type)), field: \(quoted(field)), keyArgs: \(quoted(keyArgs)), "
                            + "returnType: \(quoted(TypeShape(returned).graphQL)))"
                    }
                }, into: &swift)
                list("pagination: [NormAPI.FieldPagination]", knowledge.pagination.declarations.compactMap { declaration -> String? in
                    guard let returned = schema.fieldType(declaration.field, of: declaration.type) else { return nil }
                    let style = switch declaration.style {
                    case .connection?: ".connection"
                    case .offset(let argument, let arguments)?: ".offset(argument: \(quoted(argument)), arguments: \(quoted(arguments)))"
                    case nil: ".embedded"
                    }
                    return "NormAPI.FieldPagination(type: \(quoted(declaration.type)), field: \(quoted(declaration.field)), style: \(style), "
                        + "returnType: \(quoted(TypeShape(returned).graphQL)))"
                }, into: &swift)
                let roots = [schema.schema.queryType?.name, schema.schema.mutationType?.name, schema.schema.subscriptionType?.name]
                    .map { $0.map(quoted) ?? "nil" }
                swift.line("public static let rootTypes = NormAPI.RootTypes(query: \(roots[0]), mutation: \(roots[1]), subscription: \(roots[2]))")
            }
            swift.line()
            for container in ["Objects", "Interfaces", "Unions"] { swift.line("public enum \(container) {}") }
        }
        return swift.text
    }

    /// `public static let name: type = [...]`, one item a line.
    private func list(_ declaration: String, _ items: [String], into swift: inout SwiftWriter) {
        guard !items.isEmpty else { return swift.line("public static let \(declaration) = []") }
        swift.line("public static let \(declaration) = [")
        for item in items { swift.line("    " + item + ",") }
        swift.line("]")
    }

    /// An object type of the schema as Apollo iOS's codegen writes it: `Objects.Trip`, with
    /// its interfaces and key fields.
    private func objectFile(_ type: GraphQLObjectType) -> String {
        let interfaces = ((try? type.interfaces()) ?? []).map { member("Interfaces", $0.name) }
        return schemaTypeFile(type.name, type.description, in: "Objects", [
            "NormAPI.Object(",
            "    typename: \(quoted(type.name)),",
            "    implementedInterfaces: [\(interfaces.joined(separator: ", "))],",
            "    keyFields: \(keyFields(of: type.name))",
            ")",
        ])
    }

    /// An interface as Apollo iOS's codegen writes it: `Interfaces.Node`, with its key
    /// fields and the names of the object types that implement it.
    private func interfaceFile(_ type: GraphQLInterfaceType) -> String {
        schemaTypeFile(type.name, type.description, in: "Interfaces", [
            "NormAPI.Interface(",
            "    name: \(quoted(type.name)),",
            "    keyFields: \(keyFields(of: type.name)),",
            "    implementingObjects: \(quoted(schema.schema.getPossibleTypes(abstractType: type).map(\.name)))",
            ")",
        ])
    }

    /// A union as Apollo iOS's codegen writes it: `Unions.Endpoint`, with its members.
    private func unionFile(_ type: GraphQLUnionType) -> String {
        let members = ((try? type.types()) ?? []).map { member("Objects", $0.name) }
        return schemaTypeFile(type.name, type.description, in: "Unions", [
            "NormAPI.Union(",
            "    name: \(quoted(type.name)),",
            "    possibleTypes: [\(members.joined(separator: ", "))]",
            ")",
        ])
    }

    /// The file declaring the type `name` (`description` its comment) as `static let` of
    /// `container` (`Objects`), its value `lines`.
    private func schemaTypeFile(_ name: String, _ description: String?, in container: String, _ lines: [String]) -> String {
        var swift = SwiftWriter.generatedFile(from: "the schema")
        swift.block("public extension \(layout.schemaTypesEnum.map { "\($0)." } ?? "")\(container)") { swift in
            swift.documentation(description)
            swift.line("static let \(names.typeName(name)) = " + lines[0])
            for line in lines.dropFirst() { swift.line(line) }
        }
        return swift.text
    }

    /// How generated code names the schema type `name` declared in `container`: `TripsAPI.Objects.Trip`.
    private func member(_ container: String, _ name: String) -> String { "\(names.namespace).\(container).\(names.typeName(name))" }

    /// The `@typePolicy` key fields of the type named `name`, as Swift: `["code"]`, or `nil`.
    private func keyFields(of name: String) -> String {
        guard case .keyFields(let fields, _)? = knowledge.typePolicies[name], !fields.isEmpty else { return "nil" }
        return quoted(fields)
    }

    private func quoted(_ text: String) -> String { "\"" + text + "\"" }
    private func quoted(_ texts: [String]) -> String { "[" + texts.map(quoted).joined(separator: ", ") + "]" }

    private func enumFile(_ type: GraphQLEnumType) -> String {
        var swift = SwiftWriter.generatedFile(from: "the schema")
        swift.within(layout.schemaTypesEnum) { swift in
            swift.documentation(type.description)
            swift.block("public enum \(names.typeName(type.name)): String, NormAPI.EnumType") { swift in
                for value in names.cases(of: type) {
                    // A deprecation is said in the comment: `@available` on a case stops Swift from
                    // deriving `CaseIterable`.
                    swift.documentation([value.description, value.deprecationReason.map { "Deprecated: \($0)" }]
                        .compactMap { $0 }.joined(separator: "\n"))
                    swift.line("case \(names.enumCase(value.name, of: type.name)) = \"\(value.name)\"")
                }
            }
        }
        return swift.text
    }

    private func inputObjectFile(_ type: GraphQLInputObjectType) -> String {
        if type.isOneOf { return oneOfInputObjectFile(type) }
        let fields = ((try? type.fields()) ?? [:]).map { name, field in
            let shape = TypeShape(field.type)
            // A field the server need not be given (nullable, or with a default) is optional.
            let optional = shape.wrappers.first != .nonNull || field.defaultValue != nil
            return (name: name, property: names.inputField(name, of: type.name), description: field.description,
                    type: shape.swift(names.swiftType(of: shape.named), optional: optional), optional: optional)
        }
        var swift = SwiftWriter.generatedFile(from: "the schema")
        swift.within(layout.schemaTypesEnum) { swift in
            swift.documentation(type.description)
            swift.block("public struct \(names.typeName(type.name)): NormAPI.InputObject") { swift in
                for field in fields {
                    swift.documentation(field.description)
                    swift.line("public var \(field.property): \(field.type)")
                }
                swift.line()
                let parameters = fields.map { "\($0.property): \($0.type)" + ($0.optional ? " = nil" : "") }
                swift.block("public init(\(parameters.joined(separator: ", ")))") { swift in
                    for field in fields { swift.line("self.\(field.property) = \(field.property)") }
                }
                swift.line()
                let members = fields.map { "\"\($0.name)\": \($0.property)\($0.optional ? "?" : "").jsonValue" }
                swift.line("public var jsonValue: JSONValue { .input([\(members.isEmpty ? ":" : members.joined(separator: ", "))]) }")
            }
        }
        return swift.text
    }

    /// A `@oneOf` input object, which takes exactly one of its fields, as Apollo iOS writes
    /// it: an enum with a case per field whose value is the field's, never null
    /// (`.byName("Porto")`), written as the object of that one field.
    private func oneOfInputObjectFile(_ type: GraphQLInputObjectType) -> String {
        let fields = ((try? type.fields()) ?? [:]).map { name, field in
            let shape = TypeShape(field.type)
            let value = TypeShape(named: shape.named, wrappers: shape.wrappers.first == .nonNull ? shape.wrappers : [.nonNull] + shape.wrappers)
            return (name: name, swiftCase: names.inputField(name, of: type.name), description: field.description,
                    type: value.swift(names.swiftType(of: shape.named)))
        }
        var swift = SwiftWriter.generatedFile(from: "the schema")
        swift.within(layout.schemaTypesEnum) { swift in
            swift.documentation(type.description)
            swift.block("public enum \(names.typeName(type.name)): NormAPI.InputObject") { swift in
                for field in fields {
                    swift.documentation(field.description)
                    swift.line("case \(field.swiftCase)(\(field.type))")
                }
                swift.line()
                swift.block("public var jsonValue: JSONValue") { swift in
                    swift.block("switch self") { swift in
                        for field in fields {
                            swift.line("case .\(field.swiftCase)(let value): .object([\"\(field.name)\": value.jsonValue])")
                        }
                    }
                }
            }
        }
        return swift.text
    }

    private func customScalarFile(_ type: GraphQLScalarType) -> String {
        var swift = SwiftWriter()
        swift.line("// Written once by normcache codegen, and yours from then on: replace the alias with a type of")
        swift.line("// your own that conforms to NormAPI.CustomScalarType. Codegen never rewrites this file.")
        swift.line()
        swift.line("import NormAPI")
        swift.line()
        swift.within(layout.schemaTypesEnum) { swift in
            swift.documentation(type.description)
            swift.line("public typealias \(names.typeName(type.name)) = String")
        }
        return swift.text
    }
}
