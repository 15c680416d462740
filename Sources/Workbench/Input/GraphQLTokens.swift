/// The tokens of GraphQL text as far as it is typed: names (and numbers), `...`, strings
/// (each one token, quotes included) and single punctuation characters; whitespace, commas
/// and comments left out. Half-typed and malformed text splits all the same: this never
/// fails on what it is given.
///
/// ```swift
/// GraphQLTokens.of(#"{ trip(id: "2") { ...on"#)   // ["{", "trip", "(", "id", ":", "\"2\"", ")", "{", "...", "on"]
/// GraphQLTokens.of(#"{ trip(id: "2"#)             // nil: the text ends inside a string
/// ```
enum GraphQLTokens {
    /// The tokens of `text`, or `nil` when it ends inside a string or a comment.
    static func of(_ text: Substring) -> [Substring]? {
        var tokens: [Substring] = []
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "#" {
                guard let end = text[index...].firstIndex(where: \.isNewline) else { return nil }
                index = end
            } else if character == "\"" {
                guard let end = end(ofStringAt: index, in: text) else { return nil }
                tokens.append(text[index..<end])
                index = end
            } else if isNameCharacter(character) {
                let end = text[index...].firstIndex { !isNameCharacter($0) } ?? text.endIndex
                tokens.append(text[index..<end])
                index = end
            } else if text[index...].hasPrefix("...") {
                let end = text.index(index, offsetBy: 3)
                tokens.append(text[index..<end])
                index = end
            } else {
                if !character.isSpace, character != "," { tokens.append(text[index...index]) }
                index = text.index(after: index)
            }
        }
        return tokens
    }

    /// Whether `character` belongs in a name (or a number): a letter, a digit or `_`.
    static func isNameCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_"
    }

    /// Where the string (`"…"` or `"""…"""`) that opens at `start` ends, just after its
    /// closing quotes; `nil` when it does not end.
    private static func end(ofStringAt start: String.Index, in text: Substring) -> String.Index? {
        let rest = text[start...]
        if rest.hasPrefix("\"\"\"") { return rest.dropFirst(3).firstRange(of: "\"\"\"")?.upperBound }
        var index = text.index(after: start)
        while index < text.endIndex, text[index] != "\"", !text[index].isNewline {
            if text[index] == "\\" { index = text.index(after: index) }
            if index < text.endIndex { index = text.index(after: index) }
        }
        return index < text.endIndex && text[index] == "\"" ? text.index(after: index) : nil
    }
}
