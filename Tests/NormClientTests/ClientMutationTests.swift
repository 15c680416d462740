import Foundation
import NormCache
import NormClient
import Testing

/// Mutations: always sent, written under `MUTATION_ROOT`, updating watched entities, and
/// optimistic data that the server's answer replaces or a failure rolls back.
@Suite struct ClientMutationTests {
    /// A client whose cache holds Trip:1 "Lisbon" (fetched through `Trip`), a fake server,
    /// and the two operations.
    private func setUp() async throws -> (Client, FakeTransport, trip: CompiledOperation, rename: CompiledOperation) {
        let client = Client(cache: NormalizedCache())
        let fake = FakeTransport(name: "trips", handler: ClientTesting.tripServer(["1": "Lisbon", "2": "Porto"]))
        let trip = try client.cache.operation(ClientTesting.tripDetail)
        let rename = try client.cache.operation(ClientTesting.rename)
        try await client.fetch(trip, variables: ["id": "1"], from: fake)
        return (client, fake, trip, rename)
    }

    private func optimisticRename(_ id: String, _ name: String) -> CacheObject {
        ["renameTrip": ClientTesting.trip(id: id, name: name)]
    }

    @Test func theResultIsWrittenUnderMutationRoot() async throws {
        let (client, fake, _, rename) = try await setUp()
        let result = try await client.fetch(rename, variables: ["id": "1", "name": "Lisboa"], from: fake)
        #expect(result.source == .network)
        #expect(result.operationName == "Rename")
        #expect(result.data?["renameTrip"]?["name"] == "Lisboa")
        let root = try #require(client.cache.record("MUTATION_ROOT"))
        #expect(root["renameTrip(id:1,name:Lisboa)"] == .reference("Trip:1"))
        #expect(client.cache.record("Trip:1")?["name"] == "Lisboa")
        #expect(client.cache.record("QUERY_ROOT")?["renameTrip(id:1,name:Lisboa)"] == nil)
        let request = try #require(fake.requests.last)
        #expect(request.document == rename.networkDocument)
        #expect(request.operationName == "Rename")
        #expect(request.variables == ["id": "1", "name": "Lisboa"])
    }

    @Test func aWatcherOfTheEntityEmitsTheMutatedField() async throws {
        let (client, fake, trip, rename) = try await setUp()
        let events = WatchEvents()
        let watch = try client.watch(trip, variables: ["id": "1"], from: fake, onEvent: events.callback)
        await client.settle()
        #expect(events.causes == [.initial])
        try await client.fetch(rename, variables: ["id": "1", "name": "Lisboa"], from: fake)
        await client.settle()
        #expect(events.causes == [.initial, .write])
        #expect(events.emissions.last?.number == 2)
        #expect(events.emissions.last?.data?["trip"]?["name"] == "Lisboa")
        // A mutation of another trip does not touch this watcher.
        try await client.fetch(rename, variables: ["id": "2", "name": "Oporto"], from: fake)
        await client.settle()
        #expect(events.count == 2)
        watch.cancel()
    }

    @Test(arguments: [FetchPolicy.cacheFirst, .cacheOnly, .cacheAndNetwork, .networkOnly])
    func aMutationGoesToTheNetworkWhateverThePolicy(policy: FetchPolicy) async throws {
        let (client, fake, _, rename) = try await setUp()
        let variables: CacheObject = ["id": "1", "name": "Lisboa"]
        let before = fake.requestCount
        var early: [ClientResult] = []
        let first = try await client.fetch(rename, variables: variables, policy: policy, from: fake) { early.append($0) }
        // The same mutation again: its result is in the cache now, and still it is sent.
        let second = try await client.fetch(rename, variables: variables, policy: policy, from: fake) { early.append($0) }
        #expect(first.source == .network)
        #expect(second.source == .network)
        #expect(early.isEmpty, "a mutation never answers from the cache")
        #expect(fake.requestCount == before + 2)
        #expect(client.cache.record("MUTATION_ROOT")?["renameTrip(id:1,name:Lisboa)"] == .reference("Trip:1"))
    }

    @Test func aNoCacheMutationIsSentButNotWritten() async throws {
        let (client, fake, _, rename) = try await setUp()
        let keys = client.cache.keys()
        let result = try await client.fetch(rename, variables: ["id": "1", "name": "Lisboa"], policy: .noCache, from: fake)
        #expect(result.data?["renameTrip"]?["name"] == "Lisboa")
        #expect(client.cache.record("MUTATION_ROOT") == nil)
        #expect(client.cache.record("Trip:1")?["name"] == "Lisbon")
        #expect(client.cache.keys() == keys)
    }

    /// The "refetch after mutation" rule: creating an object does not put it in a list.
    @Test func aCreatedObjectDoesNotJoinAWatchedListUntilRefetched() async throws {
        let client = Client(cache: NormalizedCache())
        let fake = FakeTransport(name: "trips")
        let tripList = try client.cache.operation(ClientTesting.tripList)
        let create = try client.cache.operation("mutation Create($name: String!) { createTrip(name: $name) { id name } }")
        fake.respond(to: "TripList", with: ClientTesting.tripsResponse([("1", "Lisbon")]))
        let events = WatchEvents()
        let watch = try client.watch(tripList, from: fake, onEvent: events.callback)
        await client.settle()
        #expect(events.count == 1)
        fake.respond(to: "Create", with: ["data": ["createTrip": ClientTesting.trip(id: "3", name: "Faro")]])
        try await client.fetch(create, variables: ["name": "Faro"], from: fake)
        #expect(client.cache.record("Trip:3")?["name"] == "Faro")
        await client.settle()
        #expect(events.count == 1, "the list did not change, so its watcher does not emit")
        fake.respond(to: "TripList", with: ClientTesting.tripsResponse([("1", "Lisbon"), ("3", "Faro")]))
        try await watch.refetch()
        await client.settle()
        #expect(events.causes == [.write, .refetch])
        #expect(events.emissions.last?.data == .object(ClientTesting.tripsData([("1", "Lisbon"), ("3", "Faro")])))
        watch.cancel()
    }

