/// A post of the feed as the feed server keeps it: server state, which the resolvers read
/// (`object`); the service reads the feed as the generated ``FeedRow``.
///
/// ```swift
/// let item = FeedItem(id: "1", title: "Lisbon in three days", author: "ana")
/// item.object   // ["id": "1", "title": "Lisbon in three days", "author": "ana"]
/// ```
struct FeedItem: Sendable {
    let id: String
    let title: String
    let author: String

    /// What the endpoint's fields read.
    var object: [String: any Sendable] { ["id": id, "title": title, "author": author] }
}
