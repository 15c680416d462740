import Foundation
import NormCache
@testable import NormClient
import TestSupport
import Testing

/// `@defer` over HTTP against a real server that answers in parts
/// (Tests/Support/incremental_server/server.py: graphql-core 3.3.0a6, deferSpec=20220824):
/// each part is written as one commit, watchers emit per part, and what goes wrong is
/// named by its part.
@Suite(.incrementalServer)
struct DeferTests {
    private static let detail = """
        query TripDetail($id: ID!) { trip(id: $id) { id name ... @defer(label: "details") { notes stops { id name } } } }
        """

    private func setUp(timeout: TimeInterval = 10) throws -> (Client, HTTPTransport, CompiledOperation) {
        let server = try #require(GraphQLServerProcess.current, "the suite's incremental server")
        let client = Client(cache: NormalizedCache())
        return (client, HTTPTransport(url: server.url(), timeout: timeout), try client.cache.operation(Self.detail))
    }

    @Test func eachPartIsOneCommitAndTheLastIsTheResult() async throws {
        let (client, transport, detail) = try setUp()
        let commits = client.cache.commitCount
        let parts = Parts()
        let result = try await client.fetch(detail, variables: ["id": "1"], policy: .networkOnly, from: transport, generated: nil,
                                            onPart: parts.append)
        #expect(parts.results.map(\.hasNext) == [true])
        #expect(parts.results.first?.data == ["trip": ["__typename": "Trip", "id": "1", "name": "Lisbon weekend"]])
        #expect(result.hasNext == false)
        #expect(result.data == ["trip": ["__typename": "Trip", "id": "1", "name": "Lisbon weekend", "notes": "Take the 28 tram early",
                                         "stops": [["__typename": "Place", "id": "p1", "name": "Alfama"],
                                                   ["__typename": "Place", "id": "p2", "name": "Belém"]]]])
        #expect(client.cache.commitCount == commits + 2)
        let cached = try client.cachedResult(of: detail, variables: ["id": "1"])
        #expect(cached.complete)
        #expect(cached.data == result.data)
    }

    @Test func sendReturnsThePartsMerged() async throws {
        let (_, transport, _) = try setUp()
        let response = try await transport.send(GraphQLRequest(document: Self.detail, variables: ["id": "2"]))
        #expect(response == ["data": ["trip": ["id": "2", "name": "Faro", "notes": "Book the ferry", "stops": []]],
                             "hasNext": false])
    }

    /// The server answers in parts only a request that accepts them, as Apollo iOS's does.
    @Test func theRequestAcceptsWhatApolloIOSAccepts() async throws {
        #expect(HTTPTransport.accept == "multipart/mixed;deferSpec=20220824,application/graphql-response+json,application/json")
        let (_, transport, _) = try setUp()
        var plain = transport
        plain.headers = [(name: "Accept", value: "application/json")]
        let refused = try await plain.send(GraphQLRequest(document: Self.detail, variables: ["id": "1"]))
        #expect(refused["errors"]?.kindDescription == "a list", "406 with errors: \(JSON.string(refused))")
    }

    @Test func aWatcherEmitsOncePerPart() async throws {
        let (client, transport, detail) = try setUp()
        let events = WatchEvents()
        let watch = try client.watch(detail, variables: ["id": "2"], from: transport, onEvent: events.callback)
        defer { watch.cancel() }
        let deadline = Date(timeIntervalSinceNow: 10)
        while watch.isFetching, Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
        await client.settle()
        #expect(events.emissions.map(\.number) == [1, 2], "\(events.entries)")
        #expect(events.emissions.first?.data == ["trip": ["__typename": "Trip", "id": "2", "name": "Faro"]],
                "the deferred part is pending: Apollo iOS reads the cache as a hit without it")
        #expect(events.emissions.last?.data == ["trip": ["__typename": "Trip", "id": "2", "name": "Faro", "notes": "Book the ferry", "stops": []]])
    }

    @Test func aQueryWithoutADeferThatAppliesIsOneResponse() async throws {
        let (client, transport, _) = try setUp()
        let plain = try client.cache.operation(#"query Plain { trip(id: "2") { id ... @defer(if: false) { notes } } }"#)
        let parts = Parts()
        let result = try await client.fetch(plain, variables: [:], policy: .networkOnly, from: transport, generated: nil, onPart: parts.append)
        #expect(parts.results.isEmpty)
        #expect(result.hasNext == nil)
        #expect(result.data == ["trip": ["__typename": "Trip", "id": "2", "notes": "Book the ferry"]])
    }

    /// The server's faults, by operation name, each a clear error naming what went wrong.
    @Test(arguments: [
        ("NoBoundary", #"not a GraphQL response: the multipart answer's Content-Type `multipart/mixed;deferSpec=20220824` names no boundary"#),
        ("UnknownSpec", #"not a GraphQL response: the multipart answer's Content-Type `multipart/mixed;boundary="-";deferSpec=20230101` names the protocol `deferSpec=20230101`, not deferSpec=20220824 nor subscriptionSpec=1.0"#),
        ("BadJSONPart", "not a GraphQL response: part 2 of the multipart answer is not valid JSON"),
        ("IncrementalFirst", #"not a GraphQL response: part 1 of the multipart answer is an incremental part, but no initial part (with "data") came before it"#),
        ("BadPath", #"not a GraphQL response: the path ["nowhere"] of incremental item 1 of part 2 of the multipart answer does not resolve in the response: no "nowhere" there"#),
        ("NoLastPart", #"not a GraphQL response: the multipart answer ended after part 1 without a part saying "hasNext": false"#),
    ])
    func aBadAnswerIsNamed(fault: String, message: String) async throws {
        let (client, transport, _) = try setUp()
        let operation = try client.cache.operation(#"query \#(fault) { trip(id: "1") { id ... @defer(label: "d") { notes } } }"#)
        do {
            try await client.fetch(operation, variables: [:], policy: .networkOnly, from: transport)
            Issue.record("\(fault) was answered")
        } catch {
            #expect("\(error)".hasPrefix(message), "\(fault)")
        }
    }

    @Test func aStreamThatGoesQuietTimesOutBetweenParts() async throws {
        // 1.5 s: long enough for the first part on a loaded machine, well short of the server's 30 s stall.
        let (client, transport, _) = try setUp(timeout: 1.5)
        let operation = try client.cache.operation(#"query StallsAfterFirst { trip(id: "1") { id ... @defer(label: "d") { notes } } }"#)
        let parts = Parts()
        let started = Date()
        await #expect(throws: ClientError.transport(.timeout(1.5))) {
            try await client.fetch(operation, variables: [:], policy: .networkOnly, from: transport, generated: nil, onPart: parts.append)
        }
        #expect(parts.results.count == 1, "the first part came")
        #expect(Date().timeIntervalSince(started) < 10)
    }
}

/// Collects the results `onPart` hears.
private final class Parts: @unchecked Sendable {
    private let lock = NSLock()
    private var _results: [ClientResult] = []
    var results: [ClientResult] { lock.withLock { _results } }
    func append(_ result: ClientResult) { lock.withLock { _results.append(result) } }
}
