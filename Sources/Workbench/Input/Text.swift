// Text helpers of the command line: trimming, spaces, and quoting what a message shows.

extension StringProtocol {
    var trimmingWhitespace: SubSequence {
        let start = firstIndex { !$0.isSpace } ?? endIndex
        let end = lastIndex { !$0.isSpace }.map(index(after:)) ?? start
        return self[start..<end]
    }
}

extension Character {
    /// `isWhitespace`, answered without a Unicode lookup for ASCII (command lines are mostly ASCII).
    var isSpace: Bool {
        guard let ascii = asciiValue else { return isWhitespace }
        return ascii == 0x20 || (0x09...0x0D).contains(ascii)
    }
}

extension Substring {
    /// The text quoted and cut to a readable length, for error messages.
    var preview: String { "\"" + (count > 40 ? prefix(40) + "…" : self) + "\"" }
}
