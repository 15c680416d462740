import Foundation
import NormCache
import NormClient
import TestSupport
import Testing

/// SimulatedNetwork: offline, injected failures, latency, cancellation, and its log.
@Suite struct SimulatedNetworkTests {
    private let request = GraphQLRequest(document: "query TripList { trips { __typename id name } }", operationName: "TripList")

    private func fake() -> FakeTransport {
        let fake = FakeTransport(name: "trips-endpoint")
        fake.respond(to: "TripList", with: ClientTesting.tripsResponse([("1", "Lisbon")]))
        return fake
    }

    private func outcome(_ network: SimulatedNetwork, _ request: GraphQLRequest, _ transport: any Transport) async -> Result<CacheValue, TransportError> {
        do throws(TransportError) { return .success(try await network.send(request, over: transport).value) } catch { return .failure(error) }
    }

    @Test func aRequestPassesThroughAndIsLogged() async throws {
        let network = SimulatedNetwork()
        let fake = fake()
        let answer = ClientTesting.tripsResponse([("1", "Lisbon")])
        fake.setHandler { _ in
            try? await Task.sleep(for: .milliseconds(60))   // the transport's own time is the request's
            return answer
        }
        let start = ContinuousClock.now
        let response = try await network.send(request, over: fake).value
        let elapsed = ContinuousClock.now - start
        #expect(response == ClientTesting.tripsResponse([("1", "Lisbon")]))
        #expect(fake.requests == [request])
        let entry = try #require(network.log.first)
        #expect(network.log.count == 1)
        #expect(entry.endpoint == "trips-endpoint")
        #expect(entry.operation == "TripList")
        #expect(entry.status == "ok")
        #expect(entry.message == nil)
        #expect(entry.milliseconds >= 60, "the log counts the time the transport took")
        #expect(entry.milliseconds <= Int(elapsed / .milliseconds(1)), "and no more than the send took: \(elapsed)")
        #expect(network.requestCount == 1)
        #expect(!network.isOffline)
        #expect(network.latency == .zero)
        #expect(network.pendingFailures == 0)
    }

    @Test func offlineFailsAtOnceWithoutCallingTheTransport() async throws {
        let network = SimulatedNetwork()
        let fake = fake()
        network.latency = .seconds(5)          // offline answers before any latency
        network.isOffline = true
        #expect(network.isOffline)
        let start = ContinuousClock.now
        #expect(await outcome(network, request, fake) == .failure(.offline))
        #expect(ContinuousClock.now - start < .seconds(4), "offline fails without waiting out the latency")
        #expect(fake.requestCount == 0)
        #expect(network.log.map(\.status) == ["offline"])
        #expect(network.log.first?.message == TransportError.offline.description)
        #expect(network.requestCount == 1)
        network.isOffline = false
        network.latency = .zero
        #expect(await outcome(network, request, fake) == .success(ClientTesting.tripsResponse([("1", "Lisbon")])))
        #expect(fake.requestCount == 1)
        #expect(network.log.map(\.status) == ["offline", "ok"])
    }

    @Test func failNextFailsExactlyThatManyThenSucceeds() async throws {
        let network = SimulatedNetwork()
        let fake = fake()
        network.failNext(2)
        #expect(network.pendingFailures == 2)
        #expect(await outcome(network, request, fake) == .failure(.injectedFailure))
        #expect(network.pendingFailures == 1)
        #expect(await outcome(network, request, fake) == .failure(.injectedFailure))
        #expect(network.pendingFailures == 0)
        #expect(await outcome(network, request, fake) == .success(ClientTesting.tripsResponse([("1", "Lisbon")])))
        #expect(await outcome(network, request, fake) == .success(ClientTesting.tripsResponse([("1", "Lisbon")])))
        #expect(fake.requestCount == 2, "injected failures never reach the transport")
        #expect(network.log.map(\.status) == ["error", "error", "ok", "ok"])
        #expect(network.log.first?.message == TransportError.injectedFailure.description)
        #expect(network.requestCount == 4)
    }

    @Test func failNextReplacesTheCountAndIgnoresNegatives() async throws {
        let network = SimulatedNetwork()
        network.failNext(3)
        network.failNext(1)
        #expect(network.pendingFailures == 1)
        network.failNext(-2)
        #expect(network.pendingFailures == 0)
        #expect(await outcome(network, request, fake()) == .success(ClientTesting.tripsResponse([("1", "Lisbon")])))
    }

    @Test func injectedFailuresAreNotSpentWhileOffline() async throws {
        let network = SimulatedNetwork()
        let fake = fake()
        network.failNext(1)
        network.isOffline = true
        #expect(await outcome(network, request, fake) == .failure(.offline))
        #expect(network.pendingFailures == 1)
        network.isOffline = false
        #expect(await outcome(network, request, fake) == .failure(.injectedFailure))
        #expect(await outcome(network, request, fake) == .success(ClientTesting.tripsResponse([("1", "Lisbon")])))
    }

    @Test func latencyDelaysEachRequestByAtLeastItsDuration() async throws {
        let network = SimulatedNetwork()
        let fake = fake()
        network.latency = .milliseconds(120)
        #expect(network.latency == .milliseconds(120))
        let start = ContinuousClock.now
        _ = try await network.send(request, over: fake)
        let elapsed = ContinuousClock.now - start
        #expect(elapsed >= .milliseconds(110), "elapsed \(elapsed)")
        #expect((network.log.first?.milliseconds ?? 0) >= 110)
        #expect(network.log.first?.status == "ok")
    }

