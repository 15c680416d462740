import Foundation
import NormCache
import NormClient
import Testing

/// A watcher's refetch policy (issue 37): what a change from elsewhere that reaches its
/// read does. cache-first (the default) shows the new read and refetches when the cache can
/// no longer answer; cache-only shows it and never fetches; network-only fetches instead of
/// showing it; cache-and-network shows it, then fetches.
@Suite struct ClientRefetchPolicyTests {
    private func setUp() throws -> (Client, FakeTransport, CompiledOperation) {
        let client = Client(cache: NormalizedCache())
        let fake = FakeTransport(name: "trips", handler: ClientTesting.tripServer(["1": "Lisbon", "2": "Porto"]))
        let tripList = try client.cache.operation(ClientTesting.tripList)
        try client.cache.write(data: ClientTesting.tripsData([("1", "Lisbon"), ("2", "Porto")]), for: tripList)
        return (client, fake, tripList)
    }

    @Test func networkOnlyFetchesInsteadOfShowingTheChange() async throws {
        let (client, fake, tripList) = try setUp()
        let events = WatchEvents()
        let watch = try client.watch(tripList, refetchPolicy: .networkOnly, from: fake, onEvent: events.callback)
        await client.settle()
        #expect(fake.requestCount == 0 && events.causes == [.initial])
        try client.cache.write(record: "Trip:1", fields: ["name": "Lisboa"])
        await client.settle()
        // The server still says Lisbon: the view never showed Lisboa, and its fetch's own write did not fetch again.
        #expect(fake.requestCount == 1)
        #expect(events.emissions.count == 1)
        #expect(try client.cache.record("Trip:1")?["name"] == "Lisbon")
        #expect(watch.refetchPolicy == .networkOnly)
        watch.cancel()
    }

    @Test func cacheAndNetworkShowsTheChangeThenFetches() async throws {
        let (client, fake, tripList) = try setUp()
        let events = WatchEvents()
        let watch = try client.watch(tripList, refetchPolicy: .cacheAndNetwork, from: fake, onEvent: events.callback)
        try client.cache.write(record: "Trip:1", fields: ["name": "Lisboa"])
        await client.settle()
        #expect(fake.requestCount == 1)
        #expect(events.causes == [.initial, .write, .refetch], "the change, then the server's answer")
        watch.cancel()
    }

    @Test func cacheOnlyReportsAMissInsteadOfFetching() async throws {
        let (client, fake, tripList) = try setUp()
        let events = WatchEvents()
        let watch = try client.watch(tripList, refetchPolicy: .cacheOnly, from: fake, onEvent: events.callback)
        client.cache.semantics = .apolloClient   // an eviction is heard
        try client.cache.evict("Trip:2", field: "name")
        await client.settle()
        #expect(fake.requestCount == 0)
        #expect(events.entries.last == .incomplete(cause: .evict, missing: ["Trip:2.name"]))
        watch.cancel()
    }

    @Test func cacheFirstStillRefetchesWhenTheCacheCannotAnswer() async throws {
        let (client, fake, tripList) = try setUp()
        client.cache.semantics = .apolloClient
        let events = WatchEvents()
        let watch = try client.watch(tripList, from: fake, onEvent: events.callback)
        try client.cache.write(record: "Trip:1", fields: ["name": "Lisboa"])
        await client.settle()
        #expect(fake.requestCount == 0 && events.causes == [.initial, .write])
        try client.cache.evict("Trip:2", field: "name")
        await client.settle()
        #expect(fake.requestCount == 1)
        watch.cancel()
    }

    @Test func aPolicyThatCannotRefetchIsRefusedAndOneThatFetchesNeedsAnEndpoint() throws {
        let (client, _, tripList) = try setUp()
        for policy in [FetchPolicy.noCache, .networkFirst] {
            #expect(throws: ClientError.invalid("a watcher's refetch policy is one of cache-first, cache-only, network-only, cache-and-network, not \(policy.name)")) {
                _ = try client.watch(tripList, policy: .cacheOnly, refetchPolicy: policy)
            }
        }
        #expect(throws: ClientError.noEndpoint("query TripList")) {
            _ = try client.watch(tripList, policy: .cacheOnly, refetchPolicy: .networkOnly)
        }
    }
}
