import Foundation
import NormCache
import NormClient
import Testing

/// `Client.fetch` under each fetch policy, the request it sends, and GraphQL errors.
@Suite struct ClientFetchPolicyTests {
    private let lisbonPorto: [(String, String)] = [("1", "Lisbon"), ("2", "Porto")]

    /// What a cache read of `{ trips { id name } }` returns for these trips (the stored
    /// `__typename` comes back too).
    private func readData(_ trips: [(String, String)]) -> CacheValue {
        .object(ClientTesting.tripsData(trips))
    }

    private func setUp(serverTrips: [(String, String)]? = nil) throws -> (Client, FakeTransport, CompiledOperation) {
        let client = Client(cache: NormalizedCache())
        let fake = FakeTransport(name: "trips")
        fake.respond(to: "TripList", with: ClientTesting.tripsResponse(serverTrips ?? lisbonPorto))
        return (client, fake, try client.cache.operation(ClientTesting.tripList))
    }

    // MARK: local cache mutations

    /// Whether an operation needs an endpoint is the policy's word, as applied to it: the
    /// workbench and the client's watchers ask the same question.
    @Test func onlyWhatMayReachTheNetworkNeedsAnEndpoint() throws {
        let (client, _, tripList) = try setUp()
        let local = try client.cache.operation("query LocalTrips @apollo_client_ios_localCacheMutation { trips { id name } }")
        let rename = try client.cache.operation("mutation Rename { renameTrip(id: 1, name: \"Faro\") { id } }")
        #expect(FetchPolicy.allCases.filter { $0.needsEndpoint(for: tripList) } == FetchPolicy.allCases.filter { $0 != .cacheOnly })
        #expect(FetchPolicy.allCases.allSatisfy { !$0.needsEndpoint(for: local) })
        #expect(FetchPolicy.allCases.allSatisfy { $0.needsEndpoint(for: rename) })
    }

    /// An operation marked `@apollo_client_ios_localCacheMutation` never goes to the server,
    /// whatever the policy asks: Apollo iOS only reads it from and writes it to the cache.
    /// Read whole, it answers from the cache; with fields missing, it is a cache miss.
    @Test func aLocalCacheMutationIsNeverSent() async throws {
        let (client, fake, tripList) = try setUp()
        let local = try client.cache.operation("query LocalTrips @apollo_client_ios_localCacheMutation { trips { id name } }")
        #expect(local.isLocalCacheMutation && !tripList.isLocalCacheMutation)
        for policy in [FetchPolicy.cacheFirst, .networkOnly, .cacheAndNetwork, .networkFirst] {
            await #expect(throws: ClientError.self) { try await client.fetch(local, policy: policy, from: fake) }
        }
        #expect(fake.requestCount == 0)
        try await client.fetch(tripList, from: fake)
        let read = try await client.fetch(local, policy: .networkOnly, from: fake)
        #expect(read.source == .cache && read.complete)
        #expect(read.data == readData(lisbonPorto))
        let watch = try client.watch(local, policy: .cacheAndNetwork, from: fake)
        #expect(watch.policy == .cacheOnly)
        watch.cancel()
        #expect(fake.requestCount == 1)
    }

    // MARK: cache-first

    @Test func cacheFirstMissGoesToTheNetworkAndWritesTheResult() async throws {
        let (client, fake, tripList) = try setUp()
        let result = try await client.fetch(tripList, policy: .cacheFirst, from: fake)
        #expect(result.source == .network)
        #expect(result.operationName == "TripList")
        #expect(result.data == ClientTesting.tripsResponse(lisbonPorto)["data"])
        #expect(result.errors.isEmpty)
        #expect(fake.requestCount == 1)
        #expect(client.cache.keys() == ["QUERY_ROOT", "Trip:1", "Trip:2"])
        #expect(client.cache.record("Trip:2")?["name"] == "Porto")
        #expect(client.cache.record("QUERY_ROOT")?["trips"] == [.reference("Trip:1"), .reference("Trip:2")])
    }

