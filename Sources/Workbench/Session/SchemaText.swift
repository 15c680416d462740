/// Reads SDL text as the workbench shows it: one type's definition out of a schema.
///
/// ```swift
/// SchemaText.definition(of: "Trip", in: "type Query { trips: [Trip] }\ntype Trip { id: ID! }")
/// // "type Trip { id: ID! }"
/// ```
enum SchemaText {
    /// The definition of `type` (type, interface, union, enum, input or scalar), up to the
    /// brace that closes it or the end of its line; nil when the schema has none.
    static func definition(of type: String, in sdl: String) -> String? {
        let lines = sdl.split(separator: "\n", omittingEmptySubsequences: false)
        let kinds: Set<Substring> = ["type", "interface", "union", "enum", "input", "scalar"]
        guard let start = lines.firstIndex(where: { line in
            let words = line.split(whereSeparator: { $0 == " " || $0 == "{" || $0 == "=" })
            return words.count >= 2 && kinds.contains(words[0]) && words[1] == type
        }) else { return nil }
        var depth = 0, end = start
        for index in start..<lines.count {
            depth += lines[index].filter { $0 == "{" }.count - lines[index].filter { $0 == "}" }.count
            end = index
            if depth <= 0 { break }
        }
        return lines[start...end].joined(separator: "\n")
    }
}
