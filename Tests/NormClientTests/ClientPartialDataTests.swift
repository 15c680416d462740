import Foundation
import NormAPI
import NormCache
import NormClient
import Testing
import TripsAPI

/// `returnPartialData` (issue 37): an operation or a watcher the cache cannot answer whole
/// gets what the cache holds, nulls in the holes and an error each, as Apollo Client's
/// option and Apollo Kotlin's partial reads answer; a policy that fetches still fetches.
@Suite struct ClientPartialDataTests {
    private func setUp() throws -> (Client, FakeTransport, CompiledOperation) {
        let client = Client(cache: NormalizedCache())
        let fake = FakeTransport(name: "trips", handler: ClientTesting.tripServer(["1": "Lisbon", "2": "Porto"]))
        let tripList = try client.cache.operation(ClientTesting.tripList)
        try client.cache.write(data: ClientTesting.tripsData([("1", "Lisbon"), ("2", "Porto")]), for: tripList)
        try client.cache.evict("Trip:2", field: "name")
        return (client, fake, tripList)
    }

    @Test func cacheOnlyReturnsThePartialDataInsteadOfAMiss() async throws {
        let (client, fake, tripList) = try setUp()
        await #expect(throws: ClientError.self) { try await client.fetch(tripList, policy: .cacheOnly, from: fake) }
        let result = try await client.fetch(tripList, policy: .cacheOnly, returnPartialData: true, from: fake)
        #expect(result.source == .cache && !result.complete && result.missing == ["Trip:2.name"])
        guard case .list(let trips)? = result.data?["trips"], case .object(let second) = trips[1] else { Issue.record("\(result)"); return }
        #expect(second["name"] == .null && second["id"] == "2")
        #expect(result.errors.count == 1 && result.errors[0]["path"] == ["trips", 1, "name"])
        #expect(fake.requestCount == 0)
    }

    @Test func cacheFirstHandsThePartialDataFirstThenFetches() async throws {
        let (client, fake, tripList) = try setUp()
        var first: ClientResult?
        let result = try await client.fetch(tripList, returnPartialData: true, from: fake) { first = $0 }
        #expect(first?.missing == ["Trip:2.name"] && first?.source == .cache)
        #expect(result.source == .network && result.complete)
        #expect(fake.requestCount == 1)
    }

    @Test func aWatcherShowsThePartialDataThenWhatTheFetchBrings() async throws {
        let (client, fake, tripList) = try setUp()
        let events = WatchEvents()
        let watch = try client.watch(tripList, returnPartialData: true, from: fake, onEvent: events.callback)
        await client.settle()
        #expect(events.emissions.map(\.missing) == [["Trip:2.name"], []])
        #expect(fake.requestCount == 1)
        #expect(watch.returnsPartialData)
        watch.cancel()
    }

    @Test func typedDataDecodesWhenItsTypeAllowsTheNullsElseSaysWhatIsMissing() async throws {
        let fake = FakeTransport(name: "trips")
        let client = Client(cache: NormalizedCache())
        fake.respond(to: "TripList", with: ["data": ["trips": [["__typename": "Trip", "id": "1", "name": "Lisbon"]]]])
        _ = try await client.fetch(TripListQuery(), from: fake)
        // trip(id:) is optional: a null in its place decodes.
        let detail = try await client.fetch(TripDetailQuery(id: "3"), policy: .cacheOnly, returnPartialData: true, from: fake)
        #expect(detail.data != nil && detail.data?.trip == nil && detail.missing == [#"QUERY_ROOT.trip(id:3)"#])
        // name is String!: a null there cannot decode, so the result says what is missing instead.
        try client.cache.evict("Trip:1", field: "name")
        let list = try await client.fetch(TripListQuery(), policy: .cacheOnly, returnPartialData: true, from: fake)
        #expect(list.data == nil && list.missing == ["Trip:1.name"])
    }
}
