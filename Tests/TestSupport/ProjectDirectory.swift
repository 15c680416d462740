import Foundation

/// A project written to a fresh temporary directory, file by file, for tests of what a
/// project's files say; and the repository's example project.
package struct ProjectDirectory {
    package let path: String

    package init(_ files: [String: String]) throws {
        path = NSTemporaryDirectory() + "normproject-" + UUID().uuidString
        for (name, text) in files {
            let file = path + "/" + name
            try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: file, atomically: true, encoding: .utf8)
        }
    }

    /// The repository's root.
    package static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// examples/TripsApp in this repository.
    package static let tripsApp = repository + "/examples/TripsApp"

    /// A small schema with a cache policy, for tests that are about something else.
    package static let schema = """
        type Query { trip(id: ID!): Trip trips: [Trip!]! }
        type Trip { id: ID! name: String! }
        """
}