    @Test func cacheFirstHitComesFromTheCacheWithoutARequest() async throws {
        let (client, fake, tripList) = try setUp()
        try await client.fetch(tripList, from: fake)           // cache-first is the default
        let again = try await client.fetch(tripList, from: fake)
        #expect(again.source == .cache)
        #expect(again.complete)
        #expect(again.missing.isEmpty)
        #expect(again.data == readData(lisbonPorto))
        #expect(fake.requestCount == 1)
        #expect(client.network.requestCount == 1)
    }

    @Test func cacheFirstWithAFieldMissingGoesToTheNetwork() async throws {
        let (client, fake, tripList) = try setUp()
        let idsOnly = try client.cache.operation("query Ids { trips { id } }")
        try client.cache.write(data: ["trips": [["__typename": "Trip", "id": "1"]]], for: idsOnly)
        let result = try await client.fetch(tripList, from: fake)
        #expect(result.source == .network)
        #expect(fake.requestCount == 1)
        #expect(client.cache.record("Trip:1")?["name"] == "Lisbon")
    }

    /// The endpoint's field policy sends the detail read to the trip the list wrote: the
    /// result comes from the cache, says so, and no request goes out.
    @Test func cacheFirstFollowsTheEndpointsFieldPolicy() async throws {
        var schema = SchemaKnowledge(possibleTypes: try PossibleTypes(sdl: """
            type Trip { id: ID! name: String! }
            type Query { trips: [Trip!]! trip(id: ID!): Trip }
            """))
        schema.fieldPolicies["Query", "trip"] = ["id"]
        let client = Client(cache: NormalizedCache())
        let fake = FakeTransport(name: "trips", schema: schema)
        fake.respond(to: "TripList", with: ClientTesting.tripsResponse(lisbonPorto))
        try await client.fetch(try client.cache.operation(ClientTesting.tripList), from: fake)
        let detail = try await client.fetch(try client.cache.operation(ClientTesting.tripDetail), variables: ["id": "2"], from: fake)
        #expect(detail.source == .cache)
        #expect(detail.data?["trip"]?["name"] == "Porto")
        #expect(detail.redirects == ["QUERY_ROOT.trip(id:2) → Trip:2"])
        #expect(fake.requestCount == 1)
    }

    // MARK: cache-only

    @Test func cacheOnlyAnswersFromAFullCache() async throws {
        let (client, fake, tripList) = try setUp()
        try client.cache.write(data: ClientTesting.tripsData(lisbonPorto), for: tripList)
        let result = try await client.fetch(tripList, policy: .cacheOnly, from: fake)
        #expect(result.source == .cache)
        #expect(result.data == readData(lisbonPorto))
        #expect(fake.requestCount == 0)
        #expect(client.network.log.isEmpty)
    }

    @Test func cacheOnlyMissThrowsCacheMissNamingTheMissingFields() async throws {
        let (client, fake, tripList) = try setUp()
        do {
            let result = try await client.fetch(tripList, policy: .cacheOnly, from: fake)
            Issue.record("a cache-only miss returned \(result)")
        } catch {
            guard case .cacheMiss(let result) = error else {
                Issue.record("expected cacheMiss, got \(error)")
                return
            }
            #expect(result.missing == ["QUERY_ROOT.trips"])
            #expect(result.source == .cache)
            #expect(result.data == nil)
            #expect(!result.complete)
            #expect(error.description.contains("QUERY_ROOT.trips"))
        }
        #expect(fake.requestCount == 0)
        #expect(client.network.requestCount == 0)
    }

