/// JSON text as a transport receives it, read once into a tape (``JSONTape``) and kept with
/// its bytes: the cache writes a response from it in one pass (`write(response:for:…)`, as
/// ``NormalizedCache/write(responseJSON:for:variables:schema:cause:)`` does), and a reader
/// decodes only the members it asks for. Reading makes every check, and refuses
/// the same text with the same error, as ``JSON/parse(bytes:references:)``.
///
/// ```swift
/// let text = try JSONText(bytes: Array(#"{"data":{"trip":null},"errors":[{"message":"no"}]}"#.utf8))
/// text.kindDescription    // "an object"
/// text.member("errors")   // .list([["message": "no"]])
/// ```
package struct JSONText: Sendable {
    package let bytes: [UInt8]
    private let tape: JSONTape

    package init(bytes: [UInt8]) throws(JSONError) {
        let read = bytes.withUnsafeBufferPointer { text in
            Result { () throws(JSONError) in try JSONTape(reading: text) }
        }
        self.bytes = bytes
        tape = try read.get()
    }

    /// Whether the document is an object, as a GraphQL response is.
    package var isObject: Bool { tape.entries.first?.kind == .object }

    /// The document's kind as messages name it: "an object", "a list", ...
    package var kindDescription: String { withRoot { $0.kindDescription } }

    /// The member named `name` of the document, decoded; nil when the document is no
    /// object or has no such member.
    package func member(_ name: String) -> CacheValue? {
        withRoot { root in root.object()?.member(name, near: 0)?.decoded() }
    }

    /// The whole document, decoded.
    package func decoded() -> CacheValue { withRoot { $0.decoded() } }

    /// Calls `body` with the document's value, valid during the call only.
    func withRoot<Result, Failure: Error>(_ body: (TapeValue) throws(Failure) -> Result) throws(Failure) -> Result {
        let outcome: Swift.Result<Result, Failure> = bytes.withUnsafeBufferPointer { text in
            do throws(Failure) { return .success(try tape.withRoot(text: text, body)) } catch { return .failure(error) }
        }
        return try outcome.get()
    }
}
