import Foundation

/// What an HTTP answer's `Cache-Control` header says of how long the response stays fresh
/// in a client's cache (RFC 9111): `max-age=N`, N whole seconds; `no-store` or `no-cache`, 0
/// (the response is still written, and stale at once: a cache-first read of it goes to the
/// network); neither, `nil` (the schema's max ages, or never stale). `s-maxage` is for
/// shared caches and is ignored, as are `public`, `private` and the rest. The one place the
/// header is read; ``HTTPAnswer`` gives the response it decides the age it found.
///
/// ```swift
/// try CacheControlHeader.maxAge(of: "public, max-age=300")   // 300
/// try CacheControlHeader.maxAge(of: "no-store")              // 0
/// try CacheControlHeader.maxAge(of: "s-maxage=60")           // nil
/// try CacheControlHeader.maxAge(of: "max-age=soon")          // throws: max-age=soon is not whole seconds
/// ```
enum CacheControlHeader {
    /// Why a header does not parse, naming the directive that does not.
    struct Unparsable: Error, Equatable {
        let reason: String
    }

    /// The max age in seconds that `header` (the field's value) gives, or nil when it gives
    /// none; a `max-age` whose value is not whole seconds (`soon`, `-5`, `1.5`, none) throws.
    static func maxAge(of header: String) throws(Unparsable) -> Double? {
        var maxAge: Double?
        var noStore = false
        for directive in header.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            let parts = directive.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            switch parts.first?.lowercased() {
            case "no-store", "no-cache":
                noStore = true
            case "max-age":
                // A quoted value is not the form RFC 9111 asks for, but one a recipient may accept.
                let value = parts.count == 2 ? parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")) : ""
                guard !value.isEmpty, value.allSatisfy({ $0.isASCII && $0.isWholeNumber }), let seconds = Double(value) else {
                    throw Unparsable(reason: "\(directive) is not whole seconds")
                }
                maxAge = maxAge ?? seconds   // the first of several, as RFC 9111 allows
            default:
                continue
            }
        }
        return noStore ? 0 : maxAge
    }
}
