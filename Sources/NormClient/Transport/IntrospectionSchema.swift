import NormCache

/// How an HTTP endpoint tells its schema: the standard introspection query, and its result
/// printed as SDL.
///
/// ```swift
/// let data = try await transport.introspect()   // sends IntrospectionSchema.query
/// try IntrospectionSchema.sdl(from: data)        // "interface Node {\n  id: ID!\n}\n\n…"
/// ```
enum IntrospectionSchema {
    /// The introspection query: root types, and every type with its fields, arguments,
    /// input fields, interfaces, enum values and possible types (no descriptions or directives).
    static let query = """
        query IntrospectionQuery {
          __schema {
            queryType { name }
            mutationType { name }
            subscriptionType { name }
            types { ...FullType }
          }
        }

        fragment FullType on __Type {
          kind
          name
          fields(includeDeprecated: true) {
            name
            args { ...InputValue }
            type { ...TypeRef }
            isDeprecated
            deprecationReason
          }
          inputFields { ...InputValue }
          interfaces { ...TypeRef }
          enumValues(includeDeprecated: true) { name isDeprecated deprecationReason }
          possibleTypes { ...TypeRef }
        }

        fragment InputValue on __InputValue {
          name
          type { ...TypeRef }
          defaultValue
        }

        fragment TypeRef on __Type {
          kind
          name
          ofType { kind name ofType { kind name ofType { kind name ofType { kind name
            ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } } }
        }
        """

    /// The scalars every schema has, which SDL leaves out.
    private static let builtInScalars: Set<String> = ["String", "Int", "Float", "Boolean", "ID"]

    /// The SDL of the schema in `data` (the introspection query's `data`): a `schema`
    /// definition when the root types are not named `Query`, `Mutation` and `Subscription`,
    /// then every type except built-in scalars and `__` types, sorted by name.
    static func sdl(from data: CacheValue) throws(TransportError) -> String {
        guard let schema = data["__schema"], case .list(let types)? = schema["types"] else {
            throw .invalidResponse("an introspection result needs a __schema.types list")
        }
        var definitions: [(name: String, text: String)] = []
        for type in types {
            guard let name = string(type["name"]), !name.hasPrefix("__"), !builtInScalars.contains(name) else { continue }
            definitions.append((name, try definition(of: type, named: name)))
        }
        let blocks = (schemaDefinition(schema).map { [$0] } ?? []) + definitions.sorted { $0.name < $1.name }.map(\.text)
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

    private static func definition(of type: CacheValue, named name: String) throws(TransportError) -> String {
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
            let values = try list(type["enumValues"]).map { value throws(TransportError) in
                "  " + (try required(string(value["name"]), "an enum value's name")) + deprecation(value) + "\n"
            }
            return "enum \(name) {\n" + values.joined() + "}"
        case "INPUT_OBJECT":
            let inputFields = try list(type["inputFields"]).map { field throws(TransportError) in "  " + (try inputValue(field)) + "\n" }
            return "input \(name) {\n" + inputFields.joined() + "}"
        case let kind:
            throw .invalidResponse("type \(name) is of the unknown kind \(kind ?? "null")")
        }
    }

    /// ` implements A & B`, or nothing.
    private static func implements(_ type: CacheValue) throws(TransportError) -> String {
        let interfaces = try list(type["interfaces"]).map(typeReference)
        return interfaces.isEmpty ? "" : " implements " + interfaces.joined(separator: " & ")
    }

    /// One line per field: `  name(argument: Type = default): Type @deprecated(…)`.
    private static func fields(_ type: CacheValue) throws(TransportError) -> String {
        try list(type["fields"]).map { field throws(TransportError) in
            let arguments = try list(field["args"]).map(inputValue)
            return "  " + (try required(string(field["name"]), "a field's name"))
                + (arguments.isEmpty ? "" : "(" + arguments.joined(separator: ", ") + ")")
                + ": " + (try typeReference(field["type"] ?? .null)) + deprecation(field) + "\n"
        }.joined()
    }

    /// An argument or an input field: `name: Type = default`.
    private static func inputValue(_ value: CacheValue) throws(TransportError) -> String {
        let declaration = (try required(string(value["name"]), "an argument's name")) + ": " + (try typeReference(value["type"] ?? .null))
        return string(value["defaultValue"]).map { declaration + " = " + $0 } ?? declaration
    }

    /// `[Trip!]!` for a type reference `{kind: NON_NULL, ofType: {kind: LIST, ofType: …}}`.
    private static func typeReference(_ type: CacheValue) throws(TransportError) -> String {
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
    private static func list(_ value: CacheValue?) throws(TransportError) -> [CacheValue] {
        switch value {
        case .list(let items)?: return items
        case nil, .null?: return []
        case let other?: throw .invalidResponse("expected a list in the introspection result, not \(other.kindDescription)")
        }
    }

    private static func required(_ text: String?, _ what: String) throws(TransportError) -> String {
        guard let text else { throw .invalidResponse("the introspection result lacks \(what)") }
        return text
    }
}
