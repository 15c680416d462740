/// Reads and writes JSON text as ``CacheValue``s.
///
/// Reading is strict (RFC 8259): one value, no trailing commas, no comments; an integer
/// that does not fit `Int64` is refused rather than rounded; nesting deeper than
/// ``maxDepth`` is refused rather than overflowing the stack. Errors say where, as a
/// line and column and as the JSON path (`data.trips[3].name`).
///
/// ```swift
/// let response = try JSON.parse(#"{"data":{"hero":{"__typename":"Droid","name":"R2-D2"}}}"#)
/// JSON.string(response["data"]!)      // {"hero":{"__typename":"Droid","name":"R2-D2"}}
/// let row = try JSON.parse(#"{"hero":{"$reference":"Droid:2001"}}"#, references: .apollo)
/// row["hero"]                         // .reference("Droid:2001")
/// ```
public enum JSON {
    /// The deepest nesting of arrays and objects accepted.
    public static let maxDepth = 512

    /// How references appear in JSON text.
    public enum ReferenceStyle: Sendable {
        /// No references: `{"$reference": …}` is an ordinary object.
        case none
        /// Apollo iOS records: `{"$reference":"Human:1000"}`.
        case apollo
        /// Apollo Client snapshots: `{"__ref":"Human:1000"}`.
        case apolloClient
    }

    /// Parses `text` into a value.
    public static func parse(_ text: String, references: ReferenceStyle = .none) throws(JSONError) -> CacheValue {
        var text = text
        let result: Result<CacheValue, JSONError> = text.withUTF8 { bytes in
            var reader = JSONReader(bytes: bytes, references: references)
            do throws(JSONError) { return .success(try reader.document()) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Parses UTF-8 bytes into a value.
    public static func parse(bytes: UnsafeBufferPointer<UInt8>, references: ReferenceStyle = .none) throws(JSONError) -> CacheValue {
        var reader = JSONReader(bytes: bytes, references: references)
        return try reader.document()
    }

    /// Reads UTF-8 bytes that should hold one object, handing `member` each member's name
    /// (its UTF-8 bytes, unescaped, valid during the call) and value, in order, with the
    /// same checks and errors as ``parse(bytes:references:)``; `member` says whether the
    /// name is new (false: the object is refused for a duplicate member). Returns false
    /// when the bytes hold another value, a reference among them: then what was handed is
    /// not an object's members. For readers that keep members in a form of their own.
    ///
    /// ```swift
    /// var names: [String] = []
    /// try JSON.forEachMember(of: bytes, references: .apollo) { name, _ in
    ///     names.append(String(decoding: name, as: UTF8.self))
    ///     return true
    /// }
    /// ```
    static func forEachMember(
        of bytes: UnsafeBufferPointer<UInt8>, references: ReferenceStyle, _ member: (UnsafeBufferPointer<UInt8>, CacheValue) -> Bool
    ) throws(JSONError) -> Bool {
        var reader = JSONReader(bytes: bytes, references: references)
        return try reader.members(member)
    }

    /// Compact JSON text for `value`. `sortedKeys` orders object members by key (stable
    /// output for tests and snapshots); `escapeSlash` writes `/` as `\/` as Apollo iOS does.
    public static func string(
        _ value: CacheValue, references: ReferenceStyle = .apollo, sortedKeys: Bool = false, escapeSlash: Bool = false
    ) -> String {
        String(decoding: utf8(value, references: references, sortedKeys: sortedKeys, escapeSlash: escapeSlash), as: UTF8.self)
    }

    /// ``string(_:references:sortedKeys:escapeSlash:)`` as UTF-8 bytes, for writers that take bytes.
    static func utf8(_ value: CacheValue, references: ReferenceStyle = .apollo, sortedKeys: Bool = false, escapeSlash: Bool = false) -> [UInt8] {
        var writer = JSONWriter(references: references, sortedKeys: sortedKeys, escapeSlash: escapeSlash)
        writer.output.reserveCapacity(256)
        writer.write(value)
        return writer.output
    }
}

/// Why JSON text was refused, and where.
public struct JSONError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public let line: Int
    public let column: Int
    /// Where in the document, e.g. `data.trips[3].name`; empty at the top level.
    public let path: String
    /// Whether the text ended where the JSON could have gone on: a document cut short
    /// (`{"data": {"na`), as a transfer that stopped early leaves it.
    public let atEndOfText: Bool

    public var description: String {
        "invalid JSON at line \(line), column \(column)\(path.isEmpty ? "" : " (\(path))"): \(message)"
    }
}
