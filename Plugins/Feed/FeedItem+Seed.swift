extension FeedItem {
    /// The feed of `user`, the same at every start: a welcome naming the user, then five
    /// posts, two of them about Lisbon.
    static func seed(for user: String) -> [FeedItem] {
        [
            FeedItem(id: "welcome", title: "Welcome to your feed, \(user)", author: "normcache"),
            FeedItem(id: "1", title: "Lisbon in three days", author: "ana"),
            FeedItem(id: "2", title: "The best pastries in Lisbon", author: "joao"),
            FeedItem(id: "3", title: "Porto by train", author: "ana"),
            FeedItem(id: "4", title: "Kyoto in autumn", author: "kenji"),
            FeedItem(id: "5", title: "Night trains of Europe", author: "team"),
        ]
    }
}
