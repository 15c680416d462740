import Foundation
import NormCache

/// Reads a `multipart/mixed` answer as its bytes arrive: the one owner of multipart framing,
/// for incremental delivery (`@defer`, `deferSpec=20220824`) and multipart
/// subscriptions (`subscriptionSpec=1.0`), as Apollo iOS reads them.
///
/// The `Content-Type` names the boundary and the protocol; the body is split on
/// `\r\n--BOUNDARY`, each part has headers (a `Content-Type` of `application/json` or
/// `application/graphql-response+json`, when it says one), a blank line and one JSON
/// object. A part that ends is handed out as soon as the next delimiter arrives, whichever
/// chunks the bytes come in. Unlike Apollo iOS, a body that starts with `--BOUNDARY`
/// (no CRLF before it) loses no part. Anything else is a ``TransportError/invalidResponse(_:)``
/// naming the part: a missing boundary, an unknown protocol, a part whose JSON is broken or
/// not an object, and, for `deferSpec`, a body that ends before a part said `"hasNext": false`.
///
/// ```swift
/// var reader = try MultipartReader(contentType: "multipart/mixed;boundary=\"-\";deferSpec=20220824")
/// let parts = try reader.read(Array("\r\n---\r\ncontent-type: application/json\r\n\r\n{\"data\":{},\"hasNext\":false}\r\n-----\r\n".utf8))
/// parts[0].number          // 1
/// parts[0].object["data"]  // {}
/// try reader.finish()      // []: the body said hasNext false
/// ```
struct MultipartReader {
    /// What the parts carry, as the `Content-Type` says.
    enum Spec: String {
        case deferSpec = "deferSpec=20220824"
        case subscriptionSpec = "subscriptionSpec=1.0"
    }

    /// One part's JSON object, numbered from 1 in the order the parts came.
    struct Part {
        let number: Int
        let object: CacheObject
    }

    let boundary: String
    let spec: Spec
    /// `\r\n--BOUNDARY`.
    private let delimiter: [UInt8]
    /// Bytes not yet split into parts; it starts right after a delimiter once one was seen.
    private var buffer: [UInt8] = Array("\r\n".utf8)
    /// Where the search for the next delimiter goes on: the bytes before cannot start one.
    private var searchFrom = 0
    /// A delimiter was seen: what follows it is a part (before it, the preamble).
    private var inParts = false
    /// The closing delimiter (`--BOUNDARY--`) was seen: the rest is ignored.
    private var closed = false
    private var partCount = 0
    /// The `hasNext` of the last part that said one.
    private(set) var hasNext: Bool?

    /// How many bytes wait for the delimiter that ends their part.
    var buffered: Int { buffer.count }

    /// Whether `contentType` is a multipart answer (`multipart/mixed;…`).
    static func isMultipart(_ contentType: String) -> Bool {
        contentType.lowercased().contains("multipart/mixed")
    }

    /// A reader for an answer with this `Content-Type`, which must name a boundary and one
    /// of the two protocols Apollo iOS speaks.
    init(contentType: String) throws(TransportError) {
        let directives = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        var boundary: String?
        var spec: String?
        for directive in directives {
            if directive.lowercased().hasPrefix("boundary=") {
                boundary = String(directive.dropFirst("boundary=".count)).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            } else if directive.contains("Spec=") {
                spec = directive
            }
        }
        guard let boundary, !boundary.isEmpty else {
            throw .invalidResponse("the multipart answer's Content-Type `\(contentType)` names no boundary")
        }
        guard let spec, let known = Spec(rawValue: spec) else {
            throw .invalidResponse("the multipart answer's Content-Type `\(contentType)` names "
                                   + (spec.map { "the protocol `\($0)`, not" } ?? "no protocol, neither")
                                   + " deferSpec=20220824 nor subscriptionSpec=1.0")
        }
        self.boundary = boundary
        self.spec = known
        delimiter = Array("\r\n--\(boundary)".utf8)
    }

