import Foundation

/// How GraphQL names become Swift names, as Apollo iOS's codegen makes them: properties
/// start lowercase (an all-capitals name is lowercased whole), types start uppercase,
/// nested types are the field's name capitalized (singular for a list), `snake_case`
/// becomes camelCase where the configuration asks; a name Swift reserves is escaped.
///
/// ```swift
/// SwiftNames.property("Name")               // "name"
/// SwiftNames.property("default")            // "`default`"
/// SwiftNames.property("asPassenger", avoiding: ["asPassenger"])   // "asPassenger_"
/// SwiftNames.nestedType("journeys", isList: true)   // "Journey"
/// SwiftNames.camelCased("FIRST_CLASS")       // "firstClass"
/// SwiftNames.fragmentType("dogFragment")     // "DogFragment"
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
        "JSONValue", "GraphQLEnum", "SelectionSet", "Fragment", "InputObject", "EnumType", "Source", "Hashable", "Sendable", "Deferred",
    ]

    /// The property of the field answering under `responseKey`, with `_` after it while
    /// `taken` has the name (a type case `asPassenger`, a fragment's `namedFields`, another
    /// field's `name` from the key `Name`).
    static func property(_ responseKey: String, avoiding taken: Set<String> = []) -> String {
        var name = responseKey == responseKey.uppercased() ? responseKey.lowercased() : firstLowercased(responseKey)
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
        let name = firstUppercased(isList ? singular(responseKey) : responseKey)
        return reservedTypeNames.contains(name) ? name + "_" : name
    }

    /// `snake_case` or `SHOUTING_CASE` as camelCase, as Apollo iOS converts enum cases and
    /// input fields: `FIRST_CLASS` → `firstClass`, `HAIR` → `hair`, `favorite_color` →
    /// `favoriteColor`, `FirstClass` → `firstClass`; leading and trailing `_` are kept.
    static func camelCased(_ name: String) -> String {
        guard name.contains("_") else {
            return name.contains(where: \.isLowercase) ? firstLowercased(name) : name.lowercased()
        }
        return firstLowercased(name.components(separatedBy: "_").map { $0.isEmpty ? "_" : $0.capitalized }.joined())
    }

    /// The type of a fragment: its name with the first letter uppercased (`dogFragment` → `DogFragment`).
    static func fragmentType(_ fragmentName: String) -> String { firstUppercased(fragmentName) }

    /// The property of a fragment in `fragments`: `TripHeader` → `tripHeader`.
    static func fragmentProperty(_ fragmentName: String) -> String { escaped(firstLowercased(fragmentName)) }

    /// A name Swift cannot use as an identifier at all, even escaped (`_`).
    static func isUnusable(_ name: String) -> Bool { name.allSatisfy { $0 == "_" } }

    /// The first cased letter lowercased (`TripHeader` → `tripHeader`, `URLs` → `uRLs`).
    static func firstLowercased(_ name: String) -> String {
        guard let index = name.firstIndex(where: \.isCased) else { return name }
        return name[...index].lowercased() + name[name.index(after: index)...]
    }

    /// The first cased letter uppercased (`dogFragment` → `DogFragment`, `_id` → `_Id`).
    static func firstUppercased<Text: StringProtocol>(_ name: Text) -> String {
        guard let index = name.firstIndex(where: \.isCased) else { return String(name) }
        return name[...index].uppercased() + name[name.index(after: index)...]
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
