import CCore

/// A field argument's value after variables are substituted, typed as GraphQL types it,
/// because the key depends on the type: an `Int` 30 is written `30`, a `Float` 30 `30.0`.
///
/// ```swift
/// let filter: ArgumentValue = .object(["kinds": .list([.string("Human")]), "minLength": .null])
/// try KeyBuilder().fieldKey("search", arguments: ["text": .string("R2"), "filter": filter])
/// // search([filter:kinds:[Human],minLength:null],text:R2)
/// ```
public indirect enum ArgumentValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case float(Double)
    /// A String, ID, enum value or custom scalar: all are written raw, unquoted.
    case string(String)
    case list([ArgumentValue])
    /// An input object; its fields are written sorted by name.
    case object([String: ArgumentValue])
}

extension ArgumentValue {
    /// Appends this value in the C core's argument encoding (documented in `nc_keys.h`).
    func encode(into bytes: inout [UInt8]) {
        switch self {
        case .null: bytes.append(UInt8(NC_TAG_NULL))
        case .bool(let value): bytes.append(UInt8(value ? NC_TAG_TRUE : NC_TAG_FALSE))
        case .int(let value):
            bytes.append(UInt8(NC_TAG_INT))
            bytes.appendLittleEndian(UInt64(bitPattern: value))
        case .float(let value):
            bytes.append(UInt8(NC_TAG_FLOAT))
            bytes.appendLittleEndian(value.bitPattern)
        case .string(let value):
            bytes.append(UInt8(NC_TAG_STRING))
            bytes.appendText(value)
        case .list(let items):
            bytes.append(UInt8(NC_TAG_LIST))
            bytes.appendLittleEndian(UInt32(items.count))
            for item in items { item.encode(into: &bytes) }
        case .object(let fields):
            bytes.append(UInt8(NC_TAG_OBJECT))
            Self.encode(entries: fields, into: &bytes)
        }
    }

    /// Appends `count`, then each name and value, in the encoding's `arguments` form.
    static func encode(entries: [String: ArgumentValue], into bytes: inout [UInt8]) {
        bytes.appendLittleEndian(UInt32(entries.count))
        for (name, value) in entries {
            bytes.appendText(name)
            value.encode(into: &bytes)
        }
    }
}

extension [UInt8] {
    mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        var little = value.littleEndian
        Swift.withUnsafeBytes(of: &little) { append(contentsOf: $0) }
    }

    mutating func appendText(_ text: String) {
        appendLittleEndian(UInt32(text.utf8.count))
        append(contentsOf: text.utf8)
    }
}
