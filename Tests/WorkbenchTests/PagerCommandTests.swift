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

    /// A pager started in the middle of the list pages backward to its start: each
    /// previous page a watcher more, shown before the others and numbered down from the
    /// initial page (0, -1, …); then there is no previous page.
    @Test func aPagerPagesBackwardToTheStart() async throws {
        let bench = try await TestSession.start(plugins: true)
        try await bench.run(".use feed")
        let started = try await bench.run(#".pager FeedPage {"first":5,"after":"49"}"#)
        let id = try #require(try started.event("paging").int("id"))
        let initial = try started.event("pager")
        #expect(initial.bool("canLoadPrevious") == true && initial.bool("canLoadNext") == true && initial.int("previousPages") == 0)
        #expect(cursors(initial) == ["50", "51", "52", "53", "54"])

        let loaded = try await bench.run(".more \(id) previous")
        let more = try loaded.event("more")
        #expect(more == ["event": "more", "id": CacheValue(id), "direction": "previous", "sent": true,
                         "variables": ["first": .null, "before": "50", "last": 5], "reason": .null])
        let previous = try loaded.event("pager")
        #expect(previous.int("pages") == 2 && previous.int("previousPages") == 1 && previous.int("page") == 0)
        #expect(cursors(previous) == ["45", "46", "47", "48", "49", "50", "51", "52", "53", "54"])
        // The initial page keeps its number (1) and the pager's id; the next page is 2.
        let next = try await bench.run(".more \(id)").event("pager")
        #expect(next.int("page") == 2 && next.int("pages") == 3 && cursors(next).last == "59")
        try await bench.run(".expect pager \(id) canLoadPrevious == true", ".expect pager \(id) previousPages == 1")

        for _ in 1...9 { try await bench.run(".more \(id) previous") }
        let start = try #require(bench.session.pager("\(id)")).snapshot()
        #expect(start.pages == 12 && start.previousPages == 10 && !start.canLoadPrevious && start.page == -9)
        #expect(start.items.count == 60 && start.items.first?["cursor"] == "welcome" && start.items[50]["cursor"] == "50")
        let requests = bench.session.client.network.log.count
        let refused = try await bench.run(".more \(id) previous")
        #expect(try refused.event("more").string("reason") == "feedConnection has no previous page: pageInfo.hasPreviousPage is false")
        #expect(try refused.event("more")["direction"] == "previous")
        #expect(bench.session.client.network.log.count == requests)
        #expect(bench.session.failures == 0)
    }

    /// `.more ID all` is Apollo iOS's `loadAll()`: back to the initial page, refetched,
    /// then the next pages to the end and the previous ones to the start, the pager
    /// showing the whole list once.
    @Test func moreAllLoadsEveryPageAndShowsTheListOnce() async throws {
        let bench = try await TestSession.start(plugins: true)
        try await bench.run(".use feed")
        let id = try #require(try await bench.run(#".pager FeedPage {"first":40,"after":"49"}"#).event("paging").int("id"))
        try await bench.run(".more \(id) previous")
        let all = try await bench.run(".more \(id) all")
        #expect(try all.events("more").map { $0["direction"] } == ["next", "previous", "previous"])
        let shown = try all.events("pager")
        #expect(shown.count == 1)
        let pager = try #require(shown.first)
        #expect(pager.int("pages") == 4 && pager.int("previousPages") == 2)
        #expect(pager.bool("canLoadNext") == false && pager.bool("canLoadPrevious") == false)
        #expect(cursors(pager).count == 125 && cursors(pager).first == "welcome" && cursors(pager).last == "124")
        #expect(bench.session.client.activeWatches.count == 4)
        #expect(bench.session.failures == 0)
    }

    /// Offset pages go backward a page size at a time, down to offset 0.
    @Test func anOffsetPagerPagesBackward() async throws {
        let bench = try await TestSession.start(plugins: true)
        try await bench.run(".use feed")
        let id = try #require(try await bench.run(#".pager FeedItems {"offset":50,"limit":25}"#).event("paging").int("id"))
        #expect(try await bench.run(".more \(id) previous").event("more")["variables"] == ["offset": 25, "limit": 25])
        let start = try await bench.run(".more \(id) previous").event("pager")
        #expect(start.int("previousPages") == 2 && start.bool("canLoadPrevious") == false)
        guard case .list(let items)? = start["data"] else { Issue.record("no data: \(start)"); return }
        #expect(items.count == 75 && items[0]["id"] == "welcome" && items[74]["id"] == "74")
        #expect(try await bench.run(".more \(id) previous").event("more").string("reason") == "feedItems has no previous page: its offset is 0")
    }

    /// A load while a page has not answered yet is refused, as Apollo iOS refuses one
    /// while another is in progress; so is a direction word `.more` does not know.
    @Test func moreRefusesWhileAPageIsLoading() async throws {
        let bench = try await TestSession.start(plugins: true)
        try await bench.run(".use feed")
        let id = try #require(try await bench.run(#".pager FeedPage {"first":5,"after":"49"}"#).event("paging").int("id"))
        try await bench.run(".network latency 500", ".nowait .more \(id)")
        let refused = try await bench.run(".more \(id) previous").event("more").string("reason")
        #expect(refused == "pager \(id) has no answer from page 2 yet (still loading; if its fetch failed, .refetch \(id) starts over)")
        let unknown = try await bench.run(".more \(id) back").event("error").string("message")
        #expect(unknown == ".more ID takes next, previous or all after the id, not \"back\"")
    }

    /// On a watcher whose field the schema declares paginated, `.more ID previous` asks
    /// for the page before the merged list's start cursor, which the cache prepends.
    @Test func moreOnAMergedWatcherPrependsThePreviousPage() async throws {
        let bench = try await TestSession.start(plugins: true)
        try await bench.run(".use feed", #".vars {"first":5,"after":"49"}"#)
        try await bench.run("""
            .watch query PagedBack($first: Int, $after: String, $last: Int, $before: String) { pagedFeed(first: $first, after: $after, last: $last, before: $before) { edges { cursor node { id title } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }
            """)
        let watcher = try #require(bench.session.client.activeWatches.first?.id)
        let loaded = try await bench.run(".more \(watcher) previous")
        #expect(try loaded.event("more")["variables"] == ["first": .null, "before": "50", "last": 5])
        let emission = try loaded.event("watch")
        #expect(emission.string("cause") == "page")
        try await bench.run(".expect watch \(watcher) data pagedFeed.edges[0].cursor == \"45\"",
                            ".expect watch \(watcher) data pagedFeed.edges[9].cursor == \"54\"",
                            ".expect watch \(watcher) data pagedFeed.pageInfo.startCursor == \"45\"")
        // `all` merges the next pages to the end, then the previous ones to the start.
        let all = try await bench.run(".more \(watcher) all")
        #expect(try all.events("more").count == 23)
        try await bench.run(".expect watch \(watcher) data pagedFeed.edges[0].cursor == \"welcome\"",
                            ".expect watch \(watcher) data pagedFeed.edges[124].cursor == \"124\"",
                            ".expect watch \(watcher) data pagedFeed.pageInfo.hasPreviousPage == false",
                            ".expect watch \(watcher) data pagedFeed.pageInfo.hasNextPage == false")
        #expect(bench.session.failures == 0)
    }

    /// A list merged by position holds its items from offset 0, whatever offset a watcher
    /// asked with: its next page is at the number of items it holds, and it has none
    /// before it. `.more ID all` pages it to the end and stops at the empty page after a
    /// last whole page (125 items, 5 a page), with no error.
    @Test func aMergedOffsetListPagesFromItsItemCount() async throws {
        let bench = try await TestSession.start(plugins: true)
        try await bench.run(".use feed", #".run PagedItems {"limit":5}"#, #".watch PagedItems {"offset":5,"limit":5}"#)
        let watcher = try #require(bench.session.client.activeWatches.first?.id)
        #expect(try await bench.run(".more \(watcher) previous").event("more").string("reason")
                == "pagedItems has no previous page: it is merged by position from offset 0")
        #expect(try await bench.run(".more \(watcher)").event("more")["variables"] == ["offset": 5, "limit": 5])
        let all = try await bench.run(".more \(watcher) all")
        #expect(try all.events("error").isEmpty)
        // The empty page after the last whole one is asked for once: asking for it again is refused before it is sent.
        #expect(try all.events("more").compactMap { $0["variables"]?["offset"] }.filter { $0 == 125 }.count == 1)
        try await bench.run(".expect watch \(watcher) data pagedItems[124].id == \"124\"")
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
