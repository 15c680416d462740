/// What GraphQLSwift's parser cannot take, refused before it sees a text: nesting of
/// braces, brackets and parentheses deeper than ``maxNesting`` (its stack), and a
/// string's `\u` escape cut off by the end of the text (GraphQLSwift 4.3.0 reads the four
/// digits past the end, a trap the fuzzer found). Every text normcache parses goes
/// through it first: typed operations, a schema's SDL, a project's files.
///
/// ```swift
/// try GraphQLParserGuard.check(#"{ trip(name: "\u1"#)   // OperationError 1:15: the text ends inside the escape \u, …
/// ```
package enum GraphQLParserGuard {
    /// How deep selections, lists and arguments may nest.
    package static let maxNesting = 128

    /// Throws, with the line and column, what GraphQLSwift's parser cannot take.
    package static func check(_ source: String) throws(OperationError) {
        let length = source.utf8.count
        var depth = 0, line = 1, column = 0
        var inString = false, escaped = false, inComment = false
        for (offset, byte) in source.utf8.enumerated() {
            column += 1
            if byte == 0x0A {
                line += 1
                column = 0
                inComment = false
                continue
            }
            if inComment { continue }
            if inString {
                if escaped {
                    escaped = false
                    if byte == UInt8(ascii: "u"), length - offset <= 4 {
                        throw OperationError("the text ends inside the escape \\u, which takes four hex digits", line: line, column: column - 1)
                    }
                } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "#"): inComment = true
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "("):
                depth += 1
                if depth > maxNesting {
                    throw OperationError("nesting deeper than \(maxNesting) levels", line: line, column: column)
                }
            case UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ")"): depth -= 1
            default: break
            }
        }
    }

}
