import Foundation
import Testing

/// The trips schema stands twice: the bundled plugin serves `Plugins/Trips/GraphQL`'s, and
/// the example app's project (`examples/TripsApp`) is written against its own copy, as an
/// app keeps the schema its server publishes. They must not drift apart.
@Suite struct TripsSchemaTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")

    /// A schema file's definitions: its lines without comments and blank lines.
    static func definitions(_ path: String) throws -> [String] {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    @Test func theExampleAppsSchemaIsThePluginsSchema() throws {
        let plugin = try Self.definitions("Plugins/Trips/GraphQL/schema.graphqls")
        let app = try Self.definitions("examples/TripsApp/schema.graphqls")
        #expect(plugin.count > 20)
        #expect(app == plugin, "examples/TripsApp/schema.graphqls differs from Plugins/Trips/GraphQL/schema.graphqls: copy the plugin's")
    }
}
