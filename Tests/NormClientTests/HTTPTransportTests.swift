import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NormCache
import NormClient
import TestSupport
import Testing

/// HTTPTransport against a real GraphQL server that we did not write: ariadne on uvicorn
/// (Tests/Support/graphql_server/server.py, installed by `make graphql-server`), one server
/// process for the whole suite.
@Suite(.graphQLServer)
struct HTTPTransportTests {
    private func transport(path: String = "/graphql", timeout: TimeInterval = 10) throws -> HTTPTransport {
        let server = try #require(GraphQLServerProcess.current, "the suite's GraphQL server")
        return HTTPTransport(url: server.url(path), timeout: timeout)
    }

    @Test func aQueryReturnsTheResponseObject() async throws {
        let transport = try transport()
        let response = try await transport.send(GraphQLRequest(document: "{ trips { id kind } }"))
        #expect(response == ["data": ["trips": [
            ["id": "1", "kind": "CITY"], ["id": "2", "kind": "HIKE"], ["id": "3", "kind": "BEACH"],
        ]]])
        #expect(transport.name == "http://127.0.0.1:\(try #require(GraphQLServerProcess.current).port)/graphql")
    }

    @Test func variablesAndTheOperationNameAreSent() async throws {
        let request = GraphQLRequest(
            document: """
                query Other { trips { id } }
                query Trip($id: ID!, $first: Int) { trip(id: $id) { name stops(first: $first) { name } } }
                """,
            operationName: "Trip", variables: ["id": "2", "first": 1])
        let response = try await transport().send(request)
        #expect(response == ["data": ["trip": ["name": "Douro valley", "stops": [["name": "Porto"]]]]])
    }

    @Test func aMutationChangesTheServersData() async throws {
        let transport = try transport()
        let renamed = try await transport.send(GraphQLRequest(
            document: "mutation Rename($id: ID!, $name: String!) { renameTrip(id: $id, name: $name) { id name } }",
            variables: ["id": "3", "name": "Algarve coast"]))
        #expect(renamed == ["data": ["renameTrip": ["id": "3", "name": "Algarve coast"]]])
        let read = try await transport.send(GraphQLRequest(document: #"{ trip(id: "3") { name } }"#))
        #expect(read == ["data": ["trip": ["name": "Algarve coast"]]])
    }

    @Test func aResolverErrorComesBackWithThePartialData() async throws {
        let response = try await transport().send(GraphQLRequest(document: #"{ trip(id: "1") { name } failing }"#))
        #expect(response["data"] == ["trip": ["name": "Lisbon weekend"], "failing": nil])
        guard case .list(let errors)? = response["errors"] else {
            Issue.record("no errors list in \(JSON.string(response))")
            return
        }
        #expect(errors.count == 1)
        #expect(errors.first?["message"] == "the failing field always fails")
        #expect(errors.first?["path"] == ["failing"])
    }

    @Test func aValidationErrorAnsweredWith400IsAResponseNotAnHTTPError() async throws {
        let response = try await transport().send(GraphQLRequest(document: "{ trips { id } nope }"))
        #expect(response["data"] == nil)
        guard case .list(let errors)? = response["errors"], case .string(let message)? = errors.first?["message"] else {
            Issue.record("no error message in \(JSON.string(response))")
            return
        }
        #expect(errors.count == 1)
        #expect(message.contains("'nope'"))   // graphql-core: "Cannot query field 'nope' on type 'Query'."
    }

    @Test func anErrorStatusIsAnHTTPError() async throws {
        await #expect(throws: TransportError.http(status: 404, body: "Not Found")) {
            try await transport(path: "/nowhere").send(GraphQLRequest(document: "{ trips { id } }"))
        }
    }

    @Test func a200ThatIsNotJSONIsAnInvalidResponse() async throws {
        let transport = try transport(path: "/text")
        await #expect(throws: TransportError.invalidResponse(
            "the body from \(transport.url.absoluteString) is not JSON: it starts with `plain text, not JSON` (status 200, text/plain; charset=utf-8)")) {
            try await transport.send(GraphQLRequest(document: "{ trips { id } }"))
        }
    }

    @Test func headersAreSentWithEveryRequest() async throws {
        var transport = try transport()
        let whoami = GraphQLRequest(document: "{ whoami }")
        #expect(try await transport.send(whoami) == ["data": ["whoami": nil]])
        transport.headers.append((name: "Authorization", value: "Bearer test-token"))
        #expect(try await transport.send(whoami) == ["data": ["whoami": "Bearer test-token"]])
    }

    @Test func noAnswerWithinTheTimeoutIsATimeout() async throws {
        let transport = try transport(timeout: 0.5)
        let clock = ContinuousClock()
        let start = clock.now
        await #expect(throws: TransportError.timeout(0.5)) {
            try await transport.send(GraphQLRequest(document: "{ slow(ms: 5000) }"))
        }
        #expect(clock.now - start < .seconds(4))
    }

    @Test func aPortNobodyListensOnIsUnreachable() async throws {
        let port = try RefusingPort()
        defer { port.close() }
        let transport = HTTPTransport(url: URL(string: "http://127.0.0.1:\(port.number)/graphql")!)
        await #expect(throws: TransportError.unreachable("nothing answers at 127.0.0.1:\(port.number)")) {
            try await transport.send(GraphQLRequest(document: "{ trips { id } }"))
        }
    }

    @Test func anUnknownHostIsUnreachable() async throws {
        let transport = HTTPTransport(url: URL(string: "http://no-such-host.invalid/graphql")!)
        await #expect(throws: TransportError.unreachable("unknown host no-such-host.invalid")) {
            try await transport.send(GraphQLRequest(document: "{ trips { id } }"))
        }
    }

    @Test func cancellingTheTaskCancelsTheRequest() async throws {
        let transport = try transport()
        let clock = ContinuousClock()
        let start = clock.now
        let request = Task { try await transport.send(GraphQLRequest(document: "{ slow(ms: 10000) }")) }
        try await Task.sleep(for: .milliseconds(300))
        request.cancel()
        let result = await request.result
        #expect(throws: TransportError.cancelled) { try result.get() }
        #expect(clock.now - start < .seconds(5))
    }

    /// On Darwin a transport's requests share its session, and so one kept-alive
    /// connection; on Linux each has a session, and so a connection, of its own (two
    /// FoundationNetworking faults, HTTPSession). Copies of a transport share its session.
    @Test func requestsOfOneTransportShareItsSessionOnDarwin() async throws {
        let transport = try transport()
        let copy = transport
        var ports: Set<Int64> = []
        for sender in [transport, copy, transport, copy] {
            let response = try await sender.send(GraphQLRequest(document: "{ clientPort }"))
            guard case .int(let port)? = response["data"]?["clientPort"] else {
                Issue.record("no clientPort in \(JSON.string(response))")
                return
            }
            ports.insert(port)
        }
        #if os(Linux)
        #expect(ports.count == 4, "one connection a request: \(ports)")
        #else
        #expect(ports.count == 1, "one connection for all: \(ports)")
        #endif
    }

    /// An app's own session carries the requests (its configuration's headers reach the
    /// server), on one connection, and outlives the transport: the transport never
    /// invalidates a session it did not make.
    @Test func anAppsSessionCarriesTheRequestsAndOutlivesTheTransport() async throws {
        let server = try #require(GraphQLServerProcess.current)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpAdditionalHeaders = ["Authorization": "Bearer from-the-app's-session"]
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        let whoAndWhere = GraphQLRequest(document: "{ whoami clientPort }")
        var first: CacheValue?
        do {
            let transport = HTTPTransport(url: server.url(), session: session)
            first = try await transport.send(whoAndWhere)["data"]
            #expect(first?["whoami"] == "Bearer from-the-app's-session")
            #expect(try await transport.send(whoAndWhere)["data"] == first, "the second request on the first's connection")
        }
        let later = try await HTTPTransport(url: server.url(), session: session).send(whoAndWhere)["data"]
        #expect(later == first, "the session and its connection outlived the first transport")
    }

    @Test func schemaPrintsTheIntrospectedSchemaAsSDL() async throws {
        let sdl = try await transport().schema()
        #expect(sdl == expectedSDL)
        let types = try PossibleTypes(sdl: sdl)
        #expect(types.matches("Place", condition: "SearchResult"))
        #expect(types.matches("Trip", condition: "Node"))
        #expect(types.rootTypes[.mutation] == "TripMutations")
    }

    @Test func theIntrospectionResultTellsThePossibleTypes() async throws {
        let types = try PossibleTypes(introspection: try await transport().introspect())
        #expect(types.fromSchema)
        #expect(types.matches("Trip", condition: "SearchResult"))
        #expect(types.matches("Place", condition: "SearchResult"))
        #expect(types.matches("Place", condition: "Node"))
        #expect(!types.matches("Trip", condition: "Place"))
        #expect(types.rootTypes[.mutation] == "TripMutations")
    }

    /// The client writes an HTTP body into the cache from its bytes (the transport hands
    /// over the JSON text, read once) and returns the data and errors as the server sent
    /// them: with a resolver error, the partial data goes in and the error comes back.
    @Test func aFetchWritesTheBodyAndReturnsItsDataAndErrors() async throws {
        let transport = try transport()
        let response = try await transport.response(to: GraphQLRequest(document: #"{ trip(id: "1") { name } }"#))
        #expect(response.value == ["data": ["trip": ["name": "Lisbon weekend"]]])
        let client = Client(cache: NormalizedCache(), endpoint: transport)
        let query = try client.cache.operation(#"query Partial { trip(id: "1") { id name } failing }"#)
        let fetched = try await client.fetch(query)
        #expect(fetched.source == .network)
        #expect(fetched.data == ["trip": ["__typename": "Trip", "id": "1", "name": "Lisbon weekend"], "failing": nil])
        #expect(fetched.errors.map { $0["message"] } == ["the failing field always fails"])
        #expect(client.cache.record("Trip:1")?["name"] == "Lisbon weekend")
        let read = try client.cachedResult(of: query)
        #expect(read.data?["trip"] == fetched.data?["trip"])
    }

    /// The answer's `Cache-Control` header is how long what it wrote stays fresh:
    /// `max-age=N` N seconds, `no-store` 0 (written, and stale at once: a cache-first fetch
    /// goes to the server again), none or `s-maxage` alone no max age; a header that does
    /// not parse is a warning of the cache's naming it, and the response is written as if
    /// it had none.
    @Test(arguments: [
        ("public, max-age=300", 300.0, false, nil),
        ("no-store", 0, true, nil),
        ("s-maxage=60", nil, false, nil),
        ("max-age=soon", nil, false, "the Cache-Control header `max-age=soon` from URL does not parse (max-age=soon is not whole seconds): "
            + "its response is written as if it had none"),
    ] as [(String, Double?, Bool, String?)])
    func theCacheControlHeaderGivesWhatTheResponseWroteItsMaxAge(_ header: String, _ maxAge: Double?, _ stale: Bool, _ warning: String?) async throws {
        var transport = try transport()
        transport.headers.append((name: "X-Answer-Cache-Control", value: header))
        let client = Client(cache: NormalizedCache(), endpoint: transport)
        let query = try client.cache.operation(#"query Lisbon { trip(id: "1") { id name } }"#)
        #expect(try await client.fetch(query).source == .network)
        let name = try #require(try client.cache.ages(of: "Trip:1")?.first { $0.field == "name" })
        #expect(name.maxAge == maxAge && name.stale == stale, "\(header)")
        #expect(client.cache.takeWarnings() == [warning?.replacingOccurrences(of: "URL", with: transport.url.absoluteString)].compactMap { $0 })
        #expect(try await client.fetch(query, policy: .cacheFirst).source == (stale ? .network : .cache), "\(header)")
    }

    /// This server's `Trip` is a `Node`: its answer to a fragment on Node is stored whole
    /// and read back whole, from what the response shows, then by the server's own
    /// introspected schema. (That a loaded plugin's schema, whose `Trip` is no `Node`, does
    /// not decide for another endpoint is NormPluginHostTests'.)
    @Test func aFragmentOnAnInterfaceIsStoredByTheResponseThenByTheIntrospectedSchema() async throws {
        let client = Client(cache: NormalizedCache())
        let query = try client.cache.operation(#"query Nodes { trip(id: "1") { ...N } } fragment N on Node { id }"#)
        var transport = try transport()
        for _ in 0..<2 {
            try client.cache.clear()
            let fetched = try await client.fetch(query, from: transport)
            #expect(fetched.data == ["trip": ["__typename": "Trip", "id": "1"]])
            #expect(client.cache.record("Trip:1")?["id"] == "1")
            let read = try client.cachedResult(of: query, from: transport)
            #expect(read.complete && read.data == fetched.data)
            transport.schemaKnowledge = SchemaKnowledge(possibleTypes: try PossibleTypes(sdl: try await transport.schema()))
        }
    }
}

/// The SDL that `schema()` prints for server.py's schema.
private let expectedSDL = """
    schema {
      query: Query
      mutation: TripMutations
      subscription: Subscription
    }

    scalar Date

    interface Node {
      id: ID!
    }

    type Place implements Node {
      id: ID!
      name: String!
    }

    type Query {
      trips(filter: TripFilter): [Trip!]!
      trip(id: ID!): Trip
      search(text: String!): [SearchResult!]!
      whoami: String
      slow(ms: Int!): Int!
      failing: String
      clientPort: Int!
      renameListeners(id: ID!): Int!
    }

    union SearchResult = Trip | Place

    type Subscription {
      tripRenamed(id: ID): Trip!
      countdown(from: Int!): Int!
      forbidden: Int
    }

    type Trip implements Node {
      id: ID!
      name: String!
      kind: TripKind!
      startsOn: Date
      stops(first: Int = 10): [Place!]!
    }

    input TripFilter {
      kind: TripKind
      nameContains: String
    }

    enum TripKind {
      CITY
      BEACH
      HIKE
      CRUISE @deprecated(reason: "no more cruises")
    }

    type TripMutations {
      renameTrip(id: ID!, name: String!): Trip
      dropSockets: Int!
    }

    """

/// A port of 127.0.0.1 that refuses connections: bound, so that nothing else takes it, but
/// not listening. ``close()`` it in a `defer`.
private struct RefusingPort {
    let number: Int
    private let socketDescriptor: Int32

    init() throws {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(descriptor, address, length) == 0 && getsockname(descriptor, address, &length) == 0
            }
        }
        guard descriptor >= 0, bound else { throw ServerError("cannot bind a socket to 127.0.0.1: errno \(errno)") }
        socketDescriptor = descriptor
        number = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() {
        #if canImport(Glibc)
        _ = Glibc.close(socketDescriptor)
        #else
        _ = Darwin.close(socketDescriptor)
        #endif
    }
}