    @Test func aTaskCancelledDuringTheLatencyEndsCancelled() async throws {
        let network = SimulatedNetwork()
        let fake = fake()
        network.latency = .seconds(3)
        let request = self.request
        let started = LockedBox(0)
        let task = Task { () -> Result<CacheValue, TransportError> in
            started.update { $0 += 1 }
            do throws(TransportError) { return .success(try await network.send(request, over: fake).value) } catch { return .failure(error) }
        }
        #expect(await Poll.until { started.value == 1 })
        try await Task.sleep(for: .milliseconds(20))     // most likely inside the latency now; either way it must end cancelled
        let start = ContinuousClock.now
        task.cancel()
        #expect(await task.value == .failure(.cancelled))
        #expect(ContinuousClock.now - start < .seconds(2), "cancellation cut the latency short")
        #expect(fake.requestCount == 0)
        #expect(network.log.map(\.status) == ["cancelled"])
        #expect(network.log.first?.message == TransportError.cancelled.description)
    }

    @Test func aRequestFromAnAlreadyCancelledTaskNeverReachesTheTransport() async throws {
        let network = SimulatedNetwork()
        let fake = fake()
        let request = self.request
        let task = Task { () -> Result<CacheValue, TransportError> in
            withUnsafeCurrentTask { $0?.cancel() }
            do throws(TransportError) { return .success(try await network.send(request, over: fake).value) } catch { return .failure(error) }
        }
        #expect(await task.value == .failure(.cancelled))
        #expect(fake.requestCount == 0)
        #expect(network.log.map(\.status) == ["cancelled"])
    }

    @Test func aTaskCancelledWhileTheTransportWorksEndsCancelled() async throws {
        let network = SimulatedNetwork()
        let fake = fake()
        fake.hold()
        let request = self.request
        let task = Task { () -> Result<CacheValue, TransportError> in
            do throws(TransportError) { return .success(try await network.send(request, over: fake).value) } catch { return .failure(error) }
        }
        #expect(await fake.waitUntil { $0.waiting == 1 })
        task.cancel()
        #expect(await fake.waitUntil { $0.cancelled.count == 1 })
        fake.release()
        #expect(await task.value == .failure(.cancelled))
        #expect(fake.cancelled == [request])
        #expect(network.log.map(\.status) == ["cancelled"])
    }

    @Test func aTransportErrorIsPassedOnAndLoggedAsAnError() async throws {
        let network = SimulatedNetwork()
        let fake = FakeTransport(name: "http://127.0.0.1:9/graphql")
        fake.fail("TripList", with: .http(status: 502, body: "bad gateway"))
        #expect(await outcome(network, request, fake) == .failure(.http(status: 502, body: "bad gateway")))
        let entry = try #require(network.log.first)
        #expect(entry.endpoint == "http://127.0.0.1:9/graphql")
        #expect(entry.status == "error")
        #expect(entry.message == TransportError.http(status: 502, body: "bad gateway").description)
    }

    @Test func logEntriesNameTheEndpointAndTheOperationInOrder() async throws {
        let network = SimulatedNetwork()
        let trips = fake()
        let other = FakeTransport(name: "weather")
        other.respond(to: nil, with: ["data": ["weather": "sunny"]])
        _ = try await network.send(request, over: trips)
        _ = try await network.send(GraphQLRequest(document: "{ weather }"), over: other)
        network.isOffline = true
        _ = await outcome(network, request, trips)
        #expect(network.log.map(\.endpoint) == ["trips-endpoint", "weather", "trips-endpoint"])
        #expect(network.log.map(\.operation) == ["TripList", nil, "TripList"])
        #expect(network.log.map(\.status) == ["ok", "ok", "offline"])
        #expect(network.requestCount == 3)
    }

    @Test func observersHearEachEvent() async throws {
        let network = SimulatedNetwork()
        let fake = fake()
        let first = LockedBox<[NetworkEvent]>([]), second = LockedBox<[NetworkEvent]>([])
        network.observe { event in first.update { $0.append(event) } }
        network.observe { event in second.update { $0.append(event) } }
        _ = try await network.send(request, over: fake)
        network.failNext(1)
        _ = await outcome(network, request, fake)
        network.isOffline = true
        _ = await outcome(network, request, fake)
        #expect(first.value.map(\.status) == ["ok", "error", "offline"])
        #expect(first.value == network.log)
        #expect(second.value == network.log)
    }

    @Test func anObserverAddedLaterHearsOnlyLaterEvents() async throws {
        let network = SimulatedNetwork()
        let fake = fake()
        _ = try await network.send(request, over: fake)
        let heard = LockedBox<[NetworkEvent]>([])
        network.observe { event in heard.update { $0.append(event) } }
        _ = try await network.send(request, over: fake)
        #expect(heard.value.count == 1)
        #expect(network.requestCount == 2)
    }

    @Test func theClientsRequestsGoThroughItsNetwork() async throws {
        let network = SimulatedNetwork()
        let client = Client(cache: NormalizedCache(), network: network)
        let fake = fake()
        let tripList = try client.cache.operation(ClientTesting.tripList)
        network.failNext(1)
        await #expect(throws: ClientError.transport(.injectedFailure)) {
            try await client.fetch(tripList, from: fake)
        }
        #expect(try await client.fetch(tripList, from: fake).source == .network)
        #expect(client.network === network)
        #expect(network.log.map(\.status) == ["error", "ok"])
        #expect(network.log.allSatisfy { $0.endpoint == "trips-endpoint" && $0.operation == "TripList" })
    }
}
