/// Reads JSON text: into ``CacheValue``s (``document()``), member by member for readers
/// that keep records in a form of their own (``members(_:)``), or into a ``JSONTape``
/// (``readTape()``). One scanner, so every form refuses the same text with the same error.
struct JSONReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let references: JSON.ReferenceStyle
    private var position = 0
    private var path: [PathComponent] = []
    /// The keys of the last object read at each depth (``parseObject()``).
    private var shapes: [[String]] = []
    /// What ``readTape()`` has read so far, and the member names of the last object it
    /// read at each depth, as their tape entries (``tapeObject()``).
    private var tape = JSONTape()
    private var tapeShapes: [[JSONTape.Entry]] = []

    private enum PathComponent {
        case key(StringBytes)
        case index(Int)
    }

    /// A string's UTF-8 bytes as read: in place in the input when it holds no escape,
    /// else unescaped into an array of their own.
    private enum StringBytes {
        case input(Range<Int>)
        case unescaped([UInt8])
    }

    init(bytes: UnsafeBufferPointer<UInt8>, references: JSON.ReferenceStyle) {
        self.bytes = bytes
        self.references = references
    }

    mutating func document() throws(JSONError) -> CacheValue {
        try whole { reader throws(JSONError) in try reader.parseValue() }
    }

    /// Reads the one value the text holds with `read`, refusing empty text and anything after the value.
    private mutating func whole<Value>(_ read: (inout JSONReader) throws(JSONError) -> Value) throws(JSONError) -> Value {
        skipWhitespace()
        if position == bytes.count { throw error("empty input: expected a JSON value") }
        let value = try read(&self)
        skipWhitespace()
        if position < bytes.count { throw error("unexpected \(describe(bytes[position])) after the value") }
        return value
    }

    private mutating func parseValue() throws(JSONError) -> CacheValue {
        switch try scalar() {
        case let scalar?: scalar
        case nil where bytes[position] == UInt8(ascii: "{"): try parseObject()
        case nil: try parseArray()
        }
    }

    /// The value at `position` when it is a string, number, boolean or null; nil, reading
    /// nothing, at the `{` or `[` of an object or a list.
    @inline(__always)
    private mutating func scalar() throws(JSONError) -> CacheValue? {
        guard position < bytes.count else { throw error("unexpected end of input: expected a value") }
        switch bytes[position] {
        case UInt8(ascii: "{"), UInt8(ascii: "["): return nil
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        case let byte: throw error("unexpected \(describe(byte)): expected a value")
        }
    }

    private mutating func parseObject() throws(JSONError) -> CacheValue {
        let depth = path.count
        // The objects of a list mostly have the keys of the one before them, in the same
        // order: while this one's keys follow the last object read at this depth, its
        // values go into an array of that size and it shares that object's keys, and no
        // key needs a duplicate check (those keys are distinct). At the first key that
        // differs, the members go into a builder, which finds duplicates in constant time
        // a member, so wide objects read in linear time.
        let shape = depth < shapes.count ? shapes[depth] : []
        var matched = 0
        var values: [CacheValue] = []
        values.reserveCapacity(shape.count)
        var members: CacheObject.Builder?
        try readMembers { name, value in
            // Names are compared as bytes, as JSON compares them (and a tape does).
            if members == nil, matched < shape.count, shape[matched].hasSameUTF8(as: name) {
                matched += 1
                values.append(value)
                return true
            }
            let key = String(decoding: name, as: UTF8.self)
            if members == nil {
                members = CacheObject.Builder(CacheObject(keys: Array(shape[..<matched]), values: values))
            }
            return members!.add(key, value)
        }
        let object = members?.object ?? CacheObject(keys: matched == shape.count ? shape : Array(shape[..<matched]), values: values)
        if object.isEmpty { return .object(object) }
        Self.keep(object.keys, at: depth, in: &shapes)
        if object.count == 1, let reference = reference(in: object) { return .reference(reference) }
        return .object(object)
    }

    /// Reads the object at `position` (its `{`), handing `member` each member's name
    /// (its UTF-8 bytes, unescaped, valid during the call) and value, in order. `member`
    /// says whether the name is new: a name it has met is refused as a duplicate, with
    /// the position and path of its value's end. The one loop over members, for objects
    /// read as ``CacheValue``s and for records read straight into the engine's form
    /// (``members(_:)``).
    @inline(__always)
    private mutating func readMembers(_ member: (UnsafeBufferPointer<UInt8>, CacheValue) -> Bool) throws(JSONError) {
        try readMembers(value: { reader, _ throws(JSONError) in try reader.parseValue() }, member)
    }

    /// ``readMembers(_:)`` with the values read by `read`, which gets the member's name
    /// first: the loop over members for every form the reader reads into.
    @inline(__always)
    private mutating func readMembers<Value>(value read: (inout JSONReader, StringBytes) throws(JSONError) -> Value,
                                             _ member: (UnsafeBufferPointer<UInt8>, Value) -> Bool) throws(JSONError) {
        if path.count >= JSON.maxDepth { throw error("nesting deeper than \(JSON.maxDepth) levels") }
        position += 1
        skipWhitespace()
        if peek(UInt8(ascii: "}")) {
            position += 1
            return
        }
        while true {
            skipWhitespace()
            guard peek(UInt8(ascii: "\"")) else { throw error("expected a member name in double quotes") }
            let name = try parseStringBytes()
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else { throw error("expected ':' after member name \"\(string(name))\"") }
            position += 1
            skipWhitespace()
            path.append(.key(name))
            let value = try read(&self, name)
            path.removeLast()
            let isNew = withBytes(of: name) { member($0, value) }
            guard isNew else { throw error("duplicate member \"\(string(name))\"") }
            guard try continues(closing: UInt8(ascii: "}")) else { return }
        }
    }

    /// Reads a document that should be one object, handing `member` each of its members
    /// as ``readMembers(_:)`` does; false when the document is another value (read whole,
    /// so that its errors are those of ``document()``) or, in a style with references, a
    /// reference: the members handed then are not an object's.
    mutating func members(_ member: (UnsafeBufferPointer<UInt8>, CacheValue) -> Bool) throws(JSONError) -> Bool {
        skipWhitespace()
        guard peek(UInt8(ascii: "{")) else {
            _ = try document()
            return false
        }
        let referenceName: StaticString? = switch references {
        case .none: nil
        case .apollo: "$reference"
        case .apolloClient: "__ref"
        }
        var count = 0
        var isReference = false
        try readMembers { name, value in
            count += 1
            if count == 1, let referenceName, case .string = value {
                isReference = name.hasSameBytes(as: UnsafeBufferPointer(start: referenceName.utf8Start, count: referenceName.utf8CodeUnitCount))
            }
            return member(name, value)
        }
        skipWhitespace()
        if position < bytes.count { throw error("unexpected \(describe(bytes[position])) after the value") }
        return !(count == 1 && isReference)
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

    /// Keeps `shape` as the names of the last object read at `depth` (a depth whose
    /// containers were lists has none).
    private static func keep<Name>(_ shape: [Name], at depth: Int, in shapes: inout [[Name]]) {
        while shapes.count <= depth { shapes.append([]) }
        shapes[depth] = shape
    }

    private mutating func parseArray() throws(JSONError) -> CacheValue {
        var items: [CacheValue] = []
        try readItems { reader throws(JSONError) in items.append(try reader.parseValue()) }
        return .list(items)
    }

    /// Reads the list at `position` (its `[`), with `item` reading each item: the loop
    /// over items for every form the reader reads into.
    @inline(__always)
    private mutating func readItems(_ item: (inout JSONReader) throws(JSONError) -> Void) throws(JSONError) {
        if path.count >= JSON.maxDepth { throw error("nesting deeper than \(JSON.maxDepth) levels") }
        position += 1
        skipWhitespace()
        if peek(UInt8(ascii: "]")) {
            position += 1
            return
        }
        var count = 0
        while true {
            skipWhitespace()
            path.append(.index(count))
            try item(&self)
            path.removeLast()
            count += 1
            guard try continues(closing: UInt8(ascii: "]")) else { return }
        }
    }

    /// Reads what follows a member or an item: a `,` (true: another comes) or `closing`,
    /// the `}` or `]` that ends the object or list (false).
    @inline(__always)
    private mutating func continues(closing: UInt8) throws(JSONError) -> Bool {
        skipWhitespace()
        guard position < bytes.count else { throw error("unexpected end of input: expected ',' or \(describe(closing))") }
        switch bytes[position] {
        case UInt8(ascii: ","):
            position += 1
            return true
        case closing:
            position += 1
            return false
        case let byte:
            throw error("unexpected \(describe(byte)): expected ',' or \(describe(closing))")
        }
    }

    private mutating func parseString() throws(JSONError) -> String {
        string(try parseStringBytes())
    }

    /// The `String` of a string's bytes.
    private func string(_ string: StringBytes) -> String {
        withBytes(of: string) { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with a string's bytes.
    @inline(__always)
    private func withBytes<R>(of string: StringBytes, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        switch string {
        case .input(let range): body(UnsafeBufferPointer(rebasing: bytes[range]))
        case .unescaped(let utf8): utf8.withUnsafeBufferPointer(body)
        }
    }

    /// Reads the string at `position` (its opening quote): its bytes, unescaped and checked
    /// to be UTF-8.
    private mutating func parseStringBytes() throws(JSONError) -> StringBytes {
        position += 1
        let start = position
        // Fast path: no escapes, and for ASCII (most of a response) no check of the bytes.
        var ascii = true
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let range = start..<position
                position += 1
                guard ascii || UTF8Validation.isValid(UnsafeBufferPointer(rebasing: bytes[range])) else {
                    throw error("a string is not valid UTF-8")
                }
                return .input(range)
            }
            if byte >= 0x80 { ascii = false }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("control character \(describe(byte)) in a string (escape it)") }
            position += 1
        }
        var utf8 = Array(bytes[start..<position])
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard utf8.withUnsafeBufferPointer(UTF8Validation.isValid) else { throw error("a string is not valid UTF-8") }
                return .unescaped(utf8)
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
        let text = UnsafeBufferPointer(rebasing: bytes[start..<position])
        if isInteger {
            guard let value = Self.integer(text) else {
                throw error("integer \(String(decoding: text, as: UTF8.self)) does not fit in 64 bits", at: start)
            }
            return .int(value)
        }
        let decimal = String(decoding: text, as: UTF8.self)
        guard let value = Double(decimal), value.isFinite else { throw error("number \(decimal) is out of range", at: start) }
        return .double(value)
    }

    /// The value of an integer's digits (after an optional '-'), or nil when it does not
    /// fit `Int64`. Read from the bytes: no `String` is made for it.
    private static func integer(_ text: UnsafeBufferPointer<UInt8>) -> Int64? {
        let negative = text[0] == UInt8(ascii: "-")
        var value: Int64 = 0
        for byte in text[(negative ? 1 : 0)...] {
            let digit = Int64(byte &- UInt8(ascii: "0"))
            let (scaled, overflowed) = value.multipliedReportingOverflow(by: 10)
            // Negative numbers accumulate downwards, so that Int64.min fits.
            let (next, carried) = negative ? scaled.subtractingReportingOverflow(digit) : scaled.addingReportingOverflow(digit)
            if overflowed || carried { return nil }
            value = next
        }
        return value
    }

    private mutating func expectWord(_ word: StaticString) throws(JSONError) {
        let count = word.utf8CodeUnitCount
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: count)
        guard position + count <= bytes.count, UnsafeBufferPointer(rebasing: bytes[position..<position + count]).hasSameBytes(as: expected) else {
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
            case .key(let key): rendered += rendered.isEmpty ? string(key) : "." + string(key)
            case .index(let index): rendered += "[\(index)]"
            }
        }
        return JSONError(message: message, line: line, column: column, path: rendered, atEndOfText: end == bytes.count)
    }

    // MARK: into a tape

    /// Reads the document into a ``JSONTape``, with every check and error of ``document()``.
    mutating func readTape() throws(JSONError) -> JSONTape {
        guard bytes.count <= Int(UInt32.max) else { throw error("the text is over 4 GiB, more than a tape indexes: parse it (JSON.parse) and write the value", at: 0) }
        tape.entries.reserveCapacity(bytes.count / 8)
        try whole { reader throws(JSONError) in try reader.tapeValue() }
        return tape
    }

    private mutating func tapeValue() throws(JSONError) {
        guard position < bytes.count else { throw error("unexpected end of input: expected a value") }
        switch bytes[position] {
        case UInt8(ascii: "\""): appendToTape(try parseStringBytes())
        case UInt8(ascii: "{"): try tapeObject()
        case UInt8(ascii: "["):
            let list = tape.open(.list)
            var count = 0
            try readItems { reader throws(JSONError) in
                try reader.tapeValue()
                count += 1
            }
            tape.close(list, count: count)
        default: tape.append(scalar: try scalar()!)
        }
    }

    @inline(__always)
    private mutating func appendToTape(_ string: StringBytes) {
        switch string {
        case .input(let range): tape.append(string: range)
        case .unescaped(let bytes): tape.append(unescaped: bytes)
        }
    }

    /// Reads an object into the tape. Duplicate names are found as ``parseObject()``
    /// finds them: names that follow those of the last object read at this depth are
    /// distinct; past the first that differs, each is compared with the object's names
    /// so far, through a hash set once the object is wide, so wide objects read in
    /// linear time.
    private mutating func tapeObject() throws(JSONError) {
        let depth = path.count
        let object = tape.open(.object)
        let shape = depth < tapeShapes.count ? tapeShapes[depth] : []
        var matched = 0, count = 0
        /// Past the first name that differs from the shape: the names so far.
        var names: [JSONTape.Entry]?
        var wide: Set<[UInt8]>?
        try readMembers(value: { reader, name throws(JSONError) in
            reader.appendToTape(name)
            let entry = reader.tape.entries[reader.tape.entries.count - 1]
            try reader.tapeValue()
            count += 1
            if names == nil {
                if matched < shape.count, Self.sameName(shape[matched], entry, text: reader.bytes, tape: reader.tape) {
                    matched += 1
                    return true
                }
                names = Array(shape[..<matched])
            }
            defer { names!.append(entry) }
            if wide == nil, names!.count >= 16 { wide = Set(names!.map { Self.bytes(of: $0, text: reader.bytes, tape: reader.tape) }) }
            if wide != nil { return wide!.insert(Self.bytes(of: entry, text: reader.bytes, tape: reader.tape)).inserted }
            return !names!.contains { Self.sameName($0, entry, text: reader.bytes, tape: reader.tape) }
        }, { _, isNew in isNew })
        tape.close(object, count: count)
        // The names become the shape at this depth, unless they are the shape already.
        guard count > 0, names != nil || matched < shape.count else { return }
        Self.keep(names ?? Array(shape[..<matched]), at: depth, in: &tapeShapes)
    }

    /// Whether two names on the tape are the same: compared in place in the text when
    /// neither held an escape (the common case), else through their bytes. (Static, with
    /// what it reads passed in: called on the reader inside a closure, a method would copy
    /// the whole reader for each name.)
    @inline(__always)
    private static func sameName(_ a: JSONTape.Entry, _ b: JSONTape.Entry, text: UnsafeBufferPointer<UInt8>,
                                 tape: borrowing JSONTape) -> Bool {
        guard a.count == b.count else { return false }
        if !a.isUnescaped, !b.isUnescaped {
            return UnsafeBufferPointer(rebasing: text[Int(a.payload)..<Int(a.payload) + Int(a.count)])
                .hasSameBytes(as: UnsafeBufferPointer(rebasing: text[Int(b.payload)..<Int(b.payload) + Int(b.count)]))
        }
        return bytes(of: a, text: text, tape: tape) == bytes(of: b, text: text, tape: tape)
    }

    /// The bytes of a string on the tape.
    private static func bytes(of entry: JSONTape.Entry, text: UnsafeBufferPointer<UInt8>, tape: borrowing JSONTape) -> [UInt8] {
        let range = Int(entry.payload)..<Int(entry.payload) + Int(entry.count)
        return entry.isUnescaped ? Array(tape.unescaped[range]) : Array(text[range])
    }
}
