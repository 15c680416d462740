import Foundation
import NormClient

/// Reads the arguments that set up an HTTP endpoint: its URL, its headers, and the timeout
/// of requests.
///
/// ```swift
/// let transport = try HTTPEndpoint.transport(for: "http://127.0.0.1:8000/graphql", timeout: .seconds(60))
/// try HTTPEndpoint.header("Authorization: Bearer abc")   // ("Authorization", "Bearer abc")
/// try HTTPEndpoint.timeout("2500")                       // 2.5 seconds
/// ```
enum HTTPEndpoint {
    static func transport(for text: String, timeout: Duration) throws(CommandError) -> HTTPTransport {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
              url.host?.isEmpty == false
        else {
            throw CommandError("\"\(text)\" is not an HTTP URL; give one like http://127.0.0.1:8000/graphql")
        }
        return HTTPTransport(url: url, timeout: timeout.timeInterval)
    }

    /// `.timeout MS`: milliseconds, at least one.
    static func timeout(_ text: String) throws(CommandError) -> Duration {
        guard let milliseconds = Int(text), milliseconds > 0 else {
            throw CommandError("\"\(text)\" is not a timeout: give milliseconds, at least 1 (e.g. .timeout 5000)")
        }
        return .milliseconds(milliseconds)
    }

    static func header(_ text: String) throws(CommandError) -> (name: String, value: String) {
        guard let colon = text.firstIndex(of: ":") else { throw CommandError("usage: .header NAME: VALUE (a colon after the name)") }
        let name = text[..<colon].trimmingWhitespace, value = text[text.index(after: colon)...].trimmingWhitespace
        let token = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "!#$%&'*+-.^_`|~"))
        guard !name.isEmpty, name.unicodeScalars.allSatisfy(token.contains) else {
            throw CommandError("\"\(name)\" is not a header name (letters, digits and !#$%&'*+-.^_`|~)")
        }
        return (String(name), String(value))
    }
}

