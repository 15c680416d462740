import Foundation
import NormClient

/// Reads the arguments that set up an HTTP endpoint: its URL and its headers.
///
/// ```swift
/// let transport = try HTTPEndpoint.transport(for: "http://127.0.0.1:8000/graphql")
/// try HTTPEndpoint.header("Authorization: Bearer abc")   // ("Authorization", "Bearer abc")
/// ```
enum HTTPEndpoint {
    static func transport(for text: String) throws(CommandError) -> HTTPTransport {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
              url.host?.isEmpty == false
        else {
            throw CommandError("\"\(text)\" is not an HTTP URL; give one like http://127.0.0.1:8000/graphql")
        }
        return HTTPTransport(url: url)
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
