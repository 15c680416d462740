/// The feed endpoint's cache keys. Its schema is GraphQL/schema.graphqls, which codegen
/// writes into `FeedSchema.sdl` (Generated/) with the types of the views' operations.
extension FeedSchema {
    /// A feed item is keyed by its `id` (`FeedItem:3`), as every type with one is; a page
    /// of `feedConnection`, its edges and its page info have none and are never normalized:
    /// each page stays under its own field key (`QUERY_ROOT.feedConnection(after:19,first:20)`).
    static let typePolicies: [String: [String]] = ["FeedItemConnection": [], "FeedItemEdge": [], "PageInfo": []]
}
