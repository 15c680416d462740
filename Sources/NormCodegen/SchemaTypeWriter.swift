import GraphQL

/// Writes the schema's types that operations use, inside the namespace enum: enums (a
/// case per value, the GraphQL name as raw value), input objects (nil leaves a field
/// out; a `@oneOf` one is an enum of its fields), and custom scalars as a `String` alias in a file written once and never again,
/// for a team to replace with a type of its own.
struct SchemaTypeWriter {
    let namespace: String
    let schema: SchemaTypes
    let embedsSchema: Bool

    func files(for used: UsedSchemaTypes) -> [GeneratedFile] {
        var files = [GeneratedFile(path: "Schema/SchemaNamespace.graphql.swift", contents: namespaceFile())]
        for name in used.names.sorted() {
            switch schema.type(named: name) {
            case let type as GraphQLEnumType: files.append(GeneratedFile(path: "Schema/Enums/\(name).graphql.swift", contents: enumFile(type)))
            case let type as GraphQLInputObjectType:
                files.append(GeneratedFile(path: "Schema/InputObjects/\(name).graphql.swift", contents: inputObjectFile(type)))
            case let type as GraphQLScalarType:
                files.append(GeneratedFile(path: "Schema/CustomScalars/\(name).swift", contents: customScalarFile(type), isTeamOwned: true))
            default: break
            }
        }
        return files
    }

    private func namespaceFile() -> String {
        var swift = SwiftWriter.generatedFile(from: "the schema")
        swift.documentation("The schema's enums, input objects and custom scalars that the operations use.")
        guard embedsSchema else {
            swift.line("public enum \(namespace) {}")
            return swift.text
        }
        swift.block("public enum \(namespace)") { swift in
            swift.documentation("The schema as SDL, for the server that serves it.")
            swift.line("public static let sdl = " + SwiftNames.multilineLiteral(printSchema(schema: schema.schema), indent: swift.indent + "    "))
        }
        return swift.text
    }

    private func enumFile(_ type: GraphQLEnumType) -> String {
        var swift = SwiftWriter.generatedFile(from: "the schema")
        swift.block("extension \(namespace)") { swift in
            swift.documentation(type.description)
            swift.block("public enum \(type.name): String, NormAPI.EnumType") { swift in
                for value in type.values {
                    // A deprecation is said in the comment: `@available` on a case stops Swift from
                    // deriving `CaseIterable`.
                    swift.documentation([value.description, value.deprecationReason.map { "Deprecated: \($0)" }]
                        .compactMap { $0 }.joined(separator: "\n"))
                    swift.line("case \(SwiftNames.enumCase(value.name)) = \"\(value.name)\"")
                }
            }
        }
        return swift.text
    }

    private func inputObjectFile(_ type: GraphQLInputObjectType) -> String {
        let fields = ((try? type.fields()) ?? [:]).map { name, field in
            let shape = TypeShape(field.type)
            // A field the server need not be given (nullable, or with a default) is optional.
            let optional = shape.wrappers.first != .nonNull || field.defaultValue != nil
            return (name: name, property: SwiftNames.escaped(name), description: field.description,
                    type: shape.swift(SchemaTypes.swiftType(of: shape.named, namespace: namespace), optional: optional), optional: optional)
        }
        if type.isOneOf { return oneOfInputObjectFile(type) }
        var swift = SwiftWriter.generatedFile(from: "the schema")
        swift.block("extension \(namespace)") { swift in
            swift.documentation(type.description)
            swift.block("public struct \(type.name): NormAPI.InputObject") { swift in
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
            return (name: name, swiftCase: SwiftNames.escaped(name), description: field.description,
                    type: value.swift(SchemaTypes.swiftType(of: shape.named, namespace: namespace)))
        }
        var swift = SwiftWriter.generatedFile(from: "the schema")
        swift.block("extension \(namespace)") { swift in
            swift.documentation(type.description)
            swift.block("public enum \(type.name): NormAPI.InputObject") { swift in
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
        swift.block("extension \(namespace)") { swift in
            swift.documentation(type.description)
            swift.line("public typealias \(type.name) = String")
        }
        return swift.text
    }
}
