import Foundation
import NormPluginKit

/// The checks of what a user types for a PURL, made by the commands before anything is
/// sent and by the server on what it receives; each failure says what is expected.
///
/// ```swift
/// try PurlInput.address("ana@example.org")   // "ana@example.org"
/// try PurlInput.url("ftp://x")               // throws: a URL starts with http:// or https://, not "ftp://x"
/// ```
enum PurlInput {
    static func address(_ text: String) throws -> String {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !text.contains(where: \.isWhitespace) else {
            throw PluginError("an address looks like ana@example.org, not \"\(text)\"")
        }
        return text
    }

    static func name(_ text: String) throws -> String {
        guard !text.isEmpty, text.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." }) else {
            throw PluginError("a PURL name is letters, digits, \"-\", \"_\" and \".\", not \"\(text)\"")
        }
        return text
    }

    static func url(_ text: String) throws -> String {
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased()), url.host?.isEmpty == false else {
            throw PluginError("a URL starts with http:// or https:// and names a host, not \"\(text)\"")
        }
        return text
    }
}
