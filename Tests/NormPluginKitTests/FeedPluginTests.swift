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
