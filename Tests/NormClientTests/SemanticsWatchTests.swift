import Foundation
import NormCache
import NormClient
import Testing

/// What a client's watcher shows where Apollo iOS and Apollo Client differ, under each
/// semantics (docs/engine.md, "Apollo iOS and Apollo Client"): a cache-only watcher on an
/// empty cache, a cleared cache, an item of a watched list evicted.
@Suite struct SemanticsWatchTests {
    private let lisbonPorto: [(String, String)] = [("1", "Lisbon"), ("2", "Porto")]

    private func setUp(_ semantics: Semantics, server: [String: String] = ["1": "Lisboa", "2": "Porto"]) throws
        -> (Client, FakeTransport, CompiledOperation)
    {
        let client = Client(cache: NormalizedCache())
        client.semantics = semantics
        let fake = FakeTransport(name: "trips", handler: ClientTesting.tripServer(server))
        return (client, fake, try client.cache.operation(ClientTesting.tripList))
    }

    private func fill(_ client: Client, _ tripList: CompiledOperation, _ trips: [(String, String)]) throws {
        try client.cache.write(data: ClientTesting.tripsData(trips), for: tripList)
    }

    /// A client under `semantics` watching the trip list under `policy`, the list written
    /// first when `filled`, with what the watcher hears.
    private func watchTripList(_ semantics: Semantics, policy: FetchPolicy = .cacheFirst, filled: Bool) throws
        -> (client: Client, fake: FakeTransport, tripList: CompiledOperation, events: WatchEvents, watch: ClientWatch)
    {
        let (client, fake, tripList) = try setUp(semantics)
        if filled { try fill(client, tripList, lisbonPorto) }
        let events = WatchEvents()
        let watch = try client.watch(tripList, policy: policy, from: fake, onEvent: events.callback)
        return (client, fake, tripList, events, watch)
    }

    @Test func theClientPutsItsSemanticsOnEveryCache() throws {
        let client = Client(cache: NormalizedCache())
        #expect(client.semantics == .apolloIOS)
        client.semantics = .apolloClient
        #expect(client.cache.semantics == .apolloClient)
        client.replaceCache(with: NormalizedCache())
        #expect(client.cache.semantics == .apolloClient)
    }

    // MARK: a cache-only watcher on an empty cache

    /// Apollo iOS: the watcher's first fetch yields no result (RequestChain throws
    /// `noResults`), its handler gets the failure, and with no dependent keys it hears no
    /// change until it fetches again.
    @Test func apolloIOSCacheOnlyOnAnEmptyCacheFailsAndHearsNothingUntilItFetches() async throws {
        let (client, fake, tripList, events, watch) = try watchTripList(.apolloIOS, policy: .cacheOnly, filled: false)
        await client.settle()
        #expect(events.entries.count == 1)
        guard case .failure(.cacheMiss(let result))? = events.entries.first else {
            Issue.record("expected a cache miss, got \(events.entries)")
            return
        }
        #expect(result.missing == ["QUERY_ROOT.trips"])
        try fill(client, tripList, lisbonPorto)
        await client.settle()
        #expect(events.entries.last == .unheard(cause: .write, changed: ["QUERY_ROOT.trips"]))
        #expect(events.emissions.isEmpty)
        #expect(fake.requestCount == 0)
        // A fetch gives it what to watch: it shows the network's data, then hears changes.
        try await watch.refetch()
        await client.settle()
        #expect(fake.requestCount == 1)
        #expect(events.emissions.map(\.cause) == [.refetch])
        #expect(events.emissions.last?.data == .object(ClientTesting.tripsData([("1", "Lisboa"), ("2", "Porto")])))
        try client.cache.write(record: "Trip:2", fields: ["name": "Oporto"])
        await client.settle()
        #expect(events.emissions.map(\.cause) == [.refetch, .write])
        watch.cancel()
    }

    /// Apollo Client: the cache-only watch reports its empty answer and shows the data
    /// once a write brings it (ObservableQuery stays subscribed to the cache).
    @Test func apolloClientCacheOnlyOnAnEmptyCacheReportsTheMissAndShowsWhatComes() async throws {
        let (client, fake, tripList, events, watch) = try watchTripList(.apolloClient, policy: .cacheOnly, filled: false)
        await client.settle()
        #expect(events.entries == [.incomplete(cause: .initial, missing: ["QUERY_ROOT.trips"])])
        try fill(client, tripList, lisbonPorto)
        await client.settle()
        #expect(events.emissions.map(\.number) == [1])
        #expect(events.emissions.last?.data == .object(ClientTesting.tripsData(lisbonPorto)))
        #expect(fake.requestCount == 0)
        watch.cancel()
    }

    /// New variables are a new first read: under Apollo iOS a miss fails again, and a hit shows.
    @Test func apolloIOSNewVariablesReadAfresh() async throws {
        let (client, fake, _) = try setUp(.apolloIOS)
        let trip = try client.cache.operation(ClientTesting.tripDetail)
        try client.cache.write(data: ["trip": ClientTesting.trip(id: "2", name: "Porto")], for: trip, variables: ["id": "2"])
        let events = WatchEvents()
        let watch = try client.watch(trip, variables: ["id": "1"], policy: .cacheOnly, from: fake, onEvent: events.callback)
        await client.settle()
        #expect(events.failures.count == 1)
        try watch.setVariables(["id": "2"])
        await client.settle()
        #expect(events.emissions.last?.data == ["trip": ClientTesting.trip(id: "2", name: "Porto")])
        try watch.setVariables(["id": "3"])
        await client.settle()
        #expect(events.failures.count == 2)
        #expect(fake.requestCount == 0)
        watch.cancel()
    }

