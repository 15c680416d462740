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

    /// How many items the whole feed has, the seed's and the older posts.
    static let archiveCount = 125

    /// The whole feed of `user`, newest first, the same at every start: the seed's items,
    /// then older posts `6` to `124` (`Travel note 6`, by ana, joao, kenji or team in turn),
    /// what the paginated fields page through.
    static func archive(for user: String) -> [FeedItem] {
        let authors = ["ana", "joao", "kenji", "team"]
        return seed(for: user) + (6..<archiveCount).map { FeedItem(id: "\($0)", title: "Travel note \($0)", author: authors[$0 % authors.count]) }
    }
}
