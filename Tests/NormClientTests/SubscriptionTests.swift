import Foundation
import KitchenSinkTypes
import NormCache
@testable import NormClient
import NormWebSocketNIO
import Synchronization
import TestSupport
import Testing

/// Subscriptions over WebSocket against ariadne's handlers (Tests/Support/graphql_server/
/// server.py: graphql-transport-ws and graphql-ws under uvicorn with wsproto), through the
/// client into the cache. One server for the suite, whose renames every tripRenamed
/// subscriber hears: the tests run one at a time.
@Suite(.graphQLServer, .serialized)
struct SubscriptionTests {
    private func webSocket(_ path: String = "/graphql", backoff: ReconnectBackoff = ReconnectBackoff(initial: .milliseconds(50)),
                           acknowledgementTimeout: Duration = .seconds(10)) throws -> WebSocketTransport {
        let server = try #require(GraphQLServerProcess.current, "the suite's GraphQL server")
        return WebSocketTransport(url: URL(string: "ws://127.0.0.1:\(server.port)\(path)")!, connector: NIOWebSocketConnector(),
                                  backoff: backoff, acknowledgementTimeout: acknowledgementTimeout)
    }

    private func client(_ subscriptions: WebSocketTransport) throws -> Client {
        let server = try #require(GraphQLServerProcess.current, "the suite's GraphQL server")
        let client = Client(cache: NormalizedCache(), endpoint: HTTPTransport(url: server.url(), timeout: 10))
        client.subscriptionEndpoint = subscriptions
        return client
    }

    @Test func anEventIsWrittenUnderTheSubscriptionRootAndWatchersHearIt() async throws {
        let transport = try webSocket()
        let client = try client(transport)
        let detail = try client.cache.operation("query Detail { trip(id: \"2\") { id name } }")
        try await client.fetch(detail)
        let causes = Mutex<[ChangeCause]>([])
        let watch = try client.watch(detail, policy: .cacheOnly) { _, event in
            if case .emission(_, let emission) = event { causes.withLock { $0.append(emission.cause) } }
        }
        defer { watch.cancel() }

        let renamed = try client.cache.operation("subscription Renamed($id: ID) { tripRenamed(id: $id) { id name } }")
        let subscription = try await client.subscribe(renamed, variables: ["id": "2"])
        #expect(await transport.subprotocol == .transportWS)
        try await #require(GraphQLServerProcess.current).renameTrip("2", to: "Douro by train")   // another app: only the event tells this cache

        var iterator = subscription.makeAsyncIterator()
        guard case .result(let result)? = try await iterator.next() else { Issue.record("no event"); return }
        #expect(result.data == ["tripRenamed": ["__typename": "Trip", "id": "2", "name": "Douro by train"]])
        #expect(client.cache.record("SUBSCRIPTION_ROOT") == ["tripRenamed(id:2)": .reference("Trip:2")])
        #expect(client.cache.record("Trip:2")?["name"] == "Douro by train")
        await client.settle()
        #expect(causes.withLock { $0 }.last == .subscription)

        subscription.cancel()
        #expect(try await iterator.next() == nil)
        var open = await transport.subprotocol
        for _ in 0..<500 where open != nil {   // the server hears complete, then the connection closes
            try await Task.sleep(for: .milliseconds(10))
            open = await transport.subprotocol
        }
        #expect(open == nil, "the last subscription's end closes the connection")
        #expect(await transport.activeCount == 0)
    }

    @Test func theServersCompleteEndsTheSequence() async throws {
        let client = try client(webSocket())
        let countdown = try client.cache.operation("subscription Countdown { countdown(from: 3) }")
        var numbers: [CacheValue?] = []
        for try await update in try await client.subscribe(countdown) {
            if case .result(let result) = update { numbers.append(result.data?["countdown"]) }
        }
        #expect(numbers == [3, 2, 1])
        #expect(client.cache.record("SUBSCRIPTION_ROOT")?["countdown(from:3)"] == 1)
    }

    @Test func graphqlWSWhenTheServerChoosesIt() async throws {
        let transport = try webSocket("/legacy/graphql")
        let client = try client(transport)
        let countdown = try client.cache.operation("subscription Countdown { countdown(from: 2) }")
        var numbers: [CacheValue?] = []
        let subscription = try await client.subscribe(countdown)
        #expect(await transport.subprotocol == .legacyWS)
        for try await update in subscription {
            if case .result(let result) = update { numbers.append(result.data?["countdown"]) }
        }
        #expect(numbers == [2, 1])
    }

