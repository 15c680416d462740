import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NormCache
import NormClient
import TestSupport
import Testing

/// HTTPTransport against damaged answers (Tests/Support/fault_server/server.py, one fault
/// per operation name): each request fails with an error that says what came instead, and
/// a client's cache keeps what it had. One test at a time: on Linux a URLSession winding
/// down a refused transfer can hold up other requests for seconds (docs/reliability.md).
@Suite(.faultServer, .serialized, .timeLimit(.minutes(2)))
struct HTTPFaultTests {
    private func transport(timeout: TimeInterval = 10, maximumResponseSize: Int = HTTPTransport.defaultMaximumResponseSize) throws -> HTTPTransport {
        let server = try #require(GraphQLServerProcess.current, "the suite's fault server")
        return HTTPTransport(url: server.url(), timeout: timeout, maximumResponseSize: maximumResponseSize)
    }

    private var url: String { GraphQLServerProcess.current.map { $0.url().absoluteString } ?? "" }

    private func send(_ fault: String, _ transport: HTTPTransport? = nil) async throws -> CacheValue {
        try await (transport ?? self.transport()).send(GraphQLRequest(document: "query \(fault) { trip { id name } }", operationName: fault))
    }

    @Test func aGoodAnswerIsTheResponse() async throws {
        #expect(try await send("Trip")["data"] == ["trip": ["__typename": "Trip", "id": "1", "name": "Lisbon weekend"]])
    }

    @Test func truncatedJSONIsCutShort() async throws {
        await #expect(throws: TransportError.invalidResponse("the JSON from \(url) is cut short after 38 bytes: invalid JSON at line 1, column 39 "
            + "(data.trip.__typename): unterminated string (status 200, application/json)")) { try await send("Truncated") }
    }

    @Test func anHTMLPageWithStatus200IsNotJSON() async throws {
        await #expect(throws: TransportError.invalidResponse("the body from \(url) is not JSON: it starts with "
            + "`<!DOCTYPE html> <html><head><title>502 Bad Gateway</title></head><body><h1>Bad G…` (status 200, text/html; charset=utf-8)")) {
            try await send("HtmlPage")
        }
    }

    @Test func a500WithoutGraphQLErrorsQuotesItsBody() async throws {
        await #expect(throws: TransportError.http(status: 500, body: "Internal Server Error")) { try await send("ServerError") }
    }

    @Test func a500WithGraphQLErrorsNamesThem() async throws {
        let error = TransportError.http(status: 500, body: "with 2 GraphQL errors: the trips database is unavailable; retry later")
        await #expect(throws: error) { try await send("ServerErrors") }
        #expect(error.description == "HTTP error 500: with 2 GraphQL errors: the trips database is unavailable; retry later")
    }

    @Test func aResetConnectionBroke() async throws {
        let port = try #require(GraphQLServerProcess.current).port
        await #expect(throws: TransportError.connectionLost("127.0.0.1:\(port) closed the connection before answering (Recv failure: Connection reset by peer)")) {
            try await send("Reset")
        }
    }

    @Test func aServerThatStopsMidBodyIsNamedWithWhatCame() async throws {
        await #expect(throws: TransportError.connectionLost("\(url) stopped after sending 60 bytes of the 200 bytes its Content-Length declared "
            + "(status 200, application/json)")) { try await send("StopsMidBody") }
    }

    @Test func aServerThatStallsMidBodyTimesOut() async throws {
        let start = ContinuousClock.now
        await #expect(throws: TransportError.timeout(0.5)) { try await send("Stalls", transport(timeout: 0.5)) }
        #expect(ContinuousClock.now - start < .seconds(10))
    }

    @Test func aBodyPastTheLimitIsRefusedThere() async throws {
        let error = TransportError.tooLarge(url: url, declared: nil, limit: 1 << 20)
        await #expect(throws: error) { try await send("Huge", transport(maximumResponseSize: 1 << 20)) }
        #expect(error.description == "the response from \(url) is too large: it was still coming after 1 MiB, the most a response may be")
    }

    @Test func aDeclaredHugeBodyIsRefusedBeforeItComes() async throws {
        let error = TransportError.tooLarge(url: url, declared: 10 * 1_000_000_000, limit: HTTPTransport.defaultMaximumResponseSize)
        await #expect(throws: error) { try await send("HugeDeclared") }
        #expect(error.description == "the response from \(url) is too large: it declares 9.3 GiB (Content-Length), more than the 32 MiB a response may be")
    }

    /// Through an app's own session the faults fail as through the transport's own (on
    /// Linux the exchange hears that session's task through `data(for:delegate:)`, and
    /// stops it itself), and the session serves the next request.
    @Test func anAppsSessionMeetsTheFaultsAsTheTransportsOwnDoes() async throws {
        let server = try #require(GraphQLServerProcess.current)
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        func transport(timeout: TimeInterval = 10, limit: Int = HTTPTransport.defaultMaximumResponseSize) -> HTTPTransport {
            HTTPTransport(url: server.url(), session: session, timeout: timeout, maximumResponseSize: limit)
        }
        await #expect(throws: TransportError.connectionLost("\(url) stopped after sending 60 bytes of the 200 bytes its Content-Length declared "
            + "(status 200, application/json)")) { try await send("StopsMidBody", transport()) }
        await #expect(throws: TransportError.connectionLost("127.0.0.1:\(server.port) closed the connection before answering "
            + "(Recv failure: Connection reset by peer)")) { try await send("Reset", transport()) }
        await #expect(throws: TransportError.tooLarge(url: url, declared: nil, limit: 1 << 20)) { try await send("Huge", transport(limit: 1 << 20)) }
        await #expect(throws: TransportError.timeout(0.5)) { try await send("Stalls", transport(timeout: 0.5)) }
        await #expect(throws: TransportError.timeout(0.5)) { try await send("Slow", transport(timeout: 0.5)) }   // no answer at all
        #expect(try await send("Trip", transport())["data"]?["trip"]?["id"] == "1")
    }

    @Test func aFailedRequestLeavesTheCacheAsItWas() async throws {
        let client = Client(cache: NormalizedCache())
        let transport = try transport(timeout: 2)
        let trip = try client.cache.operation("query Trip { trip { id name } }")
        _ = try await client.fetch(trip, from: transport)
        let records = try client.cache.keys().map { ($0, client.cache.record($0)) }
        for fault in ["Truncated", "HtmlPage", "ServerError", "ServerErrors", "Reset", "StopsMidBody", "Stalls", "HugeDeclared"] {
            let damaged = try client.cache.operation("query \(fault) { trip { id name } }")
            await #expect(throws: ClientError.self, "\(fault)") { try await client.fetch(damaged, policy: .networkOnly, from: transport) }
            #expect(try client.cache.keys().map { ($0, client.cache.record($0)) }.elementsEqual(records, by: ==), "\(fault)")
        }
        #expect(try await client.fetch(trip, policy: .networkOnly, from: transport).data?["trip"]?["name"] == "Lisbon weekend")
    }
}