    /// Takes the next bytes of the body and returns the parts they complete.
    mutating func read(_ bytes: some Sequence<UInt8>) throws(TransportError) -> [Part] {
        guard !closed else { return [] }
        buffer.append(contentsOf: bytes)
        var parts: [Part] = []
        while !isClosing, let start = delimiterStart() {
            let segment = buffer[..<start]
            if inParts, let part = try part(segment) { parts.append(part) }
            inParts = true
            buffer.removeSubrange(..<(start + delimiter.count))
            searchFrom = 0
        }
        if isClosing { closed = true }
        if !closed { searchFrom = max(0, buffer.count - delimiter.count + 1) }
        return parts
    }

    /// The body ended: returns its last part when no delimiter followed it, and checks that
    /// a `deferSpec` body said `"hasNext": false` at the end.
    mutating func finish() throws(TransportError) -> [Part] {
        var parts: [Part] = []
        if !closed, !isClosing, inParts, let part = try part(buffer[...]) { parts.append(part) }
        closed = true
        if !inParts {
            throw .invalidResponse("the multipart answer has no part: no `--\(boundary)` in its body")
        }
        if spec == .deferSpec, hasNext != false {
            throw .invalidResponse("the multipart answer ended after part \(partCount) without a part saying \"hasNext\": false")
        }
        return parts
    }

    /// The last delimiter is the closing one, `--BOUNDARY--`: what follows is no part.
    private var isClosing: Bool { inParts && buffer.starts(with: [0x2D, 0x2D]) }

    /// Where the next delimiter starts in the buffer, if one has arrived.
    private func delimiterStart() -> Int? {
        guard buffer.count >= delimiter.count else { return nil }
        var index = searchFrom
        while index + delimiter.count <= buffer.count {
            if buffer[index] == delimiter[0], buffer[index..<(index + delimiter.count)].elementsEqual(delimiter) { return index }
            index += 1
        }
        return nil
    }

    /// The part in `segment` (what follows a delimiter, up to the next): the rest of the
    /// delimiter's line, headers, a blank line, the JSON. Nil for a part with no body.
    private mutating func part(_ segment: ArraySlice<UInt8>) throws(TransportError) -> Part? {
        partCount += 1
        let number = partCount
        let crlf: [UInt8] = [0x0D, 0x0A]
        guard let lineEnd = segment.firstRange(of: crlf) else {
            if segment.allSatisfy(Self.isSpace) { return nil }
            throw .invalidResponse("part \(number) of the multipart answer has no line break after its boundary")
        }
        let rest = segment[lineEnd.upperBound...]
        let body: ArraySlice<UInt8>
        if rest.starts(with: crlf) {   // no headers
            body = rest.dropFirst(2)
        } else if let blank = rest.firstRange(of: crlf + crlf) {
            try checkHeaders(rest[..<blank.lowerBound], part: number)
            body = rest[blank.upperBound...]
        } else if rest.first(where: { !Self.isSpace($0) }) == UInt8(ascii: "{") {   // JSON with no blank line before it
            body = rest
        } else {
            throw .invalidResponse("part \(number) of the multipart answer has no blank line between its headers and its body")
        }
        if body.allSatisfy(Self.isSpace) { return nil }
        let value: CacheValue
        do {
            value = try body.withUnsafeBufferPointer { bytes throws(JSONError) in try JSON.parse(bytes: bytes) }
        } catch {
            throw .invalidResponse("part \(number) of the multipart answer is not valid JSON: \(error)")
        }
        guard case .object(let object) = value else {
            throw .invalidResponse("part \(number) of the multipart answer is \(value.kindDescription), not a JSON object")
        }
        if case .bool(let said)? = object["hasNext"] { hasNext = said }
        return Part(number: number, object: object)
    }

    /// A part's headers may name its content type: JSON, as Apollo iOS accepts it.
    private func checkHeaders(_ headers: ArraySlice<UInt8>, part number: Int) throws(TransportError) {
        for line in String(decoding: headers, as: UTF8.self).split(separator: "\r\n") {
            let pair = line.split(separator: ":", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "content-type" else { continue }
            let type = pair[1].split(separator: ";")[0].trimmingCharacters(in: .whitespaces).lowercased()
            guard type == "application/json" || type == "application/graphql-response+json" else {
                throw .invalidResponse("part \(number) of the multipart answer is `\(type)`, not application/json")
            }
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }
}
