import Foundation

/// JSON texts to and from Codable values; objects keep their order (`GraphQLJSONEncoder`),
/// so a response lists its fields in selection order.
enum CodableJSON {
    static func decode<Value: Decodable>(_ type: Value.Type = Value.self, from text: String) throws -> Value {
        try JSONDecoder().decode(type, from: Data(text.utf8))
    }

    static func encode(_ value: some Encodable, sortingKeys: Bool = false) throws -> String {
        let encoder = GraphQLJSONEncoder()
        encoder.outputFormatting = sortingKeys ? [.withoutEscapingSlashes, .sortedKeys] : .withoutEscapingSlashes
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
