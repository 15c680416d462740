import Foundation
import NormCache
import NormClient
import Testing

/// `Client.watch`: what a watcher shows and when it fetches, under each policy, through
/// refetch, new variables, eviction, cancellation and a cache swap.
@Suite struct ClientWatchTests {
    private let lisbonPorto: [(String, String)] = [("1", "Lisbon"), ("2", "Porto")]

    private func setUp(server: [String: String] = ["1": "Lisbon", "2": "Porto"]) throws
        -> (Client, FakeTransport, tripList: CompiledOperation, trip: CompiledOperation)
    {
        let client = Client(cache: NormalizedCache())
        let fake = FakeTransport(name: "trips", handler: ClientTesting.tripServer(server))
        return (client, fake, try client.cache.operation(ClientTesting.tripList), try client.cache.operation(ClientTesting.tripDetail))
    }

    private func fill(_ client: Client, _ tripList: CompiledOperation, _ trips: [(String, String)]) throws {
        try client.cache.write(data: ClientTesting.tripsData(trips), for: tripList)
    }

    // MARK: policies

    @Test func cacheFirstOnAnEmptyCacheEmitsOnceWithTheNetworkData() async throws {
        let (client, fake, tripList, _) = try setUp()
        let events = WatchEvents()
        let watch = try client.watch(tripList, from: fake, onEvent: events.callback)
        await client.settle()
        #expect(fake.requestCount == 1)
        #expect(events.emissions.map(\.number) == [1], "the incomplete first read is not shown")
        #expect(events.emissions.first?.cause == .write)
        #expect(events.emissions.first?.data == .object(ClientTesting.tripsData(lisbonPorto)))
        #expect(events.failures.isEmpty)
        #expect(watch.emissions == 1)
        #expect(!watch.isFetching)
        #expect(watch.id > 0)
        #expect(client.watch(id: watch.id) === watch)
        #expect(client.activeWatches.map(\.id) == [watch.id])
        watch.cancel()
    }

    @Test func cacheFirstOnAFullCacheEmitsTheCacheDataAndSendsNothing() async throws {
        let (client, fake, tripList, _) = try setUp()
        try fill(client, tripList, lisbonPorto)
        let events = WatchEvents()
        let watch = try client.watch(tripList, from: fake, onEvent: events.callback)
        await client.settle()
        #expect(events.entries == [.emission(number: 1, cause: .initial, data: .object(ClientTesting.tripsData(lisbonPorto)), missing: [])])
        #expect(fake.requestCount == 0)
        #expect(client.network.requestCount == 0)
        #expect(!watch.isFetching)
        // Later writes are pushed.
        try client.cache.write(record: "Trip:2", fields: ["name": "Oporto"])
        await client.settle()   // events reach callbacks on the client's queue, after the write
        #expect(events.causes == [.initial, .write])
        #expect(events.emissions.last?.number == 2)
        watch.cancel()
    }

    /// Under Apollo iOS's semantics a cache-only watcher the cache cannot answer fails, and
    /// hears nothing until it fetches (SemanticsWatchTests has both semantics).
    @Test func cacheOnlyNeverSends() async throws {
        let (client, fake, tripList, _) = try setUp()
        let events = WatchEvents()
        let watch = try client.watch(tripList, policy: .cacheOnly, from: fake, onEvent: events.callback)
        await client.settle()
        #expect(fake.requestCount == 0)
        #expect(client.network.requestCount == 0)
        // No data to show: the watch fails, saying what is missing, instead of handing its view null.
        #expect(events.entries.map(\.isFailure) == [true])
        #expect(events.failures.first?.cachedResult?.missing == ["QUERY_ROOT.trips"])
        try fill(client, tripList, lisbonPorto)
        await client.settle()
        #expect(events.emissions.isEmpty)
        #expect(fake.requestCount == 0)
        watch.cancel()
    }

