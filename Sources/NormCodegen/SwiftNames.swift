/// How GraphQL names become Swift names, as Apollo iOS's codegen makes them: properties
/// start lowercase, nested types are the field's name capitalized (singular for a list),
/// enum cases are camelCase; a name Swift reserves is escaped.
///
/// ```swift
/// SwiftNames.property("Name")               // "name"
/// SwiftNames.property("default")            // "`default`"
/// SwiftNames.property("asPassenger", avoiding: ["asPassenger"])   // "asPassenger_"
/// SwiftNames.nestedType("journeys", isList: true)   // "Journey"
/// SwiftNames.enumCase("FIRST_CLASS")         // "firstClass"
/// SwiftNames.nestedType("type", isList: false)      // "Type_"
/// ```
enum SwiftNames {
    /// Swift's keywords: a property or case named after one is written in backticks.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows",
        "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default",
        "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch",
        "where", "while", "Any", "as", "await", "false", "is", "nil", "super", "throws", "true", "try",
        "async", "consume", "copy", "discard", "each", "some", "borrowing", "consuming", "any",
    ]

    /// Properties a generated selection set has of its own: a field of that name gets `_` after it.
    static let structuralProperties: Set<String> = ["fragments", "jsonValue", "hashValue", "self", "Type", "Protocol", "Self"]

    /// Type names a nested type may not take: what generated code refers to by name inside
    /// it (NormAPI's types, the scalars), and what Swift reserves. They get `_` after them.
    static let reservedTypeNames: Set<String> = [
        "Type", "Protocol", "Self", "Any", "Data", "Fragments", "String", "Int", "Double", "Bool", "ID", "Optional", "Array",
        "Set", "Swift", "NormAPI", "ResponseData", "ResponseDecodable", "ResponseEncodable", "ResponseDecodingError",
        "JSONValue", "GraphQLEnum", "SelectionSet", "Fragment", "InputObject", "EnumType", "Source", "Hashable", "Sendable",
    ]

    /// The property of the field answering under `responseKey`, with `_` after it while
    /// `taken` has the name (a type case `asPassenger`, a fragment's `namedFields`, another
    /// field's `name` from the key `Name`).
    static func property(_ responseKey: String, avoiding taken: Set<String> = []) -> String {
        var name = lowercasedFirst(responseKey)
        while taken.contains(escaped(name)) { name += "_" }
        return escaped(name)
    }

    /// A property name, escaped when Swift reserves it or generated code uses it.
    static func escaped(_ name: String) -> String {
        if structuralProperties.contains(name) { return name + "_" }
        return keywords.contains(name) ? "`\(name)`" : name
    }

    /// The type of a field's selection: `owner` → `Owner`, `journeys` → `Journey`.
    static func nestedType(_ responseKey: String, isList: Bool) -> String {
        let name = uppercasedFirst(isList ? singular(responseKey) : responseKey)
        return reservedTypeNames.contains(name) ? name + "_" : name
    }

    /// An enum value's case: `FIRST_CLASS` → `firstClass`, `flight` → `flight`.
    static func enumCase(_ value: String) -> String {
        let parts = value.split(separator: "_", omittingEmptySubsequences: true)
        guard value.contains("_") || value == value.uppercased() else { return escaped(lowercasedFirst(value)) }
        let words = parts.enumerated().map { index, part in
            let lower = part.lowercased()
            return index == 0 ? lower : uppercasedFirst(lower)
        }
        let name = words.joined()
        return escaped(name.isEmpty ? value : name)
    }

    /// The property of a fragment in `fragments`: `TripHeader` → `tripHeader`.
    static func fragmentProperty(_ fragmentName: String) -> String { escaped(lowercasedFirst(fragmentName)) }

    /// A name Swift cannot use as an identifier at all, even escaped (`_`).
    static func isUnusable(_ name: String) -> Bool { name.allSatisfy { $0 == "_" } }

    static func lowercasedFirst(_ name: String) -> String {
        // A leading run of capitals is one word: `URLs` → `urls`, `ID` → `id`, `Name` → `name`.
        let capitals = name.prefix { $0.isUppercase }
        guard !capitals.isEmpty else { return name }
        let run = capitals.count == name.count || capitals.count == 1 ? capitals : capitals.dropLast()
        return run.lowercased() + name.dropFirst(run.count)
    }

    static func uppercasedFirst<Text: StringProtocol>(_ name: Text) -> String {
        guard let first = name.first else { return String(name) }
        return first.uppercased() + name.dropFirst()
    }

    /// English plurals as field names use them: `journeys` → `journey`, `addresses` →
    /// `address`, `people` stays (no rule fits); a name that is not plural stays.
    static func singular(_ name: String) -> String {
        if name.hasSuffix("ies"), name.count > 3 { return name.dropLast(3) + "y" }
        if name.hasSuffix("sses") || name.hasSuffix("xes") || name.hasSuffix("ches") || name.hasSuffix("shes") { return String(name.dropLast(2)) }
        if name.hasSuffix("s"), !name.hasSuffix("ss"), name.count > 1 { return String(name.dropLast()) }
        return name
    }

    /// A Swift string literal of `text` as written, over several lines: a raw string whose
    /// delimiter no `"""` in the text can end.
    static func multilineLiteral(_ text: String, indent: String) -> String {
        var hashes = "#"
        while text.contains("\"\"\"" + hashes) || text.contains("\\" + hashes) { hashes += "#" }
        let body = text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.isEmpty ? "" : indent + $0 }.joined(separator: "\n")
        return hashes + "\"\"\"\n" + body + "\n" + indent + "\"\"\"" + hashes
    }
}
