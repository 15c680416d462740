/// The feed endpoint: the user's feed, and a search of its titles.
enum FeedSchema {
    static let sdl = """
        type Query {
          "The feed of the user logged in."
          feed: [FeedItem!]!
          "The items of the feed whose title contains `text`, in any case; takes the server about 100 ms."
          search(text: String!): [FeedItem!]!
        }

        type FeedItem {
          id: ID!
          title: String!
          author: String!
        }
        """

    /// Every type is keyed by `id`.
    static let typePolicies: [String: [String]] = [:]
}
