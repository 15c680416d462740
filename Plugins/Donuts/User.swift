import NormPluginKit

/// The user the donut shop serves: the one logged in, or `default`.
///
/// ```swift
/// User(id: "ana", name: "Ana").object   // ["id": "ana", "name": "Ana"]
/// ```
struct User: Sendable {
    let id: String
    let name: String

    init(id: String, name: String) {
        self.id = id
        self.name = name
    }

    /// The user of a response's `{"id": ..., "name": ...}`.
    init(_ data: Map) throws {
        guard let id = data["id"].string, let name = data["name"].string else {
            throw PluginError("the server sent a user without id or name")
        }
        self.init(id: id, name: name)
    }

    /// What the endpoint's fields read.
    var object: [String: any Sendable] { ["id": id, "name": name] }
}
