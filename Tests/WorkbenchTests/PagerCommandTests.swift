import NormCache
import Testing
@testable import Workbench

/// `.pager OP [JSON]`, `.more ID`, `.refetch ID` and `.unwatch ID` over the feed plugin's
/// paginated fields, in JSON mode: Apollo iOS's pager, one watcher per page, its `pager`
/// events carrying every page's items concatenated.
@Suite struct PagerCommandTests {
    /// The cursors of a `pager` event's items (edges).
    private func cursors(_ event: CacheObject) -> [String] {
        guard case .list(let edges)? = event["data"] else { return [] }
        return edges.compactMap { if case .string(let cursor)? = $0["cursor"] { cursor } else { nil } }
    }

    @Test func aPagerConcatenatesItsPagesAndEachPageIsAWatcher() async throws {
        let bench = try await TestSession.start(plugins: true)
        try await bench.run(".use feed")
        let started = try await bench.run(#".pager FeedPage {"first":3}"#)
        let paging = try started.event("paging")
        let id = try #require(paging.int("id"))
        #expect(paging == ["event": "paging", "id": CacheValue(id), "op": "FeedPage", "list": "feedConnection.edges"])
        let first = try started.event("pager")
        #expect(first.int("pages") == 1 && first.int("page") == 1 && first.bool("canLoadNext") == true)
        #expect(cursors(first) == ["welcome", "1", "2"])

        let second = try await bench.run(".more \(id)").event("pager")
        #expect(second.int("pages") == 2 && second.int("page") == 2)
        #expect(cursors(second) == ["welcome", "1", "2", "3", "4", "5"])
        let watchers = try await bench.run(".watches").event("watches")
        guard case .list(let listed)? = watchers["watches"] else { Issue.record("no watches: \(watchers)"); return }
        #expect(listed.map { $0["variables"] } == [["first": 3], ["first": 3, "after": "2"]])

        // Back to the first page: the second page's watcher stops.
        let reset = try await bench.run(".refetch \(id)").event("pager")
        #expect(reset.int("pages") == 1 && cursors(reset) == ["welcome", "1", "2"])
        #expect(bench.session.client.activeWatches.count == 1)
        try await bench.run(".unwatch \(id)")
        #expect(bench.session.client.activeWatches.isEmpty)
        #expect(bench.session.failures == 0)
    }

    @Test func moreSaysWhyThereIsNoNextPageAndSendsNothing() async throws {
        let bench = try await TestSession.start(plugins: true)
        try await bench.run(".use feed")
        let id = try #require(try await bench.run(#".pager FeedItems {"offset":100,"limit":50}"#).event("paging").int("id"))
        let requests = bench.session.client.network.log.count
        let refused = try await bench.run(".more \(id)")
        let more = try refused.event("more")
        #expect(more.string("reason") == "feedItems has no next page: its last page has 25 items, fewer than limit 50")
        #expect(more["sent"] == false)
        #expect(try refused.events("pager").isEmpty)
        #expect(bench.session.client.network.log.count == requests)
    }

    @Test func moreOnAPlainWatcherAndPagerOnAPlainQueryAreRefused() async throws {
        let bench = try await TestSession.start(plugins: true)
        try await bench.run(".use feed", ".watch Feed")
        let watcher = try #require(bench.session.client.activeWatches.first?.id)
        let more = try await bench.run(".more \(watcher)").event("error").string("message")
        #expect(more == "Feed has no paginated field: declare one in the schema (@typePolicy(connectionFields:), @fieldPolicy(paginationArgs:)), "
                + "or page it with Apollo iOS's pager")
        let pager = try await bench.run(".pager Feed").event("error").string("message")
        #expect(pager == "no pager over Feed: Feed has no paginated field: no field of it takes after:, before:, offset: or skip:")
        // `.pager on|off` still switches the terminal's pager.
        #expect(try await bench.run(".pager off").events == [["event": "ok", "command": ".pager"]])
    }
}
