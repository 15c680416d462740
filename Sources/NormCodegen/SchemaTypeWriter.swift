import GraphQL

/// Writes the schema's types that operations use, in the namespace enum or at the top level
/// of the schema's module (``OutputLayout``), named as the configuration says
/// (``SchemaNames``): enums (a case per value, the GraphQL name as raw value), input objects
/// (nil leaves a field out; the JSON key is the schema's name; a `@oneOf` one is an enum of
/// its fields), and custom scalars as a
/// `String` alias in a file written once and never again, for a team to replace with a type
/// of its own.
struct SchemaTypeWriter {
    let names: SchemaNames
    let layout: OutputLayout
    let schema: SchemaTypes
    /// The SDL to embed for the server that serves the schema (a plugin's), or nil.
    let embeddedSDL: String?

    func files(for used: UsedSchemaTypes) -> [GeneratedFile] {
        var files = layout.namespaceFilePath.map { [GeneratedFile(path: $0, contents: namespaceFile())] } ?? []
        for name in used.names.sorted() {
            let swiftName = names.typeName(name)
            switch schema.type(named: name) {
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
        swift.documentation("The schema's enums, input objects and custom scalars that the operations use.")
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