    @Test func aServerErrorEndsTheSubscriptionWithItsMessage() async throws {
        let client = try client(webSocket())
        let forbidden = try client.cache.operation("subscription Forbidden { forbidden }")
        let error = await #expect(throws: ClientError.self) {
            for try await _ in try await client.subscribe(forbidden) {}
        }
        #expect("\(error.map { "\($0)" } ?? "")".contains("forbidden: this subscription is refused"))
    }

    @Test func aDroppedConnectionReconnectsAndSubscribesAgain() async throws {
        let transport = try webSocket()
        let client = try client(transport)
        let renamed = try client.cache.operation("subscription Renamed($id: ID) { tripRenamed(id: $id) { id name } }")
        var iterator = try await client.subscribe(renamed, variables: ["id": "3"]).makeAsyncIterator()
        let drop = try client.cache.operation("mutation Drop { dropSockets }")
        let dropped = try await client.fetch(drop)
        #expect(dropped.data?["dropSockets"].flatMap { if case .int(let count) = $0 { count >= 1 } else { nil } } == true, "this test's connection, and any an earlier test left closing")

        guard case .interrupted(let notice)? = try await iterator.next() else { Issue.record("no interruption"); return }
        #expect(notice.contains("dropped (close 1012 service restart); reconnecting in 0.05 seconds (attempt 1)"))
        guard case .resumed(let resumed)? = try await iterator.next() else { Issue.record("no resumption"); return }
        #expect(resumed.contains("reconnected to ws://127.0.0.1:"))

        try await #require(GraphQLServerProcess.current).renameTrip("3", to: "Algarve again")
        guard case .result(let result)? = try await iterator.next() else { Issue.record("no event after reconnecting"); return }
        #expect(result.data == ["tripRenamed": ["__typename": "Trip", "id": "3", "name": "Algarve again"]])
        await transport.close()
    }

    @Test func aServerThatSpeaksNeitherProtocolIsNamed() async throws {
        let client = try client(webSocket("/plain-ws"))
        let countdown = try client.cache.operation("subscription Countdown { countdown(from: 1) }")
        let error = await #expect(throws: ClientError.self) { try await client.subscribe(countdown) }
        #expect("\(error.map { "\($0)" } ?? "")".contains("a message graphql-transport-ws does not have (type \"connection_init\""))
    }

    @Test func aRefusedUpgradeIsAnHTTPError() async throws {
        let client = try client(webSocket("/refuse-ws"))
        let countdown = try client.cache.operation("subscription Countdown { countdown(from: 1) }")
        let error = await #expect(throws: ClientError.self) { try await client.subscribe(countdown) }
        #expect("\(error.map { "\($0)" } ?? "")".contains("HTTP error 403"))
        #expect("\(error.map { "\($0)" } ?? "")".contains("refused the WebSocket upgrade"))
    }

    @Test func nothingListeningIsUnreachable() async throws {
        let transport = WebSocketTransport(url: URL(string: "ws://127.0.0.1:1/graphql")!, connector: NIOWebSocketConnector())
        let error = await #expect(throws: TransportError.self) { try await transport.subscribe(GraphQLRequest(document: "subscription { countdown(from: 1) }")) }
        #expect("\(error.map { "\($0)" } ?? "")".contains("cannot reach the endpoint: ws://127.0.0.1:1/graphql"))
    }

    @Test func aQueryIsNotASubscription() async throws {
        let client = try client(webSocket())
        let trips = try client.cache.operation("query Trips { trips { id } }")
        let error = await #expect(throws: ClientError.self) { try await client.subscribe(trips) }
        #expect("\(error.map { "\($0)" } ?? "")".contains("is a query, not a subscription"))
    }

    /// Foundation's connector: on Apple's platforms it connects; on Linux it does only when its
    /// libcurl has WebSocket support, and otherwise says so.
    @Test func foundationsConnectorConnectsOrSaysWhyNot() async throws {
        let server = try #require(GraphQLServerProcess.current)
        let transport = WebSocketTransport(url: URL(string: "ws://127.0.0.1:\(server.port)/graphql")!, connector: URLSessionWebSocketConnector())
        do {
            let events = try await transport.subscribe(GraphQLRequest(document: "subscription { countdown(from: 1) }"))
            var numbers: [CacheValue?] = []
            for try await case .next(let response) in events { numbers.append(response.value["data"]?["countdown"]) }
            #expect(numbers == [1])
        } catch {
            #expect("\(error)".contains("this Foundation cannot open WebSockets"))
        }
    }
}

