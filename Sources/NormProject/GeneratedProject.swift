import Foundation

/// A project of the size of a large app, written to a directory, to measure how fast a
/// project loads: `types` object types behind a `Node` interface (keyed by `@typePolicy` on
/// the interface), a `@fieldPolicy` for each root field, and `operations` queries, each in
/// its own feature folder with a fragment, spreading the previous feature's fragment too
/// (on `Query.node`).
///
/// ```swift
/// try GeneratedProject.write(to: "/tmp/big-app")    // 2,000 types, 200 operations
/// let project = try Project(directory: "/tmp/big-app")
/// ```
package enum GeneratedProject {
    package static func write(to directory: String, types: Int = 2_000, operations: Int = 200) throws {
        precondition(types >= operations && operations > 0, "each operation queries a type of its own")
        var schema = "interface Node {\n  id: ID!\n}\n\ntype Query {\n  node(id: ID!): Node\n"
        schema += (0..<operations).map { "  item\($0)(id: ID!): Item\($0)\n" }.joined() + "}\n"
        for index in 0..<types {
            schema += """

                type Item\(index) implements Node {
                  id: ID!
                  name: String!
                  rank: Int
                  next: Item\((index + 1) % types)
                  related(first: Int = 10): [Item\((index + 2) % types)!]!
                }

                """
        }
        var extensions = "extend interface Node @typePolicy(keyFields: \"id\")\n"
        extensions += (0..<operations).map { "extend type Query @fieldPolicy(forField: \"item\($0)\", keyArgs: \"id\")\n" }.joined()
        try write(schema, to: directory + "/schema.graphqls")
        try write(extensions, to: directory + "/schema-extensions.graphqls")
        for index in 0..<operations {
            let previous = index == 0 ? "" : "\n    ...Item\(index - 1)Fields"
            try write("""
                query Feature\(index)($id: ID!) {
                  item\(index)(id: $id) {
                    ...Item\(index)Fields
                    next {
                      id
                      name
                    }
                  }
                  node(id: $id) {
                    id\(previous)
                  }
                }

                fragment Item\(index)Fields on Item\(index) {
                  id
                  name
                  rank
                  related(first: 3) {
                    id
                    name
                  }
                }

                """, to: directory + "/Features/Feature\(index)/Feature\(index).graphql")
        }
    }

    private static func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }
}
