@testable import NormCache

extension FuzzTarget {
    /// JSON text to the reader, in each of its three reference styles. A document it
    /// accepts must read back as the same value from the text the writer makes of it. The
    /// same text read into a tape (``JSONTape``) must be refused with the same error, or
    /// decode to the same value, names byte for byte.
    static let json = FuzzTarget(name: "json", feeds: "JSON text, read in each reference style and into a tape, written and read back") { bytes in
        for style in [JSON.ReferenceStyle.none, .apollo, .apolloClient] {
            guard let value = try? JSON.parse(bytes: bytes, references: style) else { continue }
            let written = JSON.string(value, references: style)
            guard let again = try? JSON.parse(written, references: style), again == value else {
                fatalError("the JSON writer's text does not read back as the same value: \(written)")
            }
        }
        let parsed = Result { () throws(JSONError) in try JSON.parse(bytes: bytes) }
        let decoded = Result { () throws(JSONError) in try JSONTape(reading: bytes).withRoot(text: bytes) { $0.decoded() } }
        guard decoded == parsed, decoded.map({ JSON.utf8($0) }) == parsed.map({ JSON.utf8($0) }) else {
            fatalError("the tape differs from JSON.parse: \(decoded) against \(parsed)")
        }
    }
}
