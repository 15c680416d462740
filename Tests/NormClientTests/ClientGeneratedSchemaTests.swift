import NormAPI
import NormCache
import NormClient
import Testing
import TripsAPI

/// An app built on generated code alone, over a transport that knows nothing of the
/// schema: the typed API runs each operation with what its generated schema says
/// (examples/TripsApp's `@typePolicy`, `@fieldPolicy` and union), as the project does.
@Suite struct ClientGeneratedSchemaTests {
    /// Trip 2, whose journey goes from a station to the airport OPO (`select` picks the
    /// airport's fields: the seed below leaves its name out).
    static func trip(airport select: KeyValuePairs<String, CacheValue> = ["code": "OPO", "name": "Porto"]) -> CacheValue {
        var airport: CacheObject = ["__typename": "Airport"]
        for (key, value) in select { airport[key] = value }
        return ["__typename": "Trip", "id": "2", "name": "Porto", "startsOn": "2026-05-01", "endsOn": .null,
                "destination": ["__typename": "Destination", "city": "Porto", "country": "PT"],
                "owner": ["__typename": "User", "id": "1", "name": "Ana"],
                "journeys": [["__typename": "Journey", "id": "7",
                              "from": ["__typename": "Station", "id": "s1", "name": "Lisboa", "platform": .null],
                              "to": .object(airport)]],
                "reservations": [["__typename": "Reservation", "id": "r1", "kind": "hotel", "confirmation": "X1"]]]
    }

    /// The fields of TripDetail for each trip, asked for as a list by a screen of its own
    /// (an untyped operation, which knows nothing of the generated schema), with these
    /// fields of an airport; or for `root` (`trip(id: "2")`).
    static func allTrips(airport: String = "code name", root: String = "trips") -> String {
        """
        query AllTrips { \(root) { id name startsOn endsOn destination { city country } owner { id name }
          journeys { id from { ... on Station { id name platform } ... on Airport { \(airport) } }
                        to { ... on Station { id name platform } ... on Airport { \(airport) } } }
          reservations { id kind confirmation } } }
        """
    }

    @Test func aTypePolicyKeysObjectsByTheirKeyFields() async throws {
        let fake = FakeTransport(name: "trips")
        fake.respond(to: "TripDetail", with: ["data": ["trip": Self.trip()]])
        let client = Client(cache: NormalizedCache())
        let result = try await client.fetch(TripDetailQuery(id: "2"), from: fake)
        #expect(result.data?.trip?.journeys.first?.to.fragments.journeyEndpointFields.asAirport?.code == "OPO")
        // Airport is keyed by its IATA code (`@typePolicy(keyFields: "code")`), not by an id it lacks.
        #expect(client.cache.keys().contains("Airport:OPO"))
        #expect(client.cache.keys(matching: "Trip:2.journeys*").isEmpty)
    }

    @Test func aFieldPolicyRedirectReadsTheRecordWithoutTheNetwork() async throws {
        let fake = FakeTransport(name: "trips")
        fake.respond(to: "AllTrips", with: ["data": ["trips": [Self.trip()]]])
        let client = Client(cache: NormalizedCache())
        _ = try await client.fetch(client.cache.operation(Self.allTrips(), name: "AllTrips"), from: fake)
        // trip(id: "2") was never fetched: `@fieldPolicy(forField: "trip", keyArgs: "id")` reads Trip:2.
        let detail = try await client.fetch(TripDetailQuery(id: "2"), policy: .cacheFirst, from: fake)
        #expect(detail.source == .cache)
        #expect(detail.data?.trip?.name == "Porto")
        #expect(fake.requests.map(\.operationName) == ["AllTrips"])
    }