    @Test func networkOnlySendsEvenWhenTheCacheCanAnswer() async throws {
        let (client, fake, tripList, _) = try setUp(server: ["1": "Lisboa", "2": "Porto"])
        try fill(client, tripList, lisbonPorto)
        let events = WatchEvents()
        let watch = try client.watch(tripList, policy: .networkOnly, from: fake, onEvent: events.callback)
        await client.settle()
        #expect(fake.requestCount == 1)
        #expect(events.causes == [.initial, .write])
        #expect(events.emissions.first?.data == .object(ClientTesting.tripsData(lisbonPorto)))
        #expect(events.emissions.last?.data == .object(ClientTesting.tripsData([("1", "Lisboa"), ("2", "Porto")])))
        watch.cancel()
    }

    @Test func networkOnlyOnAnEmptyCacheEmitsOnceWithTheNetworkData() async throws {
        let (client, fake, tripList, _) = try setUp()
        let events = WatchEvents()
        let watch = try client.watch(tripList, policy: .networkOnly, from: fake, onEvent: events.callback)
        await client.settle()
        #expect(fake.requestCount == 1)
        #expect(events.emissions.map(\.number) == [1])
        #expect(events.emissions.first?.data == .object(ClientTesting.tripsData(lisbonPorto)))
        watch.cancel()
    }

    @Test func cacheAndNetworkEmitsTheCacheThenTheNetworkData() async throws {
        let (client, fake, tripList, _) = try setUp(server: ["1": "Lisboa", "2": "Porto"])
        try fill(client, tripList, lisbonPorto)
        let events = WatchEvents()
        let watch = try client.watch(tripList, policy: .cacheAndNetwork, from: fake, onEvent: events.callback)
        await client.settle()
        #expect(fake.requestCount == 1)
        #expect(events.causes == [.initial, .write])
        #expect(events.emissions.last?.data == .object(ClientTesting.tripsData([("1", "Lisboa"), ("2", "Porto")])))
        watch.cancel()
    }

