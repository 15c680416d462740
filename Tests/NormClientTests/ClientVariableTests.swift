import Foundation
import NormCache
import NormClient
import Testing

/// The client coerces variables to their declared types before it reads, sends or
/// watches: the server gets the values the cache keys hold, and refused ones go nowhere.
@Suite struct ClientVariableTests {
    private func setUp() throws -> (Client, FakeTransport, trip: CompiledOperation) {
        let client = Client(cache: NormalizedCache())
        let fake = FakeTransport(name: "trips", handler: ClientTesting.tripServer(["2": "Porto"]))
        return (client, fake, try client.cache.operation(ClientTesting.tripDetail))
    }

    @Test func theRequestCarriesTheCoercedVariables() async throws {
        let (client, fake, trip) = try setUp()
        // An ID given as an integer is sent, and keyed, as its string; undeclared variables stay home.
        let result = try await client.fetch(trip, variables: ["id": 2, "unused": true], from: fake)
        #expect(fake.requests.map(\.variables) == [["id": "2"]])
        #expect(result.data?["trip"]?["name"] == "Porto")
        let again = try await client.fetch(trip, variables: ["id": "2"], from: fake)
        #expect(again.source == .cache)
    }

    @Test func refusedVariablesAreAnErrorThatSendsNothing() async throws {
        let (client, fake, trip) = try setUp()
        for (variables, message) in [
            (CacheObject(), "variable $id of type ID! was not given"),
            (["id": 2.5], "variable $id of type ID! cannot be 2.5 (a float)"),
        ] as [(CacheObject, String)] {
            await #expect(throws: ClientError.self) { try await client.fetch(trip, variables: variables, policy: .networkOnly, from: fake) }
            do { _ = try await client.fetch(trip, variables: variables, from: fake) } catch {
                guard case .cache(.variable(let error)) = error else { Issue.record("not a variable error: \(error)"); continue }
                #expect(error.description == message)
            }
        }
        #expect(fake.requestCount == 0)
    }

    @Test func watchesCoerceTheirVariablesAndRefuseBadNewOnes() async throws {
        let (client, fake, trip) = try setUp()
        #expect(throws: ClientError.self) { try client.watch(trip, from: fake) { _, _ in } }
        let events = WatchEvents()
        let watch = try client.watch(trip, variables: ["id": 2], from: fake, onEvent: events.callback)
        await client.settle()
        #expect(watch.variables == ["id": "2"])
        #expect(throws: ClientError.self) { try watch.setVariables(["id": nil]) }
        #expect(watch.variables == ["id": "2"])
        await client.settle()
        #expect(fake.requests.map(\.variables) == [["id": "2"]])
        #expect(events.emissions.map(\.number) == [1])
        watch.cancel()
    }
}