    // MARK: optimistic

    @Test func optimisticDataIsVisibleBeforeTheServerAnswersThenReplacedByIt() async throws {
        let (client, fake, trip, rename) = try await setUp()
        let events = WatchEvents()
        let watch = try client.watch(trip, variables: ["id": "1"], from: fake, onEvent: events.callback)
        await client.settle()
        fake.hold()
        let mutation = ClientTesting.startFetch(client, rename, variables: ["id": "1", "name": "Lisboa"],
                                                optimistic: optimisticRename("1", "Lisboa (saving)"), from: fake)
        #expect(await fake.waitUntil { $0.waiting == 1 })
        #expect(client.cache.record("Trip:1")?["name"] == "Lisboa (saving)")
        #expect(client.cache.statistics.layers == 1)
        await client.settle()
        #expect(events.causes == [.initial, .optimistic])
        #expect(events.emissions.last?.data?["trip"]?["name"] == "Lisboa (saving)")
        fake.release()
        let result = try await mutation.value.get()
        #expect(result.data?["renameTrip"]?["name"] == "Lisboa")
        #expect(client.cache.statistics.layers == 0)
        #expect(client.cache.record("Trip:1")?["name"] == "Lisboa")
        #expect(client.cache.record("MUTATION_ROOT")?["renameTrip(id:1,name:Lisboa)"] == .reference("Trip:1"))
        await client.settle()
        #expect(events.causes == [.initial, .optimistic, .write])
        #expect(events.emissions.last?.data?["trip"]?["name"] == "Lisboa")
        watch.cancel()
    }

    @Test func optimisticDataIsRolledBackWhenTheTransportFails() async throws {
        let (client, fake, trip, rename) = try await setUp()
        let keysBefore = client.cache.keys()
        let tripBefore = client.cache.record("Trip:1")
        let events = WatchEvents()
        let watch = try client.watch(trip, variables: ["id": "1"], from: fake, onEvent: events.callback)
        await client.settle()
        fake.hold()
        let mutation = ClientTesting.startFetch(client, rename, variables: ["id": "1", "name": "Lisboa"],
                                                optimistic: optimisticRename("1", "Lisboa (saving)"), from: fake)
        #expect(await fake.waitUntil { $0.waiting == 1 })
        #expect(client.cache.record("Trip:1")?["name"] == "Lisboa (saving)")
        fake.setHandler { _ throws(TransportError) in throw .unreachable("connection reset") }
        fake.release()
        #expect(await mutation.value == .failure(.transport(.unreachable("connection reset"))))
        await client.settle()
        #expect(events.causes == [.initial, .optimistic, .rollback])
        #expect(events.emissions.last?.data?["trip"]?["name"] == "Lisbon")
        #expect(client.cache.record("Trip:1") == tripBefore)
        #expect(client.cache.keys() == keysBefore)
        #expect(client.cache.record("MUTATION_ROOT") == nil)
        #expect(client.cache.statistics.layers == 0)
        watch.cancel()
    }

    @Test func optimisticDataIsRolledBackWhenTheResponseHasErrorsAndNoData() async throws {
        let (client, fake, trip, rename) = try await setUp()
        let keysBefore = client.cache.keys()
        let tripBefore = client.cache.record("Trip:1")
        let events = WatchEvents()
        let watch = try client.watch(trip, variables: ["id": "1"], from: fake, onEvent: events.callback)
        await client.settle()
        fake.hold()
        let mutation = ClientTesting.startFetch(client, rename, variables: ["id": "1", "name": "Lisboa"],
                                                optimistic: optimisticRename("1", "Lisboa (saving)"), from: fake)
        #expect(await fake.waitUntil { $0.waiting == 1 })
        await client.settle()
        #expect(events.causes == [.initial, .optimistic])
        let error: CacheValue = ["message": "the name is taken", "path": ["renameTrip"]]
        fake.setHandler { _ throws(TransportError) in ["data": nil, "errors": [error]] }
        fake.release()
        let result = try await mutation.value.get()       // GraphQL errors are a result, not a throw
        #expect(result.data == nil)
        #expect(result.errors == [error])
        await client.settle()
        #expect(events.causes == [.initial, .optimistic, .rollback])
        #expect(events.emissions.last?.data?["trip"]?["name"] == "Lisbon")
        #expect(client.cache.record("Trip:1") == tripBefore)
        #expect(client.cache.keys() == keysBefore)
        #expect(client.cache.statistics.layers == 0)
        watch.cancel()
    }

    @Test func anOptimisticResponseForAQueryIsRefusedAndNothingIsSent() async throws {
        let client = Client(cache: NormalizedCache())
        let fake = FakeTransport(name: "trips", handler: ClientTesting.tripServer(["1": "Lisbon"]))
        let trip = try client.cache.operation(ClientTesting.tripDetail)
        do {
            try await client.fetch(trip, variables: ["id": "1"], policy: .networkOnly,
                                   optimistic: ["trip": ClientTesting.trip(id: "1", name: "x")], from: fake)
            Issue.record("an optimistic query was accepted")
        } catch {
            guard case .invalid = error else {
                Issue.record("expected .invalid, got \(error)")
                return
            }
        }
        #expect(fake.requestCount == 0)
        #expect(client.cache.keys().isEmpty)
    }
}
