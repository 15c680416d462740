import Foundation   // as an app's files do: nothing of the client clashes with it
import NormClient
import Testing

/// The client as an app that adds the `NormClient` product uses it: this target imports
/// NormClient alone (the engine's types come re-exported with it), without `@testable`,
/// and writes its own transport, so it fails to build when the public surface stops
/// sufficing.
@Suite struct LibraryUserTests {
    /// An endpoint as an app might write one: it answers `Trip(id:)` from a table.
    struct TripServer: Transport {
        let names: [String: String]
        var name: String { "trips" }

        func send(_ request: GraphQLRequest) async throws(TransportError) -> CacheValue {
            guard case .string(let id)? = request.variables["id"], let name = names[id] else {
                return ["data": ["trip": nil]]
            }
            return ["data": ["trip": ["__typename": "Trip", "id": CacheValue(id), "name": CacheValue(name)]]]
        }

        func schema() async throws(TransportError) -> String { "type Query { trip(id: ID!): Trip } type Trip { id: ID! name: String }" }
    }

    static let tripDetail = "query Trip($id: ID!) { trip(id: $id) { id name } }"

    @Test func aCacheOnlyReadNeedsNothingButACache() async throws {
        let client = Client()
        let trip = try client.cache.operation(Self.tripDetail)
        let tripID = 7
        try client.cache.write(data: ["trip": ["__typename": "Trip", "id": "7", "name": "Faro"]], for: trip, variables: ["id": CacheValue(tripID)])
        let result = try await client.fetch(trip, variables: ["id": CacheValue(tripID)], policy: .cacheOnly)
        #expect(result.source == .cache)
        #expect(result.data?["trip"]?["name"] == "Faro")
    }

    @Test func fetchesAndWatchesGoToTheClientsEndpoint() async throws {
        let client = Client(cache: NormalizedCache(), endpoint: TripServer(names: ["1": "Lisbon"]))
        let trip = try client.cache.operation(Self.tripDetail)
        let names = Names()
        let watch = try client.watch(trip, variables: ["id": "1"]) { _, event in
            if case .emission(_, let emission) = event { names.append(emission.result.data?["trip"]?["name"]) }
        }
        await client.settle()
        try client.cache.write(record: "Trip:1", fields: ["name": "Lisboa"])
        await client.settle()
        #expect(names.values == ["Lisbon", "Lisboa"])
        #expect(try await client.fetch(trip, variables: ["id": "1"]).source == .cache)
        #expect(client.network.requestCount == 1)
        watch.cancel()
    }

    final class Names: @unchecked Sendable {
        private let lock = NSLock()
        private var _values: [CacheValue?] = []
        var values: [CacheValue?] { lock.withLock { _values } }
        func append(_ value: CacheValue?) { lock.withLock { _values.append(value) } }
    }
}
