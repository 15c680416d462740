/// Some PURLs of one address, a page of the `purls` query as the server makes it from its
/// directory: what the resolver answers (`object`). The repository reads pages as the
/// generated `PurlListPageQuery.Data.Purls`.
///
/// ```swift
/// let page = try directory.page(1, of: "ana@example.org")
/// page.items.map(\.name)   // ["cv", "blog"]
/// page.nextPage            // 2; nil on the last page
/// ```
struct PurlPage: Sendable {
    let items: [PURL]
    let nextPage: Int?

    /// What the endpoint's fields read.
    var object: [String: any Sendable] {
        var object: [String: any Sendable] = ["items": items.map(\.object)]
        object["nextPage"] = nextPage
        return object
    }
}
