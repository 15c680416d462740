import NormPluginKit

// The operations of the feed views, each beside the view it serves.

/// What every feed row shows.
enum FeedRowView {
    static let fragment = NamedFragment("fragment FeedRow on FeedItem { id title author }")
}

/// The feed.
enum FeedView {
    static let query = NamedOperation("query Feed { feed { ...FeedRow } }", fragments: [FeedRowView.fragment])
}

/// The results of a search as the user types.
enum SearchView {
    static let query = NamedOperation("query Search($text: String!) { search(text: $text) { ...FeedRow } }", fragments: [FeedRowView.fragment])
}
