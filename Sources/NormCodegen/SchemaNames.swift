import GraphQL
import NormProject

/// The Swift names of the schema's types and their members, as Apollo iOS's codegen forms
/// them from the configuration: `schemaCustomization.customTypeNames` first, then its rules
/// (a type's first letter uppercased; enum cases and input fields by
/// `conversionStrategies`), and how generated code names a schema type: qualified by the
/// namespace, which is the enum of an embedded target or the module of a package.
///
/// ```swift
/// let names = SchemaNames(namespace: "TripsAPI", configuration: project.codegen)
/// names.typeName("cabin")                         // "Cabin"
/// names.enumCase("FIRST_CLASS", of: "Cabin")      // "firstClass"
/// names.inputField("favorite_color", of: "Prefs") // "favoriteColor"
/// names.swiftType(of: cabinType)                   // "GraphQLEnum<TripsAPI.Cabin>"
/// ```
struct SchemaNames {
    /// The namespace as written: the enum, or the package's module.
    let namespace: String
    let configuration: CodegenConfiguration

    init(namespace: String, configuration: CodegenConfiguration) {
        self.namespace = SwiftNames.firstUppercased(namespace)
        self.configuration = configuration
    }

    /// The Swift name of the schema type `schemaName`: its custom name, else the name with
    /// its first letter uppercased.
    func typeName(_ schemaName: String) -> String {
        configuration.customTypeNames[schemaName]?.name ?? SwiftNames.firstUppercased(schemaName)
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
