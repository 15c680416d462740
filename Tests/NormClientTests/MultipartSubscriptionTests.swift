import Foundation
import NormCache
import NormWebSocketNIO
@testable import NormClient
import TestSupport
import Testing

/// Subscriptions over HTTP (`subscriptionSpec=1.0`, Apollo Router's) against the
/// incremental test server (Tests/Support/incremental_server/server.py): heartbeats
/// skipped, each payload written under SUBSCRIPTION_ROOT, a top-level `errors` part ending
/// the subscription with its message.
@Suite(.incrementalServer)
struct MultipartSubscriptionTests {
    private func client() throws -> (Client, HTTPTransport) {
        let server = try #require(GraphQLServerProcess.current, "the suite's incremental server")
        let transport = HTTPTransport(url: server.url(), timeout: 10)
        let client = Client(cache: NormalizedCache(), endpoint: transport)
        client.subscriptionEndpoint = transport
        return (client, transport)
    }

    @Test func eachPartIsAnEventWrittenUnderTheSubscriptionRoot() async throws {
        let (client, _) = try client()
        let countdown = try client.cache.operation("subscription Countdown { countdown(from: 3) }")
        var numbers: [CacheValue?] = []
        for try await update in try await client.subscribe(countdown) {
            if case .result(let result) = update { numbers.append(result.data?["countdown"]) }
        }
        #expect(numbers == [3, 2, 1], "the heartbeat part is no event")
        #expect(client.cache.record("SUBSCRIPTION_ROOT") == ["countdown(from:3)": 1])
    }

    @Test func aTopLevelErrorsPartEndsTheSubscription() async throws {
        let (client, _) = try client()
        let failing = try client.cache.operation("subscription TransportErrorAfterOne { countdown(from: 3) }")
        var numbers: [CacheValue?] = []
        let error = await #expect(throws: ClientError.self) {
            for try await update in try await client.subscribe(failing) {
                if case .result(let result) = update { numbers.append(result.data?["countdown"]) }
            }
        }
        #expect(numbers == [3])
        #expect("\(error.map { "\($0)" } ?? "")" == "the subscription ended: the router lost its subgraph")
    }

    @Test func aSubscriptionTheServerRefusesEndsWithItsMessage() async throws {
        let (client, _) = try client()
        let unknown = try client.cache.operation("subscription Nope { nope }")
        let error = await #expect(throws: ClientError.self) { try await client.subscribe(unknown) }
        #expect("\(error.map { "\($0)" } ?? "")".contains("Cannot query field 'nope' on type 'Subscription'."))
    }

    @Test func aWebSocketUpgradeIsRefusedThere() async throws {
        let server = try #require(GraphQLServerProcess.current)
        let webSocket = WebSocketTransport(url: URL(string: "ws://127.0.0.1:\(server.port)/graphql")!, connector: NIOWebSocketConnector())
        let error = await #expect(throws: TransportError.self) { try await webSocket.subscribe(GraphQLRequest(document: "subscription { countdown(from: 1) }")) }
        #expect("\(error.map { "\($0)" } ?? "")".contains("HTTP error 403"))
    }
}
