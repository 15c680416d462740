import NormPluginKit

/// Some PURLs of one address, a page of the `purls` query: what the server sends and what
/// ``PurlRepository/fetch(address:)`` yields.
///
/// ```swift
/// let page = try PurlPage(number: 1, data: reply["data", "purls"])
/// page.items.map(\.name)   // ["cv", "blog"]
/// page.nextPage            // 2; nil on the last page
/// ```
struct PurlPage: Sendable {
    /// Counted from 1.
    let number: Int
    let items: [PURL]
    let nextPage: Int?

    init(number: Int, items: [PURL], nextPage: Int?) {
        self.number = number
        self.items = items
        self.nextPage = nextPage
    }

    /// Page `number` from a response's `{"items": [...], "nextPage": ...}`.
    init(number: Int, data: Map) throws {
        guard let items = data["items"].array else { throw PluginError("the server sent page \(number) without items") }
        self.init(number: number, items: try items.map(PURL.init), nextPage: data["nextPage"].int)
    }

    /// What the endpoint's fields read.
    var object: [String: any Sendable] {
        var object: [String: any Sendable] = ["items": items.map(\.object)]
        object["nextPage"] = nextPage
        return object
    }
}
