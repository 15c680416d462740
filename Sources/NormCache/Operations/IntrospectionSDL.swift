/// An introspection result written as SDL: the one converter for an HTTP endpoint's
/// schema (NormClient's introspection query) and a project's `schema.json` (NormProject),
/// so both read a schema the same way. It takes `{"__schema": …}`, or that inside `data`
/// as a downloaded `schema.json` has it, and writes a `schema` definition when the root
/// types are not named `Query`, `Mutation` and `Subscription`, then every type but the
/// built-in scalars and `__` types, sorted by name, with `@oneOf` inputs, deprecations,
/// and the schema's own directives. Descriptions are left out. What it cannot read (a
/// type of an unknown kind, a type reference without a name) is refused, never guessed.
///
/// ```swift
/// try IntrospectionSDL.sdl(of: data)   // "type Query {\n  trips: [Trip!]!\n}\n\n…"
/// ```
package enum IntrospectionSDL {
    /// What an introspection result lacks, or holds that is not one (said after "not an
    /// introspection result: ").
    package struct Problem: Error, CustomStringConvertible, Sendable {
        package let description: String
    }

    private static let builtInScalars: Set<String> = ["String", "Int", "Float", "Boolean", "ID"]
    private static let builtInDirectives: Set<String> = ["include", "skip", "deprecated", "specifiedBy", "oneOf", "defer", "stream"]

    package static func sdl(of introspection: CacheValue) throws(Problem) -> String {
        guard let schema = introspection["__schema"] ?? introspection["data"]?["__schema"], case .list(let types)? = schema["types"] else {
            throw Problem(description: "it has no __schema.types list")
        }
        var definitions: [(name: String, text: String)] = []
        for type in types {
            guard let name = string(type["name"]), !name.hasPrefix("__"), !builtInScalars.contains(name) else { continue }
            definitions.append((name, try definition(of: type, named: name)))
        }
        var directives: [String] = []
        for directive in try list(schema["directives"]) {
            let name = try required(string(directive["name"]), "a directive's name")
            guard !builtInDirectives.contains(name) else { continue }
            let arguments = try list(directive["args"]).map(inputValue)
            directives.append("directive @\(name)" + (arguments.isEmpty ? "" : "(" + arguments.joined(separator: ", ") + ")")
                              + (directive["isRepeatable"] == .bool(true) ? " repeatable" : "")
                              + " on " + (try list(directive["locations"]).compactMap { string($0) }.joined(separator: " | ")))
        }
        let blocks = (schemaDefinition(schema).map { [$0] } ?? []) + definitions.sorted { $0.name < $1.name }.map(\.text) + directives
        return blocks.joined(separator: "\n\n") + "\n"
    }

    /// `schema { query: Root … }`, or nil when the roots have their usual names.
    private static func schemaDefinition(_ schema: CacheValue) -> String? {
        let roots = [("query", "queryType", "Query"), ("mutation", "mutationType", "Mutation"), ("subscription", "subscriptionType", "Subscription")]
            .compactMap { operation, field, usualName in
                string(schema[field]?["name"]).map { (operation: operation, type: $0, usualName: usualName) }
            }
        guard roots.contains(where: { $0.type != $0.usualName }) else { return nil }
        return "schema {\n" + roots.map { "  \($0.operation): \($0.type)\n" }.joined() + "}"
    }

    private static func definition(of type: CacheValue, named name: String) throws(Problem) -> String {
        switch string(type["kind"]) {
        case "SCALAR":
            return "scalar \(name)"
        case "OBJECT":
            return "type \(name)\(try implements(type)) {\n" + (try fields(type)) + "}"
        case "INTERFACE":
            return "interface \(name)\(try implements(type)) {\n" + (try fields(type)) + "}"
        case "UNION":
            return "union \(name) = " + (try list(type["possibleTypes"]).map(typeReference).joined(separator: " | "))
        case "ENUM":
            let values = try list(type["enumValues"]).map { value throws(Problem) in
                "  " + (try required(string(value["name"]), "an enum value's name")) + deprecation(value) + "\n"
            }
            return "enum \(name) {\n" + values.joined() + "}"
        case "INPUT_OBJECT":
            let inputFields = try list(type["inputFields"]).map { field throws(Problem) in "  " + (try inputValue(field)) + "\n" }
            return "input \(name)\(type["isOneOf"] == .bool(true) ? " @oneOf" : "") {\n" + inputFields.joined() + "}"
        case let kind:
            throw Problem(description: "type \(name) is of the unknown kind \(kind ?? "null")")
        }
    }

    /// ` implements A & B`, or nothing.
    private static func implements(_ type: CacheValue) throws(Problem) -> String {
        let interfaces = try list(type["interfaces"]).map(typeReference)
        return interfaces.isEmpty ? "" : " implements " + interfaces.joined(separator: " & ")
    }

    /// One line per field: `  name(argument: Type = default): Type @deprecated(…)`.
    private static func fields(_ type: CacheValue) throws(Problem) -> String {
        try list(type["fields"]).map { field throws(Problem) in
            let arguments = try list(field["args"]).map(inputValue)
            return "  " + (try required(string(field["name"]), "a field's name"))
                + (arguments.isEmpty ? "" : "(" + arguments.joined(separator: ", ") + ")")
                + ": " + (try typeReference(field["type"] ?? .null)) + deprecation(field) + "\n"
        }.joined()
    }

    /// An argument or an input field: `name: Type = default`.
    private static func inputValue(_ value: CacheValue) throws(Problem) -> String {
        let declaration = (try required(string(value["name"]), "an argument's name")) + ": " + (try typeReference(value["type"] ?? .null))
        return string(value["defaultValue"]).map { declaration + " = " + $0 } ?? declaration
    }

    /// `[Trip!]!` for a type reference `{kind: NON_NULL, ofType: {kind: LIST, ofType: …}}`.
    private static func typeReference(_ type: CacheValue) throws(Problem) -> String {
        switch string(type["kind"]) {
        case "NON_NULL": try typeReference(type["ofType"] ?? .null) + "!"
        case "LIST": "[" + (try typeReference(type["ofType"] ?? .null)) + "]"
        default: try required(string(type["name"]), "a type reference's name (nested deeper than the query asks?)")
        }
    }

    /// ` @deprecated(reason: "…")` for a deprecated field or enum value, or nothing.
    private static func deprecation(_ value: CacheValue) -> String {
        guard value["isDeprecated"] == .bool(true) else { return "" }
        return string(value["deprecationReason"]).map { " @deprecated(reason: \(JSON.string(.string($0))))" } ?? " @deprecated"
    }

    private static func string(_ value: CacheValue?) -> String? {
        if case .string(let text)? = value { return text }
        return nil
    }

    /// The items of a list; none for null or a missing member.
    private static func list(_ value: CacheValue?) throws(Problem) -> [CacheValue] {
        switch value {
        case .list(let items)?: return items
        case nil, .null?: return []
        case let other?: throw Problem(description: "expected a list in the introspection result, not \(other.kindDescription)")
        }
    }

    private static func required(_ text: String?, _ what: String) throws(Problem) -> String {
        guard let text else { throw Problem(description: "the introspection result lacks \(what)") }
        return text
    }
}