    @Test func watchingAMutationOrWithNoCacheIsInvalid() throws {
        let (client, fake, tripList, _) = try setUp()
        let rename = try client.cache.operation(ClientTesting.rename)
        let events = WatchEvents()
        #expect {
            _ = try client.watch(rename, variables: ["id": "1", "name": "x"], from: fake, onEvent: events.callback)
        } throws: { error in
            guard case ClientError.invalid = error else { return false }
            return true
        }
        #expect {
            _ = try client.watch(tripList, policy: .noCache, from: fake, onEvent: events.callback)
        } throws: { error in
            guard case ClientError.invalid = error else { return false }
            return true
        }
        #expect(client.activeWatches.isEmpty)
        #expect(client.cache.watchers.isEmpty)
        #expect(fake.requestCount == 0)
        #expect(events.count == 0)
    }

    // MARK: refetch and variables

    @Test func refetchSendsNetworkOnlyAndEmitsWithCauseRefetch() async throws {
        let (client, fake, tripList, _) = try setUp(server: ["1": "Lisboa", "2": "Porto"])
        try fill(client, tripList, lisbonPorto)
        let events = WatchEvents()
        let watch = try client.watch(tripList, from: fake, onEvent: events.callback)
        await client.settle()
        #expect(fake.requestCount == 0)
        let result = try await watch.refetch()
        #expect(result.source == .network)
        #expect(fake.requestCount == 1, "refetch sends although the cache can answer")
        await client.settle()
        #expect(events.causes == [.initial, .refetch])
        #expect(events.emissions.last?.number == 2)
        #expect(events.emissions.last?.data == .object(ClientTesting.tripsData([("1", "Lisboa"), ("2", "Porto")])))
        #expect(!watch.isFetching)
        // Unchanged server data: sent again, nothing to show.
        try await watch.refetch()
        #expect(fake.requestCount == 2)
        await client.settle()
        #expect(events.count == 2)
        watch.cancel()
    }

    @Test func newVariablesCancelTheFetchForTheOldOnesAndShowTheNewData() async throws {
        let (client, fake, _, trip) = try setUp()
        fake.hold()
        let events = WatchEvents()
        let watch = try client.watch(trip, variables: ["id": "1"], from: fake, onEvent: events.callback)
        #expect(await fake.waitUntil { $0.waiting == 1 })
        #expect(watch.isFetching)
        try watch.setVariables(["id": "2"])
        #expect(await fake.waitUntil { $0.cancelled.count == 1 }, "the request for id 1 was cancelled")
        #expect(fake.cancelled.first?.variables == ["id": "1"])
        #expect(await fake.waitUntil { $0.waiting == 1 && $0.requestCount == 2 })
        #expect(fake.requests.last?.variables == ["id": "2"])
        fake.release()
        await client.settle()
        #expect(watch.variables == ["id": "2"])
        #expect(events.failures.isEmpty, "a cancelled fetch is not a failure")
        #expect(events.emissions.map(\.number) == [1])
        #expect(events.emissions.last?.data?["trip"]?["name"] == "Porto")
        #expect(events.emissions.last?.data?["trip"]?["id"] == "2")
        #expect(client.network.log.map(\.status).sorted() == ["cancelled", "ok"])
        #expect(client.network.log.allSatisfy { $0.operation == "Trip" })
        #expect(client.cache.record("Trip:1") == nil)
        #expect(!watch.isFetching)
        watch.cancel()
    }

    @Test func newVariablesWhoseDataIsCachedEmitAtOnceWithoutARequest() async throws {
        let (client, fake, _, trip) = try setUp()
        try client.cache.write(data: ["trip": ClientTesting.trip(id: "2", name: "Porto")], for: trip, variables: ["id": "2"])
        let events = WatchEvents()
        let watch = try client.watch(trip, variables: ["id": "1"], from: fake, onEvent: events.callback)
        await client.settle()
        #expect(fake.requestCount == 1)
        try watch.setVariables(["id": "2"])
        await client.settle()
        #expect(fake.requestCount == 1)
        #expect(events.emissions.map(\.cause) == [.write, .refetch])
        #expect(events.emissions.last?.data?["trip"]?["name"] == "Porto")
        watch.cancel()
    }

    @Test func newVariablesWhoseDataIsCachedStillCancelTheFetchForTheOldOnes() async throws {
        let (client, fake, _, trip) = try setUp()
        try client.cache.write(data: ["trip": ClientTesting.trip(id: "2", name: "Porto")], for: trip, variables: ["id": "2"])
        fake.hold()
        let events = WatchEvents()
        let watch = try client.watch(trip, variables: ["id": "1"], from: fake, onEvent: events.callback)
        #expect(await fake.waitUntil { $0.waiting == 1 })
        try watch.setVariables(["id": "2"])
        #expect(await fake.waitUntil { $0.cancelled.count == 1 }, "the request for id 1 was cancelled")
        fake.release()
        await client.settle()
        #expect(fake.requestCount == 1, "id 2 is cached: nothing more is sent")
        #expect(events.emissions.map(\.cause) == [.refetch])
        #expect(events.emissions.last?.data?["trip"]?["name"] == "Porto")
        #expect(events.failures.isEmpty)
        #expect(!watch.isFetching)
        #expect(client.cache.record("Trip:1") == nil)
        watch.cancel()
    }

    // MARK: eviction

    /// Apollo Client's semantics: watchers hear an eviction (Apollo iOS's are not told:
    /// SemanticsWatchTests).
    @Test func evictingAWatchedRecordMakesACacheFirstWatcherRefetch() async throws {
        let (client, fake, _, trip) = try setUp(server: ["1": "Lisboa"])
        client.semantics = .apolloClient
        try client.cache.write(data: ["trip": ClientTesting.trip(id: "1", name: "Lisbon")], for: trip, variables: ["id": "1"])
        let events = WatchEvents()
        let watch = try client.watch(trip, variables: ["id": "1"], from: fake, onEvent: events.callback)
        await client.settle()
        #expect(fake.requestCount == 0)
        try client.cache.evict("Trip:1")
        await client.settle()
        #expect(fake.requestCount == 1, "the watcher refetched what was evicted")
        #expect(events.causes == [.initial, .refetch], "no emission of no data between the two")
        #expect(events.emissions.last?.data == ["trip": ClientTesting.trip(id: "1", name: "Lisboa")])
        #expect(client.cache.record("Trip:1")?["name"] == "Lisboa")
        #expect(events.failures.isEmpty)
        // A refetch that brings back what the view shows already is not shown again.
        try client.cache.evict("Trip:1")
        await client.settle()
        #expect(fake.requestCount == 2)
        #expect(events.causes == [.initial, .refetch])
        watch.cancel()
    }

    /// Apollo Client's semantics: a list leaves out an evicted item, and its watcher shows
    /// the rest, cause `evict`, and fetches nothing.
    @Test func evictingAnItemOfAWatchedListShowsTheOthers() async throws {
        let (client, fake, tripList, _) = try setUp()
        client.semantics = .apolloClient
        try fill(client, tripList, lisbonPorto)
        let events = WatchEvents()
        let watch = try client.watch(tripList, from: fake, onEvent: events.callback)
        try client.cache.evict("Trip:1")
        await client.settle()
        #expect(fake.requestCount == 0)
        #expect(events.causes == [.initial, .evict])
        #expect(events.emissions.last?.data == .object(ClientTesting.tripsData([("2", "Porto")])))
        watch.cancel()
    }

    @Test func evictingDoesNotMakeACacheOnlyWatcherRefetch() async throws {
        let (client, fake, _, trip) = try setUp()
        try client.cache.write(data: ["trip": ClientTesting.trip(id: "1", name: "Lisbon")], for: trip, variables: ["id": "1"])
        let events = WatchEvents()
        let watch = try client.watch(trip, variables: ["id": "1"], policy: .cacheOnly, from: fake, onEvent: events.callback)
        try client.cache.evict("Trip:1")
        await client.settle()
        #expect(fake.requestCount == 0)
        // The view keeps its data: Apollo iOS's watcher is not told of the eviction.
        #expect(events.entries == [
            .emission(number: 1, cause: .initial, data: ["trip": ClientTesting.trip(id: "1", name: "Lisbon")], missing: []),
            .unheard(cause: .evict, changed: ["Trip:1.__typename", "Trip:1.id", "Trip:1.name"]),
        ])
        #expect(client.cache.record("Trip:1") == nil)
        watch.cancel()
    }

    // MARK: a re-read that becomes incomplete

    static let hero = "query Hero { hero { id name friends { id name } } }"

    /// Another query links the hero to a friend the cache has no name for: a watcher that
    /// may fetch refetches its query (Apollo iOS's refetchOnFailedUpdates) and never shows null.
    @Test func aReadThatBecomesIncompleteRefetches() async throws {
        let client = Client(cache: NormalizedCache())
        let friends: @Sendable ([String]) -> CacheValue = { ids in
            .list(ids.map { ["__typename": "Human", "id": .string($0), "name": .string("Human \($0)")] })
        }
        let fake = FakeTransport(name: "starwars") { _ throws(TransportError) in
            ["data": ["hero": ["__typename": "Droid", "id": "2001", "name": "R2-D2", "friends": friends(["1003", "1004", "1000"])]]]
        }
        let hero = try client.cache.operation(Self.hero)
        try client.cache.write(data: ["hero": ["__typename": "Droid", "id": "2001", "name": "R2-D2", "friends": friends(["1003"])]], for: hero)
        let events = WatchEvents()
        let watch = try client.watch(hero, from: fake, onEvent: events.callback)
        // Another query writes the friends' ids only.
        let friendIDs = try client.cache.operation("{ hero { id friends { id } } }")
        try client.cache.write(data: ["hero": ["__typename": "Droid", "id": "2001", "friends": [
            ["__typename": "Human", "id": "1003"], ["__typename": "Human", "id": "1004"], ["__typename": "Human", "id": "1000"]]]], for: friendIDs)
        await client.settle()
        #expect(fake.requestCount == 1, "the watcher refetched its query")
        #expect(events.causes == [.initial, .refetch])
        #expect(events.emissions.allSatisfy { $0.data != nil && $0.missing.isEmpty })
        #expect(events.emissions.last?.data?["hero"]?["friends"] == friends(["1003", "1004", "1000"]))
        watch.cancel()
    }

    /// A list stored as a scalar (written by a broken or older client) is a miss, not data:
    /// a cache-first watcher fetches once, shows the network's answer, and stops there.
    @Test func aValueOfTheWrongKindIsFetchedOnceAndReplaced() async throws {
        let (client, fake, tripList, _) = try setUp()
        try client.cache.write(record: "QUERY_ROOT", fields: ["trips": "broken"])
        let events = WatchEvents()
        let watch = try client.watch(tripList, from: fake, onEvent: events.callback)
        await client.settle()
        #expect(fake.requestCount == 1)
        #expect(events.emissions.map(\.data) == [.object(ClientTesting.tripsData(lisbonPorto))], "the wrong value is never shown")
        await client.settle()
        #expect(fake.requestCount == 1, "no loop")
        watch.cancel()
    }

    /// A cache-only watcher keeps its last complete data and reports the missing fields.
    @Test func aCacheOnlyReadThatBecomesIncompleteKeepsItsDataAndSaysWhatIsMissing() async throws {
        let client = Client(cache: NormalizedCache())
        let fake = FakeTransport(name: "starwars")
        let hero = try client.cache.operation(Self.hero)
        let luke: CacheValue = ["__typename": "Human", "id": "1000", "name": "Luke"]
        try client.cache.write(data: ["hero": ["__typename": "Droid", "id": "2001", "name": "R2-D2", "friends": [luke]]], for: hero)
        let events = WatchEvents()
        let watch = try client.watch(hero, policy: .cacheOnly, from: fake, onEvent: events.callback)
        let friendIDs = try client.cache.operation("{ hero { id friends { id } } }")
        try client.cache.write(data: ["hero": ["__typename": "Droid", "id": "2001", "friends": [["__typename": "Human", "id": "1004"], luke]]], for: friendIDs)
        await client.settle()
        #expect(fake.requestCount == 0)
        #expect(events.entries.count == 2)
        #expect(events.entries.last == .incomplete(cause: .write, missing: ["Human:1004.name"]))
        #expect(watch.emissions == 1)
        // Once the name arrives, the watcher shows the whole list.
        try client.cache.write(record: "Human:1004", fields: ["name": "Wedge"])
        await client.settle()
        #expect(events.emissions.last?.number == 2)
        #expect(events.emissions.last?.data?["hero"]?["friends"] == [["__typename": "Human", "id": "1004", "name": "Wedge"], luke])
        watch.cancel()
    }

    // MARK: stopping

    @Test func cancelStopsEmissions() async throws {
        let (client, fake, tripList, _) = try setUp()
        try fill(client, tripList, lisbonPorto)
        let events = WatchEvents()
        let watch = try client.watch(tripList, from: fake, onEvent: events.callback)
        await client.settle()
        #expect(events.count == 1)
        watch.cancel()
        try client.cache.write(record: "Trip:1", fields: ["name": "Lisboa"])
        try client.cache.evict("Trip:2")
        await client.settle()
        #expect(events.count == 1)
        #expect(fake.requestCount == 0)
        #expect(client.activeWatches.isEmpty)
        #expect(client.watch(id: watch.id) == nil)
        #expect(client.cache.watchers.isEmpty)
    }

    @Test func cancelStopsAFetchInFlight() async throws {
        let (client, fake, tripList, _) = try setUp()
        fake.hold()
        let events = WatchEvents()
        let watch = try client.watch(tripList, from: fake, onEvent: events.callback)
        #expect(await fake.waitUntil { $0.waiting == 1 })
        watch.cancel()
        #expect(await fake.waitUntil { $0.cancelled.count == 1 })
        fake.release()
        await client.settle()
        #expect(client.network.log.map(\.status) == ["cancelled"])
        #expect(events.count == 0)
        #expect(client.cache.keys().isEmpty)
    }

    @Test func settleWaitsForTheWatchersFetches() async throws {
        let (client, fake, tripList, trip) = try setUp()
        fake.hold()
        let listEvents = WatchEvents(), tripEvents = WatchEvents()
        let list = try client.watch(tripList, from: fake, onEvent: listEvents.callback)
        let one = try client.watch(trip, variables: ["id": "1"], from: fake, onEvent: tripEvents.callback)
        #expect(await fake.waitUntil { $0.waiting == 2 })
        #expect(list.isFetching && one.isFetching)
        #expect(listEvents.count == 0 && tripEvents.count == 0)
        fake.release()
        await client.settle()
        #expect(!list.isFetching && !one.isFetching)
        #expect(listEvents.emissions.map(\.number) == [1])
        #expect(tripEvents.emissions.first?.data?["trip"]?["name"] == "Lisbon")
        #expect(client.network.log.count == 2)
        list.cancel()
        one.cancel()
    }

    @Test func replaceCacheStopsTheWatchersAndReturnsTheirIDs() async throws {
        let (client, fake, tripList, trip) = try setUp()
        try fill(client, tripList, lisbonPorto)
        let old = client.cache
        let listEvents = WatchEvents(), tripEvents = WatchEvents()
        let list = try client.watch(tripList, from: fake, onEvent: listEvents.callback)
        let one = try client.watch(trip, variables: ["id": "1"], from: fake, onEvent: tripEvents.callback)
        await client.settle()
        #expect(list.id != one.id)
        let fresh = NormalizedCache()
        let stopped = client.replaceCache(with: fresh)
        #expect(stopped == [list.id, one.id].sorted())
        #expect(client.cache === fresh)
        #expect(client.activeWatches.isEmpty)
        #expect(old.watchers.isEmpty)
        let (listCount, tripCount) = (listEvents.count, tripEvents.count)
        try old.write(record: "Trip:1", fields: ["name": "Lisboa"])
        try client.cache.write(data: ClientTesting.tripsData([("1", "Faro")]), for: tripList)
        await client.settle()
        #expect(listEvents.count == listCount)
        #expect(tripEvents.count == tripCount)
        #expect(client.replaceCache(with: NormalizedCache()).isEmpty)
    }

    // MARK: failures

    @Test func aFailedFetchIsReportedAsAFailure() async throws {
        let client = Client(cache: NormalizedCache())
        let fake = FakeTransport(name: "trips")
        fake.fail("TripList", with: .unreachable("connection refused"))
        let tripList = try client.cache.operation(ClientTesting.tripList)
        let events = WatchEvents()
        let watch = try client.watch(tripList, from: fake, onEvent: events.callback)
        await client.settle()
        #expect(events.entries == [.failure(.transport(.unreachable("connection refused")))])
        #expect(!watch.isFetching)
        #expect(client.network.log.map(\.status) == ["error"])
        watch.cancel()
    }

    @Test func anOfflineNetworkIsReportedAsAFailure() async throws {
        let (client, fake, tripList, _) = try setUp()
        client.network.isOffline = true
        let events = WatchEvents()
        let watch = try client.watch(tripList, from: fake, onEvent: events.callback)
        await client.settle()
        #expect(events.entries == [.failure(.transport(.offline))])
        #expect(fake.requestCount == 0)
        watch.cancel()
    }

    @Test func graphQLErrorsInAWatchersFetchAreReportedAsAFailure() async throws {
        let client = Client(cache: NormalizedCache())
        let fake = FakeTransport(name: "trips")
        let error: CacheValue = ["message": "trips are down"]
        fake.respond(to: "TripList", with: ["data": nil, "errors": [error]])
        let tripList = try client.cache.operation(ClientTesting.tripList)
        let events = WatchEvents()
        let watch = try client.watch(tripList, from: fake, onEvent: events.callback)
        await client.settle()
        #expect(events.failures == [.graphQLErrors([error])])
        #expect(events.emissions.isEmpty)
        watch.cancel()
    }
}
