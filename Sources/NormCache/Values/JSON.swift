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

struct JSONReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let references: JSON.ReferenceStyle
    private var position = 0
    private var path: [PathComponent] = []

    private enum PathComponent {
        case key(String)
        case index(Int)
    }

    init(bytes: UnsafeBufferPointer<UInt8>, references: JSON.ReferenceStyle) {
        self.bytes = bytes
        self.references = references
    }

    mutating func document() throws(JSONError) -> CacheValue {
        skipWhitespace()
        if position == bytes.count { throw error("empty input: expected a JSON value") }
        let value = try parseValue()
        skipWhitespace()
        if position < bytes.count { throw error("unexpected \(describe(bytes[position])) after the value") }
        return value
    }

    private mutating func parseValue() throws(JSONError) -> CacheValue {
        guard position < bytes.count else { throw error("unexpected end of input: expected a value") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        case let byte: throw error("unexpected \(describe(byte)): expected a value")
        }
    }

    private mutating func parseObject() throws(JSONError) -> CacheValue {
        if path.count >= JSON.maxDepth { throw error("nesting deeper than \(JSON.maxDepth) levels") }
        position += 1
        // Duplicates are found in constant time a member, so wide objects read in linear time.
        var members = CacheObject.Builder()
        skipWhitespace()
        if peek(UInt8(ascii: "}")) {
            position += 1
            return .object(members.object)
        }
        while true {
            skipWhitespace()
            guard peek(UInt8(ascii: "\"")) else { throw error("expected a member name in double quotes") }
            let key = try parseString()
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else { throw error("expected ':' after member name \"\(key)\"") }
            position += 1
            skipWhitespace()
            path.append(.key(key))
            let value = try parseValue()
            path.removeLast()
            guard members.add(key, value) else { throw error("duplicate member \"\(key)\"") }
            skipWhitespace()
            guard position < bytes.count else { throw error("unexpected end of input: expected ',' or '}'") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
            } else if bytes[position] == UInt8(ascii: "}") {
                position += 1
                break
            } else {
                throw error("unexpected \(describe(bytes[position])): expected ',' or '}'")
            }
        }
        if members.object.count == 1, let reference = reference(in: members.object) { return .reference(reference) }
        return .object(members.object)
    }

    private func reference(in object: CacheObject) -> String? {
        let name: String
        switch references {
        case .none: return nil
        case .apollo: name = "$reference"
        case .apolloClient: name = "__ref"
        }
        if object.keys[0] == name, case .string(let key) = object.values[0] { return key }
        return nil
    }

    private mutating func parseArray() throws(JSONError) -> CacheValue {
        if path.count >= JSON.maxDepth { throw error("nesting deeper than \(JSON.maxDepth) levels") }
        position += 1
        var items: [CacheValue] = []
        skipWhitespace()
        if peek(UInt8(ascii: "]")) {
            position += 1
            return .list(items)
        }
        while true {
            skipWhitespace()
            path.append(.index(items.count))
            items.append(try parseValue())
            path.removeLast()
            skipWhitespace()
            guard position < bytes.count else { throw error("unexpected end of input: expected ',' or ']'") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
            } else if bytes[position] == UInt8(ascii: "]") {
                position += 1
                return .list(items)
            } else {
                throw error("unexpected \(describe(bytes[position])): expected ',' or ']'")
            }
        }
    }

    private mutating func parseString() throws(JSONError) -> String {
        position += 1
        let start = position
        // Fast path: no escapes. ASCII needs no validating (the generic validation costs
        // more than the rest of the string's reading).
        var bits: UInt8 = 0
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<position])
                position += 1
                if bits < 0x80 { return String(decoding: slice, as: UTF8.self) }
                guard let text = String(validating: slice, as: UTF8.self) else {
                    throw error("a string is not valid UTF-8")
                }
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("control character \(describe(byte)) in a string (escape it)") }
            bits |= byte
            position += 1
        }
        var utf8 = Array(bytes[start..<position])
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                // What escapes made is valid UTF-8: only bytes copied as they were need validating.
                if bits < 0x80 { return String(decoding: utf8, as: UTF8.self) }
                guard let text = String(validating: utf8, as: UTF8.self) else { throw error("a string is not valid UTF-8") }
                return text
            case UInt8(ascii: "\\"):
                guard position < bytes.count else { break }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                            bytes[position + 1] == UInt8(ascii: "u")
                        else { throw error("unpaired surrogate \\u\(String(scalar, radix: 16, uppercase: true))") }
                        position += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired surrogate in \\u escape") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(scalar) {
                        throw error("unpaired surrogate \\u\(String(scalar, radix: 16, uppercase: true))")
                    }
                    utf8.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
                default: throw error("invalid escape \\\(describe(escape))")
                }
            default:
                if byte < 0x20 { throw error("control character \(describe(byte)) in a string (escape it)") }
                bits |= byte
                utf8.append(byte)
            }
        }
        throw error("unterminated string")
    }

    private mutating func hex4() throws(JSONError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw error("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("invalid hex digit \(describe(byte)) in \\u escape")
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    private mutating func parseNumber() throws(JSONError) -> CacheValue {
        let start = position
        if peek(UInt8(ascii: "-")) { position += 1 }
        guard position < bytes.count, isDigit(bytes[position]) else { throw error("a number needs a digit after '-'") }
        if bytes[position] == UInt8(ascii: "0"), position + 1 < bytes.count, isDigit(bytes[position + 1]) {
            throw error("a number cannot have a leading zero")
        }
        while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        var isInteger = true
        if peek(UInt8(ascii: ".")) {
            isInteger = false
            position += 1
            guard position < bytes.count, isDigit(bytes[position]) else { throw error("a number needs digits after '.'") }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            isInteger = false
            position += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { position += 1 }
            guard position < bytes.count, isDigit(bytes[position]) else { throw error("a number needs digits in its exponent") }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        if isInteger {
            guard let value = Int64(text) else {
                throw error("integer \(text) does not fit in 64 bits", at: start)
            }
            return .int(value)
        }
        guard let value = Double(text), value.isFinite else { throw error("number \(text) is out of range", at: start) }
        return .double(value)
    }

    private mutating func expectWord(_ word: StaticString) throws(JSONError) {
        let count = word.utf8CodeUnitCount
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: count)
        guard position + count <= bytes.count, bytes[position..<position + count].elementsEqual(expected) else {
            throw error("unexpected \(describe(bytes[position])): expected a value")
        }
        position += count
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    private func peek(_ byte: UInt8) -> Bool { position < bytes.count && bytes[position] == byte }
    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private func describe(_ byte: UInt8) -> String {
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    private func error(_ message: String, at offset: Int? = nil) -> JSONError {
        let end = min(offset ?? position, bytes.count)
        var line = 1, column = 1
        for byte in bytes[..<end] {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        var rendered = ""
        for component in path {
            switch component {
            case .key(let key): rendered += rendered.isEmpty ? key : "." + key
            case .index(let index): rendered += "[\(index)]"
            }
        }
        return JSONError(message: message, line: line, column: column, path: rendered, atEndOfText: end == bytes.count)
    }
}

struct JSONWriter {
    let references: JSON.ReferenceStyle
    let sortedKeys: Bool
    let escapeSlash: Bool
    var output: [UInt8] = []

    mutating func write(_ value: CacheValue) {
        switch value {
        case .null: append("null")
        case .bool(let value): append(value ? "true" : "false")
        case .int(let value): append(String(value))
        case .double(let value): append(value.isFinite ? value.description : "null")
        case .string(let value): writeString(value)
        case .list(let items):
            output.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                write(item)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            output.append(UInt8(ascii: "{"))
            if sortedKeys {
                for (position, index) in object.keys.indices.sorted(by: { object.keys[$0] < object.keys[$1] }).enumerated() {
                    writeMember(object, index, first: position == 0)
                }
            } else {
                for index in object.keys.indices { writeMember(object, index, first: index == 0) }
            }
            output.append(UInt8(ascii: "}"))
        case .reference(let key):
            append(references == .apolloClient ? "{\"__ref\":" : "{\"$reference\":")
            writeString(key)
            output.append(UInt8(ascii: "}"))
        }
    }

    private mutating func writeMember(_ object: CacheObject, _ index: Int, first: Bool) {
        if !first { output.append(UInt8(ascii: ",")) }
        writeString(object.keys[index])
        output.append(UInt8(ascii: ":"))
        write(object.values[index])
    }

    private mutating func append(_ text: String) { output.append(contentsOf: text.utf8) }

    /// Whether `byte` must be escaped inside a JSON string.
    @inline(__always) private func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || (escapeSlash && byte == UInt8(ascii: "/"))
    }

    private mutating func writeString(_ text: String) {
        var text = text
        text.withUTF8 { writeString(utf8: $0) }
    }

    private mutating func writeString(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        output.append(UInt8(ascii: "\""))
        // Most strings need no escape: copy them whole.
        guard bytes.contains(where: needsEscape) else {
            output.append(contentsOf: bytes)
            output.append(UInt8(ascii: "\""))
            return
        }
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""): append("\\\"")
            case UInt8(ascii: "\\"): append("\\\\")
            case UInt8(ascii: "/") where escapeSlash: append("\\/")
            case 0x0A: append("\\n")
            case 0x0D: append("\\r")
            case 0x09: append("\\t")
            case 0..<0x20:
                let hex = String(byte, radix: 16)
                append("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