    @Test func cacheOnlyMissListsEachMissingRecordField() async throws {
        let (client, fake, tripList) = try setUp()
        let idsOnly = try client.cache.operation("query Ids { trips { id } }")
        try client.cache.write(data: ["trips": [["__typename": "Trip", "id": "1"], ["__typename": "Trip", "id": "2"]]], for: idsOnly)
        await #expect {
            try await client.fetch(tripList, policy: .cacheOnly, from: fake)
        } throws: { error in
            guard case ClientError.cacheMiss(let result) = error else { return false }
            return result.missing.sorted() == ["Trip:1.name", "Trip:2.name"]
        }
        #expect(fake.requestCount == 0)
    }

    // MARK: network-only

    @Test func networkOnlyAlwaysSendsAndWrites() async throws {
        let (client, fake, tripList) = try setUp(serverTrips: [("1", "Lisbon")])
        try client.cache.write(data: ClientTesting.tripsData([("1", "Old name")]), for: tripList)
        let first = try await client.fetch(tripList, policy: .networkOnly, from: fake)
        #expect(first.source == .network)
        #expect(client.cache.record("Trip:1")?["name"] == "Lisbon")
        fake.respond(to: "TripList", with: ClientTesting.tripsResponse([("1", "Lisboa")]))
        let second = try await client.fetch(tripList, policy: .networkOnly, from: fake)
        #expect(second.source == .network)
        #expect(fake.requestCount == 2)
        #expect(client.cache.record("Trip:1")?["name"] == "Lisboa")
    }

    // MARK: no-cache

    @Test func noCacheAlwaysSendsAndLeavesTheCacheUnchanged() async throws {
        let (client, fake, tripList) = try setUp()
        let first = try await client.fetch(tripList, policy: .noCache, from: fake)
        let second = try await client.fetch(tripList, policy: .noCache, from: fake)
        #expect(first.source == .network)
        #expect(second.source == .network)
        #expect(first.data == ClientTesting.tripsResponse(lisbonPorto)["data"])
        #expect(fake.requestCount == 2)
        #expect(client.cache.keys().isEmpty)
    }

    @Test func noCacheDoesNotOverwriteCachedData() async throws {
        let (client, fake, tripList) = try setUp(serverTrips: [("1", "Server name")])
        try client.cache.write(data: ClientTesting.tripsData([("1", "Cached name")]), for: tripList)
        let result = try await client.fetch(tripList, policy: .noCache, from: fake)
        #expect(result.data?["trips"] == [ClientTesting.trip(id: "1", name: "Server name")])
        #expect(client.cache.record("Trip:1")?["name"] == "Cached name")
        #expect(fake.requestCount == 1)
    }

    // MARK: cache-and-network

    @Test func cacheAndNetworkWithAFullCacheGivesTheCacheResultThenTheNetworks() async throws {
        let (client, fake, tripList) = try setUp(serverTrips: [("1", "Lisboa"), ("2", "Porto")])
        try client.cache.write(data: ClientTesting.tripsData(lisbonPorto), for: tripList)
        var early: [ClientResult] = []
        let result = try await client.fetch(tripList, policy: .cacheAndNetwork, from: fake) { early.append($0) }
        #expect(early.count == 1)
        #expect(early.first?.source == .cache)
        #expect(early.first?.data == readData(lisbonPorto))
        #expect(result.source == .network)
        #expect(result.data?["trips"]?.listFirstName == "Lisboa")
        #expect(fake.requestCount == 1)
        #expect(client.cache.record("Trip:1")?["name"] == "Lisboa")
    }

    @Test func cacheAndNetworkWithAnEmptyCacheGivesOnlyTheNetworkResult() async throws {
        let (client, fake, tripList) = try setUp()
        var early: [ClientResult] = []
        let result = try await client.fetch(tripList, policy: .cacheAndNetwork, from: fake) { early.append($0) }
        #expect(early.isEmpty)
        #expect(result.source == .network)
        #expect(fake.requestCount == 1)
        #expect(client.cache.record("Trip:1")?["name"] == "Lisbon")
    }

    @Test func cacheAndNetworkWithAPartialCacheGivesOnlyTheNetworkResult() async throws {
        let (client, fake, tripList) = try setUp()
        let idsOnly = try client.cache.operation("query Ids { trips { id } }")
        try client.cache.write(data: ["trips": [["__typename": "Trip", "id": "1"]]], for: idsOnly)
        var early: [ClientResult] = []
        let result = try await client.fetch(tripList, policy: .cacheAndNetwork, from: fake) { early.append($0) }
        #expect(early.isEmpty)
        #expect(result.source == .network)
        #expect(fake.requestCount == 1)
    }

    // MARK: policy names

    @Test(arguments: [
        ("cache-first", FetchPolicy.cacheFirst), ("returnCacheDataElseFetch", .cacheFirst),
        ("cache-only", .cacheOnly), ("returnCacheDataDontFetch", .cacheOnly),
        ("network-only", .networkOnly), ("fetchIgnoringCacheData", .networkOnly),
        ("no-cache", .noCache), ("fetchIgnoringCacheCompletely", .noCache),
        ("cache-and-network", .cacheAndNetwork), ("returnCacheDataAndFetch", .cacheAndNetwork),
    ])
    func policyNamesParse(name: String, policy: FetchPolicy) {
        #expect(FetchPolicy(name: name) == policy)
    }

    @Test func unknownPolicyNamesDoNotParse() {
        for name in ["", "CacheFirst", "Cache-First", "cache_first", "returncachedataelsefetch", "network-and-cache", "fetch"] {
            #expect(FetchPolicy(name: name) == nil, "\(name)")
        }
    }

    @Test func eachPolicyRoundTripsThroughEveryName() {
        for policy in FetchPolicy.allCases {
            for name in policy.names { #expect(FetchPolicy(name: name) == policy) }
        }
        #expect(FetchPolicy.cacheAndNetwork.name == "cache-and-network")
        #expect(FetchPolicy.cacheOnly.apolloIOS1Name == "returnCacheDataDontFetch")
        // Apollo iOS 2.x's names.
        #expect(FetchPolicy(name: "cacheFirst") == .cacheFirst)
        #expect(FetchPolicy(name: "cacheOnly") == .cacheOnly)
        #expect(FetchPolicy(name: "networkOnly") == .networkOnly)
        #expect(FetchPolicy(name: "cacheAndNetwork") == .cacheAndNetwork)
        #expect(FetchPolicy(name: "networkFirst") == .networkFirst)
        #expect(FetchPolicy(name: "cache-first ") == nil)
        #expect(Set(FetchPolicy.names).count == 16)
    }

    /// network-first (Apollo iOS 2.x): the network; with no response, the cache's whole answer.
    @Test func networkFirstFallsBackToTheCacheWhenNoResponseComes() async throws {
        let client = Client(cache: NormalizedCache())
        let fake = FakeTransport(name: "trips", handler: ClientTesting.tripServer(["1": "Lisboa"]))
        let trip = try client.cache.operation(ClientTesting.tripDetail)
        let fresh = try await client.fetch(trip, variables: ["id": "1"], policy: .networkFirst, from: fake)
        #expect(fresh.source == .network)
        client.network.isOffline = true
        let fallback = try await client.fetch(trip, variables: ["id": "1"], policy: .networkFirst, from: fake)
        #expect(fallback.source == .cache)
        #expect(fallback.data == fresh.data)
        // With nothing whole in the cache, the failure stands, naming what was missing.
        await #expect(throws: ClientError.transport(.offline)) {
            try await client.fetch(trip, variables: ["id": "2"], policy: .networkFirst, from: fake)
        }
    }

    // MARK: the request sent

    @Test func theRequestCarriesTheNetworkDocumentTheOperationNameAndTheVariables() async throws {
        let client = Client(cache: NormalizedCache())
        let fake = FakeTransport(name: "trips", handler: ClientTesting.tripServer(["7": "Sintra"]))
        let trip = try client.cache.operation(ClientTesting.tripDetail)
        let result = try await client.fetch(trip, variables: ["id": "7"], from: fake)
        #expect(result.data?["trip"]?["name"] == "Sintra")
        let request = try #require(fake.requests.first)
        #expect(fake.requestCount == 1)
        #expect(request.document == trip.networkDocument)
        #expect(request.document == "query Trip($id: ID!) { trip(id: $id) { __typename id name } }")
        #expect(request.operationName == "Trip")
        #expect(request.variables == ["id": "7"])
        #expect(client.cache.record("QUERY_ROOT")?["trip(id:7)"] == .reference("Trip:7"))
    }

    @Test func anAnonymousOperationIsSentWithoutAName() async throws {
        let client = Client(cache: NormalizedCache())
        let fake = FakeTransport(name: "trips")
        fake.respond(to: nil, with: ClientTesting.tripsResponse([("1", "Lisbon")]))
        let anonymous = try client.cache.operation("{ trips { id name } }")
        let result = try await client.fetch(anonymous, from: fake)
        #expect(result.operationName == nil)
        let request = try #require(fake.requests.first)
        #expect(request.operationName == nil)
        #expect(request.document == "{ trips { __typename id name } }")
        #expect(request.variables.isEmpty)
        #expect(client.network.log.first?.operation == nil)
    }

    // MARK: errors

    @Test func graphQLErrorsAreReturnedNotThrownAndPartialDataIsWritten() async throws {
        let client = Client(cache: NormalizedCache())
        let fake = FakeTransport(name: "trips")
        let error: CacheValue = ["message": "weather is down", "path": ["weather"]]
        fake.respond(to: "TripAndWeather", with: [
            "data": ["trip": ClientTesting.trip(id: "1", name: "Lisbon"), "weather": nil],
            "errors": [error],
        ])
        let operation = try client.cache.operation(#"query TripAndWeather { trip(id: "1") { id name } weather }"#)
        let result = try await client.fetch(operation, from: fake)
        #expect(result.source == .network)
        #expect(result.errors == [error])
        #expect(result.data?["trip"]?["name"] == "Lisbon")
        #expect(client.cache.record("Trip:1")?["name"] == "Lisbon")
        #expect(client.cache.record("QUERY_ROOT")?["trip(id:1)"] == .reference("Trip:1"))
    }

    @Test func graphQLErrorsWithFieldsLeftOutOfTheDataStillWriteWhatCame() async throws {
        let client = Client(cache: NormalizedCache())
        let fake = FakeTransport(name: "trips")
        fake.respond(to: "TripAndWeather", with: [
            "data": ["trip": ClientTesting.trip(id: "1", name: "Lisbon")],
            "errors": [["message": "weather is down"]],
        ])
        let operation = try client.cache.operation(#"query TripAndWeather { trip(id: "1") { id name } weather }"#)
        let result = try await client.fetch(operation, from: fake)
        #expect(result.errors.count == 1)
        #expect(client.cache.record("Trip:1")?["name"] == "Lisbon")
        #expect(client.cache.record("QUERY_ROOT")?["weather"] == nil)
    }

    /// `{"data": null, "errors": [...]}`: the result has no data (nil, not a JSON null).
    @Test func aResponseWithNullDataHasNoData() async throws {
        let (client, fake, tripList) = try setUp()
        let error: CacheValue = ["message": "trips are down"]
        fake.respond(to: "TripList", with: ["data": .null, "errors": [error]])
        let result = try await client.fetch(tripList, policy: .networkOnly, from: fake)
        #expect(result.data == nil, "data is \(String(describing: result.data))")
        #expect(result.errors == [error])
        #expect(client.cache.keys().isEmpty)
    }

    @Test func aTransportFailureIsThrown() async throws {
        let (client, fake, tripList) = try setUp()
        fake.fail("TripList", with: .http(status: 503, body: "busy"))
        await #expect(throws: ClientError.transport(.http(status: 503, body: "busy"))) {
            try await client.fetch(tripList, from: fake)
        }
        #expect(client.cache.keys().isEmpty)
        #expect(client.network.log.map(\.status) == ["error"])
    }

    @Test func anOfflineNetworkFailsEveryPolicyThatSends() async throws {
        let (client, fake, tripList) = try setUp()
        client.network.isOffline = true
        for policy in [FetchPolicy.cacheFirst, .networkOnly, .noCache, .cacheAndNetwork] {
            await #expect(throws: ClientError.transport(.offline), "\(policy)") {
                try await client.fetch(tripList, policy: policy, from: fake)
            }
        }
        #expect(fake.requestCount == 0)
        #expect(client.network.log.map(\.status) == ["offline", "offline", "offline", "offline"])
    }
}

extension CacheValue {
    /// The `name` of a list's first item.
    var listFirstName: CacheValue? {
        if case .list(let items) = self { return items.first?["name"] }
        return nil
    }
}
