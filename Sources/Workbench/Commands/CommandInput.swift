/// The arguments of a dot-command line: its words (a double-quoted string is one word,
/// with `\"` and `\\` inside) and the raw text, for commands whose last argument is
/// free text such as JSON.
///
/// ```swift
/// let input = try CommandInput(#"Trip:1 {"name": "Porto"}"#, synopsis: ".write KEY JSON")
/// input.words          // ["Trip:1", "{\"name\":", "\"Porto\"}"]
/// input.rest(after: 1) // {"name": "Porto"}
/// try input.words(1...1)   // throws "usage: .write KEY JSON"
/// ```
package struct CommandInput: Sendable {
    package let text: Substring
    package let words: [String]
    /// The command's synopsis (`.write KEY JSON`), for usage errors.
    package let synopsis: String
    /// Where each word ends in `text`.
    private let ends: [String.Index]

    package init(_ text: Substring, synopsis: String) throws(CommandError) {
        self.text = text
        self.synopsis = synopsis
        var words: [String] = [], ends: [String.Index] = []
        var index = text.startIndex
        while index < text.endIndex {
            guard !text[index].isSpace else {
                index = text.index(after: index)
                continue
            }
            var word = ""
            if text[index] == "\"" {
                let opening = index
                index = text.index(after: index)
                var closed = false
                while index < text.endIndex {
                    let character = text[index]
                    index = text.index(after: index)
                    if character == "\"" {
                        closed = true
                        break
                    }
                    if character == "\\", index < text.endIndex, text[index] == "\"" || text[index] == "\\" {
                        word.append(text[index])
                        index = text.index(after: index)
                    } else {
                        word.append(character)
                    }
                }
                guard closed else {
                    throw CommandError("unterminated quoted string starting at column \(text.distance(from: text.startIndex, to: opening) + 1) of the arguments")
                }
            } else {
                while index < text.endIndex, !text[index].isSpace {
                    word.append(text[index])
                    index = text.index(after: index)
                }
            }
            words.append(word)
            ends.append(index)
        }
        self.words = words
        self.ends = ends
    }

    package init(_ text: String, synopsis: String) throws(CommandError) { try self.init(text[...], synopsis: synopsis) }

    /// The words, checked against how many the command takes.
    package func words(_ count: ClosedRange<Int>) throws(CommandError) -> [String] {
        guard count.contains(words.count) else {
            throw CommandError(count.upperBound == 0 ? "\(synopsis) takes no arguments" : "usage: \(synopsis)")
        }
        return words
    }

    /// The raw text of the words in `range`, trimmed: the JSON between a command's name
    /// argument and an option word (`.run NAME JSON --write DATA`).
    package func text(ofWords range: Range<Int>) -> String {
        guard !range.isEmpty else { return "" }
        let start = range.lowerBound == 0 ? text.startIndex : ends[range.lowerBound - 1]
        return String(text[start..<ends[range.upperBound - 1]].trimmingWhitespace)
    }

    /// The raw text after the first `count` words, trimmed.
    package func rest(after count: Int) -> String {
        guard count > 0 else { return String(text.trimmingWhitespace) }
        guard count <= ends.count else { return "" }
        return String(text[ends[count - 1]...].trimmingWhitespace)
    }
}

extension CommandInput {
    /// The one word `on` or `off`, as a Bool.
    func onOff() throws(CommandError) -> Bool {
        switch try words(1...1)[0] {
        case "on": true
        case "off": false
        case let word: throw CommandError("\(synopsis.split(separator: " ")[0]) takes on or off, not \"\(word)\"")
        }
    }
}
