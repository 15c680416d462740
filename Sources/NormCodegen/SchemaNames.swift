import GraphQL
import NormProject

/// The Swift names of the schema's types and their members, as Apollo iOS's codegen forms
/// them from the configuration: `schemaCustomization.customTypeNames` first, then its rules
/// (a type's first letter uppercased; enum cases and input fields by
/// `conversionStrategies`), and how generated code names a schema type: qualified by the
/// namespace, which is the enum of an embedded target or the module of a package.
///
/// ```swift
/// let names = SchemaNames(namespace: "TripsAPI", configuration: project.codegen, schema: schema)
/// names.typeName("cabin")                         // "Cabin"
/// names.typeName("Error")                         // "Error_Object": Swift's, as Apollo iOS suffixes it
/// names.enumCase("FIRST_CLASS", of: "Cabin")      // "firstClass"
/// names.inputField("favorite_color", of: "Prefs") // "favoriteColor"
/// names.swiftType(of: cabinType)                   // "GraphQLEnum<TripsAPI.Cabin>"
/// ```
struct SchemaNames {
    /// The namespace as written: the enum, or the package's module.
    let namespace: String
    let configuration: CodegenConfiguration
    let schema: SchemaTypes

    init(namespace: String, configuration: CodegenConfiguration, schema: SchemaTypes) {
        self.namespace = SwiftNames.firstUppercased(namespace)
        self.configuration = configuration
        self.schema = schema
    }

    /// Names Apollo iOS's codegen gives a suffix of the type's kind (`_Enum`, `_Object`, ...)
    /// when a schema type would take them: Swift's and its generated code's own.
    static let namesToSuffix: Set<String> = [
        "Any", "DataDict", "DocumentType", "Fragments", "FragmentContainer", "ParentType", "Protocol", "Schema", "Selection",
        "Self", "String", "Bool", "Int", "Int32", "Float", "Double", "ID", "Type", "Error", "_",
    ]

    /// The Swift name of the schema type `schemaName`: its custom name, else the name with
    /// its first letter uppercased, and the suffix of its kind when Apollo iOS gives one. As
    /// in Apollo iOS, an entry with `cases` renames only an enum, one with `fields` only an
    /// input object, and a name for a type the schema lacks is left alone.
    func typeName(_ schemaName: String) -> String {
        let type = schema.type(named: schemaName)
        if let custom = configuration.customTypeNames[schemaName], let name = custom.name,
           custom.cases.isEmpty || type is GraphQLEnumType, custom.fields.isEmpty || type is GraphQLInputObjectType {
            return name
        }
        let name = SwiftNames.firstUppercased(schemaName)
        guard Self.namesToSuffix.contains(name) else { return name }
        let kind = switch type {
        case is GraphQLEnumType: "_Enum"
        case is GraphQLInputObjectType: "_InputObject"
        case is GraphQLInterfaceType: "_Interface"
        case is GraphQLObjectType: "_Object"
        case is GraphQLScalarType: "_Scalar"
        case is GraphQLUnionType: "_Union"
        default: "_GraphQL"
        }
        return name + kind
    }

    /// The Swift type of a named type that is not an object's: the built-in scalars as
    /// Swift's, an enum as `GraphQLEnum` of the namespace's enum, a custom scalar and an
    /// input object as the namespace's types.
    func swiftType(of type: GraphQLNamedType) -> String {
        switch type.name {
        case "String": "String"
        case "Int": "Int"
        case "Float": "Double"
        case "Boolean": "Bool"
        case "ID": "ID"
        default: type is GraphQLEnumType ? "GraphQLEnum<\(namespace).\(typeName(type.name))>" : "\(namespace).\(typeName(type.name))"
        }
    }

    /// The values of enum `type` that are its cases: all, or the ones not deprecated when
    /// `deprecatedEnumCases` is `exclude` (a value left out decodes as `.unknown`).
    func cases(of type: GraphQLEnumType) -> [GraphQLEnumValueDefinition] {
        configuration.includesDeprecatedEnumCases ? type.values : type.values.filter { $0.deprecationReason == nil }
    }

    /// The case of enum value `value` of enum `type`: its custom name, else camelCase
    /// (`FIRST_CLASS` → `firstClass`) unless `conversionStrategies.enumCases` is `none`.
    func enumCase(_ value: String, of type: String) -> String {
        if let custom = configuration.customTypeNames[type]?.cases[value] { return SwiftNames.escaped(custom) }
        return SwiftNames.escaped(configuration.enumCases == .camelCase ? SwiftNames.camelCased(value) : value)
    }

    /// The property of input field `field` of input object `type`: its custom name, else
    /// camelCase (`favorite_color` → `favoriteColor`) unless `conversionStrategies.inputObjects`
    /// is `none`. The JSON key stays the schema's name.
    func inputField(_ field: String, of type: String) -> String {
        if let custom = configuration.customTypeNames[type]?.fields[field] { return SwiftNames.escaped(custom) }
        return SwiftNames.escaped(configuration.inputObjectFields == .camelCase ? SwiftNames.camelCased(field) : field)
    }

    /// The property of the field answering under `responseKey`: camelCase first when
    /// `conversionStrategies.fieldAccessors` is `camelCase` (``SwiftNames/property(_:avoiding:)``).
    func property(_ responseKey: String, avoiding taken: Set<String> = []) -> String {
        SwiftNames.property(configuration.fieldAccessors == .camelCase ? SwiftNames.camelCased(responseKey) : responseKey, avoiding: taken)
    }
}
