import Foundation
import NormCache
import NormClient
import TestSupport
import Testing

/// Identical queries in flight are sent once; the last waiter to give up cancels the request.
@Suite struct ClientDedupTests {
    private func setUp() throws -> (Client, FakeTransport) {
        let client = Client(cache: NormalizedCache())
        let fake = FakeTransport(name: "trips", handler: ClientTesting.tripServer(["1": "Lisbon", "2": "Porto"]))
        return (client, fake)
    }

    @Test func twoIdenticalConcurrentQueriesSendOneRequestAndBothGetTheData() async throws {
        let (client, fake) = try setUp()
        let trip = try client.cache.operation(ClientTesting.tripDetail)
        fake.hold()
        let first = ClientTesting.startFetch(client, trip, variables: ["id": "1"], policy: .networkOnly, from: fake)
        #expect(await fake.waitUntil { $0.waiting == 1 })
        let started = LockedBox(0)
        let second = ClientTesting.startFetch(client, trip, variables: ["id": "1"], policy: .networkOnly, from: fake, started: started)
        #expect(await ClientTesting.letJoin(started, count: 1))
        #expect(fake.requestCount == 1)
        fake.release()
        let (a, b) = (await first.value, await second.value)
        let resultA = try a.get(), resultB = try b.get()
        #expect(resultA.data?["trip"]?["name"] == "Lisbon")
        #expect(resultB.data == resultA.data)
        #expect(resultB.source == .network)
        #expect(fake.requestCount == 1)
        #expect(client.network.requestCount == 1)
        #expect(client.network.log.map(\.status) == ["ok"])
    }

    @Test func cacheFirstMissesInFlightTogetherShareOneRequest() async throws {
        let (client, fake) = try setUp()
        let trip = try client.cache.operation(ClientTesting.tripDetail)
        fake.hold()
        let started = LockedBox(0)
        let tasks = (0..<3).map { _ in
            ClientTesting.startFetch(client, trip, variables: ["id": "2"], from: fake, started: started)
        }
        #expect(await fake.waitUntil { $0.waiting == 1 })
        #expect(await ClientTesting.letJoin(started, count: 3))
        fake.release()
        for task in tasks {
            #expect(try await task.value.get().data?["trip"]?["name"] == "Porto")
        }
        #expect(fake.requestCount == 1)
    }

    @Test func differentVariablesSendTwoRequests() async throws {
        let (client, fake) = try setUp()
        let trip = try client.cache.operation(ClientTesting.tripDetail)
        fake.hold()
        let one = ClientTesting.startFetch(client, trip, variables: ["id": "1"], policy: .networkOnly, from: fake)
        let two = ClientTesting.startFetch(client, trip, variables: ["id": "2"], policy: .networkOnly, from: fake)
        #expect(await fake.waitUntil { $0.waiting == 2 })
        fake.release()
        #expect(try await one.value.get().data?["trip"]?["name"] == "Lisbon")
        #expect(try await two.value.get().data?["trip"]?["name"] == "Porto")
        #expect(fake.requestCount == 2)
        #expect(fake.requests.map(\.variables).contains(["id": "1"]))
        #expect(fake.requests.map(\.variables).contains(["id": "2"]))
    }

    @Test func theSameQueryOverTwoTransportsSendsToEach() async throws {
        let client = Client(cache: NormalizedCache())
        let east = FakeTransport(name: "east", handler: ClientTesting.tripServer(["1": "Lisbon"]))
        let west = FakeTransport(name: "west", handler: ClientTesting.tripServer(["1": "Lisbon"]))
        let trip = try client.cache.operation(ClientTesting.tripDetail)
        east.hold()
        west.hold()
        let a = ClientTesting.startFetch(client, trip, variables: ["id": "1"], policy: .networkOnly, from: east)
        let b = ClientTesting.startFetch(client, trip, variables: ["id": "1"], policy: .networkOnly, from: west)
        #expect(await east.waitUntil { $0.waiting == 1 })
        #expect(await west.waitUntil { $0.waiting == 1 })
        east.release()
        west.release()
        _ = try await a.value.get()
        _ = try await b.value.get()
        #expect(client.network.log.map(\.endpoint).sorted() == ["east", "west"])
    }

