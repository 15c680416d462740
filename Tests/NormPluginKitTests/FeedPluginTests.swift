import Testing

/// The feed plugin as the host loads it (``LoadedPlugin/bundled(_:host:)``): its server
/// answers the generated operations of its manifest, and its service runs them through the
/// host, announcing its view state, and prints from their generated data.
@Suite struct FeedPluginTests {
    let host = FakeHost()
    let feed: LoadedPlugin

    init() throws {
        feed = try LoadedPlugin.bundled("feed", host: host)
    }

    @Test func theServerAnswersTheManifestsOperations() async throws {
        #expect(try await feed.query(feed.operation("Search"), #"{"text": "porto"}"#)
            == #"{"data":{"search":[{"__typename":"FeedItem","id":"3","title":"Porto by train","author":"ana"}]}}"#)
    }

    /// `feedConnection` pages backward as the Relay spec says: the `last` items before
    /// `before`, `hasPreviousPage` true while items come before them, `startCursor` the
    /// first edge's; none before the first item.
    @Test func theConnectionPagesBackward() async throws {
        let middle = try await feed.query(feed.operation("FeedPage"), #"{"first":null,"last":3,"before":"50"}"#)
        #expect(middle.contains(#""pageInfo":{"__typename":"PageInfo","hasNextPage":true,"hasPreviousPage":true,"startCursor":"47","endCursor":"49"}"#), "\(middle)")
        #expect(middle.hasPrefix(#"{"data":{"feedConnection":{"__typename":"FeedItemConnection","edges":[{"__typename":"FeedItemEdge","cursor":"47""#), "\(middle)")
        let start = try await feed.query(feed.operation("FeedPage"), #"{"first":null,"last":5,"before":"3"}"#)
        #expect(start.contains(#""pageInfo":{"__typename":"PageInfo","hasNextPage":true,"hasPreviousPage":false,"startCursor":"welcome","endCursor":"2"}"#), "\(start)")
        let none = try await feed.query(feed.operation("FeedPage"), #"{"first":null,"last":5,"before":"welcome"}"#)
        #expect(none.contains(#""edges":[],"pageInfo":{"__typename":"PageInfo","hasNextPage":true,"hasPreviousPage":false,"startCursor":null,"endCursor":null}"#), "\(none)")
    }

    @Test func loadPrintsTheFeedAndAnnouncesItsState() async throws {
        host.reply(to: "run", with: (true, #"{"data":{"feed":[{"__typename":"FeedItem","id":"3","title":"Porto by train","author":"ana"}]},"source":"cache"}"#))
        #expect(try await feed.command("feed.load") == (true, #"{"output":["1 items (cache)","  3  Porto by train, by ana"]}"#))
        host.reply(to: "run", with: (true, #"{"data":null,"errors":[{"message":"the feed is down"}],"source":"network"}"#))
        #expect(try await feed.command("feed.retry") == (false, #"{"message":"retrying the feed failed: the feed is down"}"#))
        #expect(host.received == [
            "state feed loading -", #"run {"operation":"Feed","variables":{},"policy":"cache-first"}"#, "state feed loaded 1 items",
            "state feed loading -", #"run {"operation":"Feed","variables":{},"policy":"network-only"}"#, "state feed error the feed is down",
        ])
    }
}