    // MARK: a cleared cache

    /// Apollo iOS: `ApolloStore.clearCache()` tells no subscriber: the watcher keeps what it
    /// shows and fetches nothing.
    @Test func apolloIOSWatchersAreNotToldOfAClear() async throws {
        let (client, fake, _, events, watch) = try watchTripList(.apolloIOS, filled: true)
        try client.cache.clear()
        await client.settle()
        #expect(events.causes == [.initial])
        #expect(events.entries.last == .unheard(cause: .clear, changed: ["QUERY_ROOT.trips", "Trip:1.__typename", "Trip:1.id", "Trip:1.name",
                                                                         "Trip:2.__typename", "Trip:2.id", "Trip:2.name"]))
        #expect(fake.requestCount == 0)
        #expect(watch.emissions == 1)
        watch.cancel()
    }

    /// Apollo iOS: after the clear the watcher keeps its dependent keys, so a later write
    /// of one (`Trip:2.name`) re-reads, the read fails, and a cache-first watcher refetches
    /// (`refetchOnFailedUpdates`); the view then shows what the network answered.
    @Test func apolloIOSWatchersRefetchWhenAFieldTheyShowedIsWrittenAfterAClear() async throws {
        let (client, fake, _, events, watch) = try watchTripList(.apolloIOS, filled: true)
        try client.cache.clear()
        await client.settle()
        #expect(fake.requestCount == 0)
        try client.cache.write(record: "Trip:2", fields: ["name": "Faro"])
        await client.settle()
        #expect(fake.requestCount == 1)
        #expect(events.causes == [.initial, .refetch])
        #expect(events.emissions.last?.data == .object(ClientTesting.tripsData([("1", "Lisboa"), ("2", "Porto")])))
        watch.cancel()
    }

    /// Apollo Client: `cache.reset()` broadcasts to every watch; a cache-first one refetches.
    @Test func apolloClientWatchersHearAClearAndRefetch() async throws {
        let (client, fake, _, events, watch) = try watchTripList(.apolloClient, filled: true)
        try client.cache.clear()
        await client.settle()
        #expect(fake.requestCount == 1)
        #expect(events.causes == [.initial, .refetch])
        #expect(events.emissions.last?.data == .object(ClientTesting.tripsData([("1", "Lisboa"), ("2", "Porto")])))
        watch.cancel()
    }

    // MARK: an item of a watched list evicted

    /// Apollo iOS: the eviction is not told; the next change the watcher hears reads a miss
    /// (the gone trip), and a cache-first watcher refetches (`refetchOnFailedUpdates`).
    @Test func apolloIOSAnEvictedItemIsAMissAtTheNextChange() async throws {
        let (client, fake, _, events, watch) = try watchTripList(.apolloIOS, filled: true)
        try client.cache.evict("Trip:1")
        await client.settle()
        #expect(events.entries.last == .unheard(cause: .evict, changed: ["Trip:1.__typename", "Trip:1.id", "Trip:1.name"]))
        #expect(fake.requestCount == 0)
        try client.cache.write(record: "Trip:2", fields: ["name": "Oporto"])
        await client.settle()
        #expect(fake.requestCount == 1, "the read missed Trip:1: the watcher refetched")
        #expect(events.causes == [.initial, .refetch])
        #expect(events.emissions.last?.data == .object(ClientTesting.tripsData([("1", "Lisboa"), ("2", "Porto")])))
        watch.cancel()
    }

    /// Apollo Client: the list leaves the evicted trip out and the watcher shows the rest.
    @Test func apolloClientAnEvictedItemIsLeftOut() async throws {
        let (client, fake, _, events, watch) = try watchTripList(.apolloClient, filled: true)
        try client.cache.evict("Trip:1")
        await client.settle()
        #expect(events.causes == [.initial, .evict])
        #expect(events.emissions.last?.data == .object(ClientTesting.tripsData([("2", "Porto")])))
        #expect(fake.requestCount == 0)
        watch.cancel()
    }

    /// A cache-first fetch of the list goes to the network under Apollo iOS, and answers
    /// from the cache under Apollo Client.
    @Test(arguments: Semantics.allCases) func aFetchOfAListWithAnEvictedItem(semantics: Semantics) async throws {
        let (client, fake, tripList) = try setUp(semantics)
        try fill(client, tripList, lisbonPorto)
        try client.cache.evict("Trip:1")
        let result = try await client.fetch(tripList, from: fake)
        switch semantics {
        case .apolloIOS:
            #expect(result.source == .network)
            #expect(fake.requestCount == 1)
        case .apolloClient:
            #expect(result.source == .cache)
            #expect(result.data == .object(ClientTesting.tripsData([("2", "Porto")])))
            #expect(fake.requestCount == 0)
        }
    }
}
