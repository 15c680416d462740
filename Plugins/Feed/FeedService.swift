import NormPluginKit
import Synchronization

/// The `feed` service: loads the feed with its view state announced to the host (loading,
/// then loaded with the number of items, or error with the message), retries from the
/// network, and searches as the user types, a newer search cancelling the one in flight.
///
/// ```swift
/// let feed = try environment.service(FeedService.self)
/// try await feed.load()                           // state loading, then loaded (6 items)
/// let older = feed.search("lis")
/// let newer = feed.search("lisbon")               // cancels "lis"
/// try await newer.value.map(\.title)              // ["Lisbon in three days", "The best pastries in Lisbon"]
/// ```
final class FeedService: Service {
    let domain = "feed"
    private let host: Host
    private let server: FeedServer
    /// The search in flight, cancelled by the next one and at login and logout.
    private let currentSearch = Mutex<Task<[FeedRow], any Error>?>(nil)

    init(environment: Environment) throws {
        host = try environment.get(Host.self)
        server = try environment.get(FeedServer.self)
    }

    func handle(_ event: LifecycleEvent) async {
        if event != .foreground { cancelSearch() }
        await server.follow(event)
    }

    /// What a load gets: the items, and where they came from (`cache` or `network`).
    struct Loaded: Sendable {
        let items: [FeedRow]
        let source: String
    }

    /// Shows the feed: from the cache when it holds the whole feed (no wait, no request),
    /// else from the network.
    func load() async throws -> Loaded {
        try await fetch(policy: .cacheFirst)
    }

    /// Fetches the feed from the network again, whatever the cache holds: after a failed
    /// load, or to see what changed.
    func retry() async throws -> Loaded {
        try await fetch(policy: .networkOnly)
    }

    /// Starts a search for `text` and cancels the one in flight, whose request the host
    /// then cancels too. The task answers the items found, or throws `CancellationError`
    /// when a newer search (or a login or logout) cancelled it before it answered.
    func search(_ text: String) -> Task<[FeedRow], any Error> {
        let search = Task { [host] in
            // Cancelling this task cancels the host's request too (logged `cancelled`).
            let found = try await host.fetch(SearchQuery(text: text), policy: .networkOnly)
            try Task.checkCancellation()   // an answer that crossed the cancel is stale all the same
            return try found.get().search.map(\.fragments.feedRow)
        }
        currentSearch.withLock { current in
            current?.cancel()
            current = search
        }
        return search
    }

    private func cancelSearch() {
        currentSearch.withLock { current in
            current?.cancel()
            current = nil
        }
    }

    private func fetch(policy: FetchPolicy) async throws -> Loaded {
        host.emitState(service: domain, state: .loading)
        do {
            let feed = try await host.fetch(FeedQuery(), policy: policy)
            let items = try feed.get().feed.map(\.fragments.feedRow)
            host.emitState(service: domain, state: .loaded, detail: "\(items.count) items")
            return Loaded(items: items, source: feed.source)
        } catch {
            host.emitState(service: domain, state: .error, detail: "\(error)")
            throw error
        }
    }
}