    @Test func aUnionsTypeCaseInACacheReadIsDecidedByTheGeneratedPossibleTypes() async throws {
        let fake = FakeTransport(name: "trips")
        fake.respond(to: "AllTrips", with: ["data": ["trip": Self.trip(airport: ["code": "OPO"])]])
        let client = Client(cache: NormalizedCache())
        _ = try await client.fetch(client.cache.operation(Self.allTrips(airport: "code", root: #"trip(id: "2")"#), name: "AllTrips"), from: fake)
        // The union JourneyEndpoint has Airport: the fragment's `... on Airport { code name }`
        // applies to it, and the airport's name is missing (not read leniently as a type
        // condition nothing decides, which would hand the app data it cannot decode).
        do {
            _ = try await client.fetch(TripDetailQuery(id: "2"), policy: .cacheOnly, from: fake)
            Issue.record("a cache-only fetch of an airport without its name answered")
        } catch {
            #expect(error.cachedResult?.missing == ["Journey:7.to.name"])   // the untyped write keyed it by its path
        }
    }

    /// The generated schema's key fields win over the endpoint's for a typed call; an
    /// untyped call of the same endpoint keeps the endpoint's.
    @Test func theGeneratedSchemaWinsOverTheEndpointsKnowledgeForTypedCalls() async throws {
        var endpoint = SchemaKnowledge()
        endpoint.typePolicies["Airport"] = .keyFields(["name"])
        let fake = FakeTransport(name: "trips", schema: endpoint)
        fake.respond(to: "TripDetail", with: ["data": ["trip": Self.trip()]])
        fake.respond(to: "AllTrips", with: ["data": ["trips": [Self.trip()]]])
        let client = Client(cache: NormalizedCache())
        _ = try await client.fetch(TripDetailQuery(id: "2"), from: fake)
        #expect(client.cache.keys(matching: "Airport:*") == ["Airport:OPO"])
        _ = try await client.fetch(client.cache.operation(Self.allTrips(), name: "AllTrips"), from: fake)
        #expect(client.cache.keys(matching: "Airport:*") == ["Airport:OPO", "Airport:Porto"])
    }

    /// A generated schema declares no max ages: a typed call judges freshness by the
    /// endpoint's (`@cacheControl` in its schema), as an untyped call does.
    @Test func theEndpointsMaxAgesHoldForTypedCalls() async throws {
        var endpoint = SchemaKnowledge()
        endpoint.maxAges["Trip"] = .seconds(60)
        let fake = FakeTransport(name: "trips", schema: endpoint)
        fake.respond(to: "TripDetail", with: ["data": ["trip": Self.trip()]])
        let client = Client(cache: NormalizedCache())
        _ = try await client.fetch(TripDetailQuery(id: "2"), from: fake)
        #expect(try await client.fetch(TripDetailQuery(id: "2"), policy: .cacheFirst, from: fake).source == .cache)
        try client.cache.clock.advance(by: 90)
        let late = try await client.fetch(TripDetailQuery(id: "2"), policy: .cacheFirst, from: fake)
        #expect(late.source == .network, "Trip's fields are older than its max age: stale, a miss")
        #expect(fake.requests.count == 2)
    }

    /// Where the generated schema declares no pagination (TripsAPI declares none), a typed
    /// call takes the endpoint's, so it writes what `.more` and `Client.nextPage(of:)`
    /// merge, and reads it the same way.
    @Test func theEndpointsPaginationHoldsForTypedCalls() async throws {
        var endpoint = SchemaKnowledge()
        endpoint.pagination.embed("Trip", "destination")
        let fake = FakeTransport(name: "trips", schema: endpoint)
        fake.respond(to: "TripDetail", with: ["data": ["trip": Self.trip()]])
        let client = Client(cache: NormalizedCache())
        let fetched = try await client.fetch(TripDetailQuery(id: "2"), from: fake)
        #expect(fetched.data?.trip?.destination?.city == "Porto")
        #expect(client.cache.record("Trip:2.destination") == nil, "kept inline, not a path record")
        #expect(client.cache.record("Trip:2")?["destination"]?["city"] == "Porto")
        let read = try await client.fetch(TripDetailQuery(id: "2"), policy: .cacheOnly, from: fake)
        #expect(read.data?.trip?.destination?.country == "PT")
    }
}
