import NormCache

/// An Apollo Client snapshot as `.dump` prints it and `.export` writes it: JSON with one
/// record a line, readable and still one JSON document.
///
/// ```swift
/// SnapshotText.text(of: ["Trip:1": ["id": "1"]])
/// // {
/// //   "Trip:1": {"id":"1"}
/// // }
/// ```
enum SnapshotText {
    static func text(of snapshot: CacheValue) -> String {
        guard case .object(let records) = snapshot, !records.isEmpty else { return "{}" }
        let lines = records.members.map { "  " + JSON.string(.string($0)) + ": " + JSON.string($1, references: .none) }
        return "{\n" + lines.joined(separator: ",\n") + "\n}"
    }
}
