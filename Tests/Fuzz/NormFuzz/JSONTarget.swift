@testable import NormCache

extension FuzzTarget {
    /// JSON text to the reader, in each of its three reference styles. A document it
    /// accepts must read back as the same value from the text the writer makes of it.
    static let json = FuzzTarget(name: "json", feeds: "JSON text, read in each reference style, written and read back") { bytes in
        for style in [JSON.ReferenceStyle.none, .apollo, .apolloClient] {
            guard let value = try? JSON.parse(bytes: bytes, references: style) else { continue }
            let written = JSON.string(value, references: style)
            guard let again = try? JSON.parse(written, references: style), again == value else {
                fatalError("the JSON writer's text does not read back as the same value: \(written)")
            }
        }
    }
}
