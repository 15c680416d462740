/// The field names a schema (SDL) declares on its object types and interfaces: what Tab
/// offers inside a GraphQL operation. Descriptions, comments, arguments and directives
/// are skipped; which type a field belongs to is not kept.
///
/// ```swift
/// SchemaFields.names(in: #"type Query { "All of them." trips: [Trip!]! trip(id: ID!): Trip }"#)
/// // ["trip", "trips"]
/// ```
enum SchemaFields {
    static func names(in sdl: String) -> [String] {
        let tokens = self.tokens(of: sdl)
        var names: Set<Substring> = []
        var depth = 0, parentheses = 0
        var definition: Substring = ""   // the keyword of the definition being read: type, input, enum…
        for (index, token) in tokens.enumerated() {
            switch token {
            case "{": depth += 1
            case "}": depth -= 1
            case "(": parentheses += 1
            case ")": parentheses -= 1
            case _ where depth == 0 && parentheses == 0 && definitionKeywords.contains(token):
                definition = token
            case _ where depth == 1 && parentheses == 0 && (definition == "type" || definition == "interface"):
                let next = tokens.dropFirst(index + 1).first
                let previous = index > 0 ? tokens[index - 1] : ""
                if (next == ":" || next == "("), previous != "@", token.first!.isLetter || token.first == "_" { names.insert(token) }
            default: break
            }
        }
        return names.map(String.init).sorted()
    }

    private static let definitionKeywords: Set<Substring> = ["type", "interface", "input", "enum", "union", "scalar", "schema", "directive"]

    /// Names and single punctuation characters; whitespace, commas, comments and strings
    /// (descriptions) left out.
    private static func tokens(of sdl: String) -> [Substring] {
        var tokens: [Substring] = []
        var index = sdl.startIndex
        while index < sdl.endIndex {
            let character = sdl[index]
            if character == "#" {
                index = sdl[index...].firstIndex(of: "\n") ?? sdl.endIndex
            } else if character == "\"" {
                index = end(ofStringAt: index, in: sdl)
            } else if character.isLetter || character.isNumber || character == "_" {
                let end = sdl[index...].firstIndex { !($0.isLetter || $0.isNumber || $0 == "_") } ?? sdl.endIndex
                tokens.append(sdl[index..<end])
                index = end
            } else {
                if !character.isWhitespace, character != "," { tokens.append(sdl[index...index]) }
                index = sdl.index(after: index)
            }
        }
        return tokens
    }

    /// Where the string (`"…"` or `"""…"""`) that opens at `start` ends.
    private static func end(ofStringAt start: String.Index, in sdl: String) -> String.Index {
        let rest = sdl[start...]
        if rest.hasPrefix("\"\"\"") {
            let body = rest.dropFirst(3)
            return body.firstRange(of: "\"\"\"")?.upperBound ?? sdl.endIndex
        }
        var index = sdl.index(after: start)
        while index < sdl.endIndex, sdl[index] != "\"", sdl[index] != "\n" {
            if sdl[index] == "\\" { index = sdl.index(after: index) }
            if index < sdl.endIndex { index = sdl.index(after: index) }
        }
        return index < sdl.endIndex ? sdl.index(after: index) : index
    }
}
