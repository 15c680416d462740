import NormPluginKit

/// A post of the feed.
///
/// ```swift
/// let item = FeedItem(id: "1", title: "Lisbon in three days", author: "ana")
/// item.line   // "1  Lisbon in three days, by ana"
/// ```
struct FeedItem: Sendable {
    let id: String
    let title: String
    let author: String

    init(id: String, title: String, author: String) {
        self.id = id
        self.title = title
        self.author = author
    }

    /// The item of a response's `{"id": ..., "title": ..., "author": ...}`.
    init(_ data: Map) throws {
        guard let id = data["id"].string, let title = data["title"].string, let author = data["author"].string else {
            throw PluginError("the server sent a feed item without id, title or author")
        }
        self.init(id: id, title: title, author: author)
    }

    /// One line for people.
    var line: String { "\(id)  \(title), by \(author)" }

    /// What the endpoint's fields read.
    var object: [String: any Sendable] { ["id": id, "title": title, "author": author] }
}
