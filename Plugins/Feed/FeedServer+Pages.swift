import NormPluginKit

/// The paginated fields' pages of the whole feed: a Relay cursor connection, whose cursor
/// is an item's id, and a slice by offset and limit.
///
/// ```swift
/// let page = try FeedServer.connection(of: items, first: 2, after: "welcome", last: nil, before: nil)
/// // edges "1" and "2"; pageInfo hasNextPage true, hasPreviousPage true, startCursor "1", endCursor "2"
/// let slice = try FeedServer.slice(of: items, offset: 20, limit: 20)   // items 20 to 39
/// ```
extension FeedServer {
    /// The page of `items` the Relay connection arguments select, as the Relay spec's
    /// pagination algorithm says: the items after `after` and before `before`, then the
    /// `first` of them, then the `last` of those. `hasNextPage` and `hasPreviousPage` say
    /// whether the whole list goes on past the page's ends, whichever way it pages.
    static func connection(of items: [FeedItem], first: Int?, after: String?, last: Int?, before: String?) throws -> [String: any Sendable] {
        var start = try after.map { try position(of: $0, in: items) + 1 } ?? 0
        var end = try before.map { try position(of: $0, in: items) } ?? items.count
        end = max(start, end)
        if let first {
            guard first >= 0 else { throw PluginError("feedConnection's first must be 0 or more, not \(first)") }
            end = min(end, start + first)
        }
        if let last {
            guard last >= 0 else { throw PluginError("feedConnection's last must be 0 or more, not \(last)") }
            start = max(start, end - last)
        }
        let page = items[start..<end]
        var pageInfo: [String: any Sendable] = ["hasNextPage": end < items.count, "hasPreviousPage": start > 0]
        pageInfo["startCursor"] = page.first?.id   // an empty page has no cursors: null
        pageInfo["endCursor"] = page.last?.id
        return ["edges": page.map { ["cursor": $0.id, "node": $0.object] as [String: any Sendable] }, "pageInfo": pageInfo]
    }

    /// The `limit` items of `items` from the `offset`th on (fewer at the end, none past it).
    static func slice(of items: [FeedItem], offset: Int, limit: Int) throws -> [[String: any Sendable]] {
        guard offset >= 0 else { throw PluginError("feedItems' offset must be 0 or more, not \(offset)") }
        guard limit >= 0 else { throw PluginError("feedItems' limit must be 0 or more, not \(limit)") }
        return items.dropFirst(offset).prefix(limit).map(\.object)
    }

    /// Where the item whose cursor (id) is `cursor` is in `items`.
    private static func position(of cursor: String, in items: [FeedItem]) throws -> Int {
        guard let index = items.firstIndex(where: { $0.id == cursor }) else { throw PluginError("feedConnection has no item with the cursor \"\(cursor)\"") }
        return index
    }
}
