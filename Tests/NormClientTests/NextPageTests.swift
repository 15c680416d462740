import NormCache
import NormClient
import Testing

/// `NextPage` tells the variables of the page after (or before) a page from the operation
/// and the page's data, for a cursor connection and an offset list, or why there is none
/// in a sentence that names the field.
@Suite struct NextPageTests {
    private let cache = NormalizedCache()

    private static let feedPage = """
        query FeedPage($first: Int = 20, $after: String, $last: Int, $before: String) {
          feedConnection(first: $first, after: $after, last: $last, before: $before) {
            edges { cursor node { id } }
            pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
          }
        }
        """
    private static let feedItems = "query FeedItems($offset: Int = 0, $limit: Int = 20) { feedItems(offset: $offset, limit: $limit) { id } }"

    /// A connection page of `cursors`, with its page info.
    private static func connection(_ cursors: [String], hasNext: Bool? = true, hasPrevious: Bool = false, endCursor: Bool = true) -> CacheObject {
        var pageInfo: CacheObject = ["hasPreviousPage": .bool(hasPrevious), "startCursor": cursors.first.map(CacheValue.string) ?? .null]
        if let hasNext { pageInfo["hasNextPage"] = .bool(hasNext) }
        if endCursor { pageInfo["endCursor"] = cursors.last.map(CacheValue.string) ?? .null }
        let edges = cursors.map { CacheValue.object(["cursor": .string($0), "node": ["id": .string($0)]]) }
        return ["feedConnection": ["edges": .list(edges), "pageInfo": .object(pageInfo)]]
    }

    private static func items(_ count: Int, from start: Int = 0) -> CacheObject {
        ["feedItems": .list((start..<start + count).map { ["id": .string("\($0)")] })]
    }

    /// Why `body` found no page.
    private func reason(_ body: () throws -> NextPage) -> String {
        do { _ = try body() } catch { return "\(error)" }
        return "there is a page"
    }

    @Test func aCursorConnectionPagesFromItsEndCursor() throws {
        let operation = try cache.operation(Self.feedPage)
        let next = try NextPage(in: operation, page: Self.connection(["1", "2"]), variables: ["first": 2])
        #expect(next.field.path == ["feedConnection"])
        #expect(next.field.style == .cursor)
        #expect(next.field.itemsName == "feedConnection.edges")
        #expect(next.variables == ["first": 2, "after": "2"])
        // Without pageInfo.endCursor, the last edge's cursor.
        let fromEdge = try NextPage(in: operation, page: Self.connection(["1", "2"], endCursor: false), variables: ["first": 2, "after": "0"])
        #expect(fromEdge.variables == ["first": 2, "after": "2"])
        // The page before: before the start cursor, as many as a page, no first (null overrides its default).
        let previous = try NextPage(.previous, in: operation, page: Self.connection(["3", "4"], hasPrevious: true), variables: ["first": 2, "after": "2"])
        #expect(previous.variables == ["first": nil, "before": "3", "last": 2])
    }

    @Test func aCursorConnectionsLastPageHasNoNextOne() throws {
        let operation = try cache.operation(Self.feedPage)
        #expect(reason { try NextPage(in: operation, page: Self.connection(["9"], hasNext: false), variables: [:]) }
                == "feedConnection has no next page: pageInfo.hasNextPage is false")
        #expect(reason { try NextPage(.previous, in: operation, page: Self.connection(["1"]), variables: [:]) }
                == "feedConnection has no previous page: pageInfo.hasPreviousPage is false")
        #expect(reason { try NextPage(in: operation, page: Self.connection([], hasNext: nil), variables: [:]) }
                == "feedConnection has no next page: the page has no edges")
        #expect(reason { try NextPage(in: operation, page: ["feedConnection": nil], variables: [:]) }
                == "feedConnection is not in the page's data (null, or not selected)")
    }

    @Test func anOffsetListPagesByTheItemsShown() throws {
        let operation = try cache.operation(Self.feedItems)
        let next = try NextPage(in: operation, page: Self.items(20), variables: ["limit": 20])
        #expect(next.field.style == .offset)
        #expect(next.variables == ["limit": 20, "offset": 20])
        let third = try NextPage(in: operation, page: Self.items(20, from: 20), variables: ["offset": 20, "limit": 20])
        #expect(third.variables == ["offset": 40, "limit": 20])
        // The declared default page size (20) counts when the variables give none.
        #expect(reason { try NextPage(in: operation, page: Self.items(5, from: 120), variables: ["offset": 120]) }
                == "feedItems has no next page: its last page has 5 items, fewer than limit 20")
        #expect(reason { try NextPage(in: operation, page: Self.items(0), variables: [:]) }
                == "feedItems has no next page: the page has no items")
        let previous = try NextPage(.previous, in: operation, page: Self.items(20, from: 40), variables: ["offset": 40, "limit": 20])
        #expect(previous.variables == ["offset": 20, "limit": 20])
        #expect(reason { try NextPage(.previous, in: operation, page: Self.items(20), variables: [:]) }
                == "feedItems has no previous page: its offset is 0")
    }

    @Test func aPagingArgumentThatIsNoVariableSaysSo() throws {
        let literal = try cache.operation("query FeedPage { feedConnection(first: 5, after: \"9\") { edges { cursor } } }")
        #expect(reason { try NextPage(in: literal, page: [:], variables: [:]) }
                == "feedConnection's after: is not a variable in FeedPage, so its next page cannot be asked for")
        let forwardOnly = try cache.operation("query FeedPage($after: String) { feedConnection(first: 5, after: $after) { edges { cursor } } }")
        #expect(reason { try NextPage(.previous, in: forwardOnly, page: [:], variables: [:]) }
                == "feedConnection takes no before: in FeedPage, so its previous page cannot be asked for")
    }

    @Test func theCallerCanNameTheField() throws {
        let operation = try cache.operation("""
            query Profile($after: String, $offset: Int) {
              viewer { friends(after: $after) { edges { cursor } pageInfo { endCursor } } posts: feedItems(offset: $offset, limit: 2) { id } }
            }
            """)
        // Found alone, the first paginated field; named, the one at that path of response keys.
        #expect(try NextPage.Field(in: operation).path == ["viewer", "friends"])
        let posts = try NextPage.Field(in: operation, at: ["viewer", "posts"])
        #expect(posts.style == .offset)
        #expect(posts.variables == ["offset": "offset"])
        let page: CacheObject = ["viewer": ["posts": [["id": "a"], ["id": "b"]]]]
        #expect(try NextPage(of: posts, page: page, variables: [:]).variables == ["offset": 2])
        #expect(posts.items(in: page)?.count == 2)
        #expect(reason { try NextPage(in: operation, at: ["viewer", "likes"], page: page, variables: [:]) }
                == "Profile has no field viewer.likes")
        #expect(reason { try NextPage(in: operation, at: ["viewer"], page: page, variables: [:]) }
                == "viewer is not paginated in Profile: it takes no after:, before:, offset: or skip:")
        let plain = try cache.operation("query Feed { feed { id } }")
        #expect(reason { try NextPage(in: plain, page: [:], variables: [:]) }
                == "Feed has no paginated field: no field of it takes after:, before:, offset: or skip:")
    }
}