    @Test func aQueryAfterTheFirstHasFinishedIsSentAgain() async throws {
        let (client, fake) = try setUp()
        let trip = try client.cache.operation(ClientTesting.tripDetail)
        try await client.fetch(trip, variables: ["id": "1"], policy: .networkOnly, from: fake)
        try await client.fetch(trip, variables: ["id": "1"], policy: .networkOnly, from: fake)
        #expect(fake.requestCount == 2)
    }

    @Test func identicalMutationsAreNeverDeduplicated() async throws {
        let (client, fake) = try setUp()
        let rename = try client.cache.operation(ClientTesting.rename)
        let variables: CacheObject = ["id": "1", "name": "Lisboa"]
        fake.hold()
        let a = ClientTesting.startFetch(client, rename, variables: variables, from: fake)
        let b = ClientTesting.startFetch(client, rename, variables: variables, from: fake)
        #expect(await fake.waitUntil { $0.waiting == 2 }, "both mutations reach the transport while the first is in flight")
        fake.release()
        #expect(try await a.value.get().data?["renameTrip"]?["name"] == "Lisboa")
        #expect(try await b.value.get().data?["renameTrip"]?["name"] == "Lisboa")
        #expect(fake.requestCount == 2)
        #expect(client.network.requestCount == 2)
    }

    // MARK: cancellation

    @Test func cancellingOneOfTwoWaitersLeavesTheOtherServed() async throws {
        let (client, fake) = try setUp()
        let trip = try client.cache.operation(ClientTesting.tripDetail)
        fake.hold()
        let started = LockedBox(0)
        let first = ClientTesting.startFetch(client, trip, variables: ["id": "1"], policy: .networkOnly, from: fake, started: started)
        #expect(await fake.waitUntil { $0.waiting == 1 })
        let second = ClientTesting.startFetch(client, trip, variables: ["id": "1"], policy: .networkOnly, from: fake, started: started)
        #expect(await ClientTesting.letJoin(started, count: 2))
        first.cancel()
        fake.release()
        let served = try await second.value.get()
        #expect(served.data?["trip"]?["name"] == "Lisbon")
        _ = await first.value
        #expect(fake.cancelled.isEmpty, "the shared request is not cancelled while a waiter remains")
        #expect(fake.requestCount == 1)
        #expect(client.network.log.map(\.status) == ["ok"])
        #expect(client.cache.record("Trip:1")?["name"] == "Lisbon")
    }

    /// A waiter that is cancelled stops waiting at once (with `.cancelled`), as a lone
    /// request does, even though the request it shared goes on for the other waiter.
    @Test func aCancelledWaiterStopsWaitingWhileTheSharedRequestGoesOn() async throws {
        let (client, fake) = try setUp()
        let trip = try client.cache.operation(ClientTesting.tripDetail)
        fake.hold()
        let started = LockedBox(0), finished = LockedBox(0)
        let first = ClientTesting.startFetch(client, trip, variables: ["id": "1"], policy: .networkOnly, from: fake,
                                             started: started, finished: finished)
        #expect(await fake.waitUntil { $0.waiting == 1 })
        let second = ClientTesting.startFetch(client, trip, variables: ["id": "1"], policy: .networkOnly, from: fake, started: started)
        #expect(await ClientTesting.letJoin(started, count: 2))
        first.cancel()
        let stoppedEarly = await Poll.until(timeout: .seconds(1)) { finished.value == 1 }
        #expect(stoppedEarly, "the cancelled waiter is still blocked on the request it shared")
        fake.release()
        let outcome = await first.value
        #expect(outcome == .failure(.transport(.cancelled)), "a cancelled fetch returned \(outcome)")
        #expect(try await second.value.get().data?["trip"]?["name"] == "Lisbon")
    }

