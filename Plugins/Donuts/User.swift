/// The user the donut shop serves, the one logged in or `default`, as the server makes it:
/// server state, which the `me` resolver reads (`object`); the `users` service reads it as
/// the generated `MeQuery.Data.Me`.
///
/// ```swift
/// User(id: "ana", name: "Ana").object   // ["id": "ana", "name": "Ana"]
/// ```
struct User: Sendable {
    let id: String
    let name: String

    /// What the endpoint's fields read.
    var object: [String: any Sendable] { ["id": id, "name": name] }
}
