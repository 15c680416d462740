/// Which lines the REPL's history keeps. The history file outlives the session, so a line
/// that may carry a secret is left out: a `.header` line, one that names a token, a
/// password, a secret or an API key, and a URL with a user and password in it. Blank
/// lines are left out too.
///
/// ```swift
/// HistoryFilter.keeps(".keys Trip:*")                            // true
/// HistoryFilter.keeps(".header Authorization: Bearer abc")       // false
/// HistoryFilter.keeps(#".vars {"password": "hunter2"}"#)         // false
/// HistoryFilter.keeps(".endpoint https://ana:pw@example.org/gql")  // false
/// ```
enum HistoryFilter {
    /// Words that mark a line as carrying a secret, matched ignoring case.
    static let secretWords = ["authorization", "bearer ", "token", "password", "passwd", "secret", "api-key", "apikey", "api_key", "cookie"]

    static func keeps(_ line: String) -> Bool {
        let text = line.trimmingWhitespace.lowercased()
        return !text.isEmpty && !text.hasPrefix(".header")
            && !secretWords.contains { text.contains($0) }
            && !text.contains(#/://[^\s/@]+:[^\s/@]*@/#)
    }
}
