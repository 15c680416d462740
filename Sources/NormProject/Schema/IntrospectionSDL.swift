import NormCache

/// An introspection result (`schema.json`: `{"data": {"__schema": …}}` or `{"__schema": …}`)
/// written as SDL, so that a JSON schema and `.graphqls` extension files make one schema
/// document. Descriptions and deprecations are left out: validation does not need them;
/// `@oneOf` is kept (`isOneOf`), for validation and for the variables checked against it.
enum IntrospectionSDL {
    private static let builtInScalars: Set<String> = ["String", "Int", "Float", "Boolean", "ID"]
    private static let builtInDirectives: Set<String> = ["include", "skip", "deprecated", "specifiedBy", "oneOf"]

    /// The SDL of `introspection`, or `nil` when it has no `__schema.types` list.
    static func sdl(_ introspection: CacheValue) -> String? {
        let schema = introspection["data"]?["__schema"] ?? introspection["__schema"]
        guard let schema, case .list(let types)? = schema["types"] else { return nil }
        var lines: [String] = []
        let roots = [("query", "queryType"), ("mutation", "mutationType"), ("subscription", "subscriptionType")]
            .compactMap { operation, key in name(schema[key]).map { "  \(operation): \($0)" } }
        if !roots.isEmpty { lines.append("schema {\n" + roots.joined(separator: "\n") + "\n}") }
        for type in types {
            guard let typeName = name(type), !typeName.hasPrefix("__"), !builtInScalars.contains(typeName) else { continue }
            let implements = list(type["interfaces"]).compactMap(name)
            let implementsClause = implements.isEmpty ? "" : " implements " + implements.joined(separator: " & ")
            switch string(type["kind"]) {
            case "SCALAR": lines.append("scalar \(typeName)")
            case "OBJECT": lines.append("type \(typeName)\(implementsClause) {\n\(fields(type["fields"]))\n}")
            case "INTERFACE": lines.append("interface \(typeName)\(implementsClause) {\n\(fields(type["fields"]))\n}")
            case "UNION": lines.append("union \(typeName) = " + list(type["possibleTypes"]).compactMap(name).joined(separator: " | "))
            case "ENUM": lines.append("enum \(typeName) {\n" + list(type["enumValues"]).compactMap(name).map { "  " + $0 }.joined(separator: "\n") + "\n}")
            case "INPUT_OBJECT": lines.append("input \(typeName)\(type["isOneOf"] == .bool(true) ? " @oneOf" : "") {\n" + list(type["inputFields"]).compactMap(inputValue).map { "  " + $0 }.joined(separator: "\n") + "\n}")
            default: continue
            }
        }
        for directive in list(schema["directives"]) {
            guard let directiveName = name(directive), !builtInDirectives.contains(directiveName) else { continue }
            lines.append("directive @\(directiveName)\(arguments(directive["args"]))"
                         + (directive["isRepeatable"] == .bool(true) ? " repeatable" : "")
                         + " on " + list(directive["locations"]).compactMap(string).joined(separator: " | "))
        }
        return lines.joined(separator: "\n\n") + "\n"
    }

    private static func fields(_ value: CacheValue?) -> String {
        list(value).compactMap { field in
            name(field).map { "  \($0)\(arguments(field["args"])): \(typeReference(field["type"]))" }
        }.joined(separator: "\n")
    }

    private static func arguments(_ value: CacheValue?) -> String {
        let arguments = list(value).compactMap { inputValue($0) }
        return arguments.isEmpty ? "" : "(" + arguments.joined(separator: ", ") + ")"
    }

    private static func inputValue(_ value: CacheValue) -> String? {
        guard let valueName = name(value) else { return nil }
        let defaultValue = string(value["defaultValue"]).map { " = " + $0 } ?? ""
        return "\(valueName): \(typeReference(value["type"]))\(defaultValue)"
    }

    /// `{"kind":"NON_NULL","ofType":{"kind":"LIST","ofType":{"name":"Trip"}}}` → `[Trip]!`.
    private static func typeReference(_ value: CacheValue?) -> String {
        switch string(value?["kind"]) {
        case "NON_NULL": typeReference(value?["ofType"]) + "!"
        case "LIST": "[" + typeReference(value?["ofType"]) + "]"
        default: name(value) ?? "String"
        }
    }

    private static func name(_ value: CacheValue?) -> String? { string(value?["name"]) }

    private static func string(_ value: CacheValue?) -> String? {
        if case .string(let text)? = value { text } else { nil }
    }

    private static func list(_ value: CacheValue?) -> [CacheValue] {
        if case .list(let values)? = value { values } else { [] }
    }
}
