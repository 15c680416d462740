/// Recognizes GraphQL typed at the prompt and tells when an operation is complete: the
/// workbench keeps reading lines until its braces balance.
///
/// ```swift
/// GraphQLInput.starts("query Trips {")           // true
/// GraphQLInput.isComplete("query Trips {")       // false: read another line
/// GraphQLInput.isComplete("{ trips { id } }")    // true
/// ```
enum GraphQLInput {
    /// Whether a line begins an operation: `{`, or `query`, `mutation`, `subscription` or
    /// `fragment` followed by a space, a brace or a parenthesis.
    static func starts(_ line: Substring) -> Bool {
        if line.hasPrefix("{") { return true }
        let word = line.prefix { $0.isLetter }
        guard ["query", "mutation", "subscription", "fragment"].contains(word) else { return false }
        guard let next = line.dropFirst(word.count).first else { return true }
        return next.isWhitespace || next == "{" || next == "("
    }

    /// True when the text has at least one `{` and every brace outside strings and
    /// comments is closed.
    static func isComplete(_ text: String) -> Bool {
        var depth = 0, opened = false, inString = false, escaped = false, inComment = false
        for character in text {
            if inComment {
                if character == "\n" { inComment = false }
            } else if inString {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
            } else {
                switch character {
                case "#": inComment = true
                case "\"": inString = true
                case "{": depth += 1; opened = true
                case "}": depth -= 1
                default: break
                }
            }
        }
        return opened && depth <= 0
    }
}
