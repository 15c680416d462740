/// How the workbench prints: a tree (the default), tables, or one JSON object per line.
///
/// ```swift
/// OutputMode(rawValue: "json")   // .json
/// ```
package enum OutputMode: String, Sendable, CaseIterable {
    case tree, table, json
}