/// The two subprotocols' messages, and the waits between reconnections.
struct GraphQLWebSocketProtocolTests {
    @Test func messagesOfEachSubprotocol() throws {
        let current = GraphQLWebSocketProtocol.transportWS, legacy = GraphQLWebSocketProtocol.legacyWS
        #expect(current.subscribe(id: "1", ["query": "subscription { a }"]) == #"{"id":"1","type":"subscribe","payload":{"query":"subscription { a }"}}"#)
        #expect(legacy.subscribe(id: "1", ["query": "subscription { a }"]) == #"{"id":"1","type":"start","payload":{"query":"subscription { a }"}}"#)
        #expect(current.stop(id: "2") == #"{"id":"2","type":"complete"}"#)
        #expect(legacy.stop(id: "2") == #"{"id":"2","type":"stop"}"#)
        #expect(try current.message(#"{"type":"next","id":"1","payload":{"data":{"a":1}}}"#) == .next(id: "1", payload: ["data": ["a": 1]]))
        #expect(try legacy.message(#"{"type":"data","id":"1","payload":{"data":{"a":1}}}"#) == .next(id: "1", payload: ["data": ["a": 1]]))
        #expect(try current.message(#"{"type":"error","id":"1","payload":[{"message":"no"},{"message":"never"}]}"#) == .error(id: "1", message: "no; never"))
        #expect(try legacy.message(#"{"type":"error","id":"1","payload":{"message":"no"}}"#) == .error(id: "1", message: "no"))
        #expect(try legacy.message(#"{"type":"ka"}"#) == .keepAlive)
        #expect(try current.message(#"{"type":"ping"}"#) == .ping)
    }

    @Test(arguments: [
        (#"{"type":"next","id":"1""#, "not JSON"),
        (#"{"id":"1"}"#, "without a \"type\""),
        (#"{"type":"data","id":"1","payload":{}}"#, "does not have (type \"data\")"),
        (#"{"type":"next","payload":{}}"#, "does not have (type \"next\", no id)"),
        (#"{"type":"next","id":"1","payload":[1]}"#, "payload is not a response object"),
    ])
    func malformedMessagesAreNamed(text: String, problem: String) {
        #expect(throws: TransportError.self) { try GraphQLWebSocketProtocol.transportWS.message(text) }
        do { _ = try GraphQLWebSocketProtocol.transportWS.message(text) } catch { #expect("\(error)".contains(problem)) }
    }

    @Test func theWaitDoublesUpToItsMaximum() {
        let backoff = ReconnectBackoff(initial: .milliseconds(500), maximum: .seconds(3))
        #expect((1...5).map(backoff.delay(beforeAttempt:)) == [.milliseconds(500), .seconds(1), .seconds(2), .seconds(3), .seconds(3)])
    }
}

/// The typed API over a transport that plays back what it is given: a generated
/// subscription's events decode to its Data, are written under `SUBSCRIPTION_ROOT`, and
/// the transport's notices stay out of the typed sequence.
struct TypedSubscriptionTests {
    final class PlayedBack: SubscriptionTransport, @unchecked Sendable {
        let name = "played back"
        let events: [SubscriptionEvent]
        private(set) var requests: [GraphQLRequest] = []

        init(_ events: [SubscriptionEvent]) { self.events = events }

        func subscribe(_ request: GraphQLRequest) async throws(TransportError) -> AsyncThrowingStream<SubscriptionEvent, any Error> {
            requests.append(request)
            let events = self.events
            return AsyncThrowingStream { continuation in
                for event in events { continuation.yield(event) }
                continuation.finish()
            }
        }
    }

    @Test func aGeneratedSubscriptionDecodesEachEvent() async throws {
        let renamed: CacheValue = ["data": ["tripRenamed": ["__typename": "Trip", "id": "7", "name": "Sintra"]]]
        let again: CacheValue = ["data": ["tripRenamed": ["__typename": "Trip", "id": "7", "name": "Sintra by train"]]]
        let transport = PlayedBack([.next(TransportResponse(renamed)), .interrupted("dropped"), .resumed("back"), .next(TransportResponse(again))])
        let client = Client(cache: NormalizedCache())
        var names: [String] = []
        for try await result in try await client.subscribe(TripRenamedSubscription(id: "7"), over: transport) {
            names.append(try #require(result.data).tripRenamed.name)
        }
        #expect(names == ["Sintra", "Sintra by train"])
        #expect(transport.requests.map(\.variables) == [["id": "7"]])
        #expect(transport.requests.map(\.operationName) == ["TripRenamed"])
        #expect(client.cache.record("SUBSCRIPTION_ROOT") == ["tripRenamed(id:7)": .reference("Trip:7")])
        #expect(client.cache.record("Trip:7")?["name"] == "Sintra by train")
    }

    @Test func withoutATransportItSaysWhatToSet() async throws {
        let client = Client(cache: NormalizedCache())
        let error = await #expect(throws: ClientError.self) { try await client.subscribe(TripRenamedSubscription()) }
        #expect("\(error.map { "\($0)" } ?? "")".contains("set the client's subscriptionEndpoint"))
    }
}
