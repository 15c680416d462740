import NormCache
import NormClient
import Testing

/// `Client.endpoint`: where an operation goes when its call names no transport, and what
/// a call that needs the network does without any.
@Suite struct ClientEndpointTests {
    private let lisbonPorto: [(String, String)] = [("1", "Lisbon"), ("2", "Porto")]

    @Test func aClientMadeWithAnEndpointFetchesWithoutFrom() async throws {
        let fake = FakeTransport(name: "trips", handler: ClientTesting.tripServer(["1": "Lisbon"]))
        let client = Client(endpoint: fake)
        let trip = try client.cache.operation(ClientTesting.tripDetail)
        #expect(try await client.fetch(trip, variables: ["id": "1"]).source == .network)
        #expect(try await client.fetch(trip, variables: ["id": "1"]).source == .cache)
        #expect(fake.requestCount == 1)
        #expect(client.network.log.map(\.endpoint) == ["trips"])
    }

    @Test func fromSendsOneOperationElsewhere() async throws {
        let main = FakeTransport(name: "main", handler: ClientTesting.tripServer(["1": "Lisbon"]))
        let staging = FakeTransport(name: "staging", handler: ClientTesting.tripServer(["1": "Lisboa"]))
        let client = Client(endpoint: main)
        let trip = try client.cache.operation(ClientTesting.tripDetail)
        let result = try await client.fetch(trip, variables: ["id": "1"], policy: .networkOnly, from: staging)
        #expect(result.data?["trip"]?["name"] == "Lisboa")
        #expect(main.requestCount == 0)
        #expect(staging.requestCount == 1)
        client.endpoint = staging
        #expect(try await client.fetch(trip, variables: ["id": "1"], policy: .networkOnly).data?["trip"]?["name"] == "Lisboa")
        #expect(staging.requestCount == 2)
    }

    @Test func cacheOnlyNeedsNoEndpoint() async throws {
        let client = Client()
        let tripList = try client.cache.operation(ClientTesting.tripList)
        try client.cache.write(data: ClientTesting.tripsData(lisbonPorto), for: tripList)
        let result = try await client.fetch(tripList, policy: .cacheOnly)
        #expect(result.data == .object(ClientTesting.tripsData(lisbonPorto)))
        // A cache-first fetch the cache answers needs none either.
        #expect(try await client.fetch(tripList).source == .cache)
        let events = WatchEvents()
        let watch = try client.watch(tripList, policy: .cacheOnly, onEvent: events.callback)
        #expect(watch.transport == nil)
        await client.settle()
        #expect(events.emissions.map(\.number) == [1])
        watch.cancel()
    }

    @Test func aFetchThatMustReachTheNetworkWithNoEndpointSaysSo() async throws {
        let client = Client()
        let tripList = try client.cache.operation(ClientTesting.tripList)
        do {
            _ = try await client.fetch(tripList)
            Issue.record("a cache miss with no endpoint must fail")
        } catch {
            #expect(error == .noEndpoint("query TripList"))
            #expect(error.cachedResult?.missing == ["QUERY_ROOT.trips"], "what sent it to the network")
            #expect("\(error)" == "query TripList must reach the network, but no endpoint was given (from:) and the client has none (Client.endpoint)")
        }
        let rename = try client.cache.operation(ClientTesting.rename)
        await #expect(throws: ClientError.noEndpoint("mutation Rename")) {
            try await client.fetch(rename, variables: ["id": "1", "name": "Faro"])
        }
        #expect(client.network.requestCount == 0)
    }

    @Test func aWatchThatMayFetchWithNoEndpointIsRefused() throws {
        let client = Client()
        let tripList = try client.cache.operation(ClientTesting.tripList)
        #expect(throws: ClientError.noEndpoint("query TripList")) { try client.watch(tripList) }
        #expect(client.activeWatches.isEmpty)
    }
}