    /// After one of two waiters gave up, the request is still in flight for the other;
    /// an identical query arriving then joins it instead of sending a second request.
    @Test func aQueryArrivingAfterAWaiterGaveUpStillJoinsTheRequestInFlight() async throws {
        let (client, fake) = try setUp()
        let trip = try client.cache.operation(ClientTesting.tripDetail)
        fake.hold()
        let started = LockedBox(0)
        let first = ClientTesting.startFetch(client, trip, variables: ["id": "1"], policy: .networkOnly, from: fake, started: started)
        #expect(await fake.waitUntil { $0.waiting == 1 })
        let second = ClientTesting.startFetch(client, trip, variables: ["id": "1"], policy: .networkOnly, from: fake, started: started)
        #expect(await ClientTesting.letJoin(started, count: 2))
        first.cancel()
        for _ in 0..<20 { await Task.yield() }
        let third = ClientTesting.startFetch(client, trip, variables: ["id": "1"], policy: .networkOnly, from: fake, started: started)
        #expect(await ClientTesting.letJoin(started, count: 3))
        #expect(fake.requestCount == 1, "a second request for the same query was sent while the first was in flight")
        fake.release()
        #expect(try await second.value.get().data?["trip"]?["name"] == "Lisbon")
        #expect(try await third.value.get().data?["trip"]?["name"] == "Lisbon")
        _ = await first.value
        #expect(fake.requestCount == 1)
    }

    /// A fetch whose task is cancelled before it asks (a watcher's fetch superseded before it
    /// ran) stops at once, and its request is not left running for nobody.
    @Test func aQueryFromAnAlreadyCancelledTaskStopsAtOnce() async throws {
        let (client, fake) = try setUp()
        let trip = try client.cache.operation(ClientTesting.tripDetail)
        fake.hold()
        let finished = LockedBox(0)
        let task = Task { () -> Result<ClientResult, ClientError> in
            withUnsafeCurrentTask { $0?.cancel() }
            defer { finished.update { $0 += 1 } }
            do throws(ClientError) {
                return .success(try await client.fetch(trip, variables: ["id": "1"], policy: .networkOnly, from: fake))
            } catch {
                return .failure(error)
            }
        }
        let stopped = await Poll.until(timeout: .seconds(1)) { finished.value == 1 }
        #expect(stopped, "the cancelled fetch waits for a request nobody wants")
        #expect(await fake.waitUntil(timeout: .seconds(1)) { $0.requestCount == $0.cancelled.count },
                "the request was left running: \(fake.requestCount) sent, \(fake.cancelled.count) cancelled")
        fake.release()
        #expect(await task.value == .failure(.transport(.cancelled)))
        #expect(fake.answered.isEmpty)
        #expect(client.cache.keys().isEmpty)
    }

    @Test func cancellingEveryWaiterCancelsTheRequest() async throws {
        let (client, fake) = try setUp()
        let trip = try client.cache.operation(ClientTesting.tripDetail)
        fake.hold()
        let started = LockedBox(0)
        let first = ClientTesting.startFetch(client, trip, variables: ["id": "1"], policy: .networkOnly, from: fake, started: started)
        #expect(await fake.waitUntil { $0.waiting == 1 })
        let second = ClientTesting.startFetch(client, trip, variables: ["id": "1"], policy: .networkOnly, from: fake, started: started)
        #expect(await ClientTesting.letJoin(started, count: 2))
        first.cancel()
        second.cancel()
        #expect(await fake.waitUntil { $0.cancelled.count == 1 }, "the transport saw the request cancelled")
        fake.release()
        #expect(await first.value == .failure(.transport(.cancelled)))
        #expect(await second.value == .failure(.transport(.cancelled)))
        #expect(await Poll.until { client.network.log.count == 1 })
        #expect(client.network.log.map(\.status) == ["cancelled"])
        #expect(client.network.log.first?.operation == "Trip")
        #expect(fake.requestCount == 1)
        #expect(fake.answered.isEmpty)
        #expect(client.cache.keys().isEmpty)
    }

    @Test func cancellingALoneQueryCancelsItsRequest() async throws {
        let (client, fake) = try setUp()
        let trip = try client.cache.operation(ClientTesting.tripDetail)
        fake.hold()
        let only = ClientTesting.startFetch(client, trip, variables: ["id": "1"], from: fake)
        #expect(await fake.waitUntil { $0.waiting == 1 })
        only.cancel()
        #expect(await fake.waitUntil { $0.cancelled.count == 1 })
        fake.release()
        #expect(await only.value == .failure(.transport(.cancelled)))
        #expect(await Poll.until { client.network.log.count == 1 })
        #expect(client.network.log.first?.status == "cancelled")
        #expect(client.cache.keys().isEmpty)
        // Nothing is left in flight: the same query is sent anew and answered.
        #expect(try await client.fetch(trip, variables: ["id": "1"], from: fake).data?["trip"]?["name"] == "Lisbon")
        #expect(fake.requestCount == 2)
    }
}
