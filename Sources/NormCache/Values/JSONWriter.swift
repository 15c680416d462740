/// Writes ``CacheValue``s as compact JSON text (``JSON/string(_:references:sortedKeys:escapeSlash:)``).
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
