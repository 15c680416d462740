import Foundation
import NormCache
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends operations to a GraphQL endpoint over HTTP: a `POST` of the request as JSON,
/// answered by the GraphQL response object, or by one in parts (`@defer`), which it
/// accepts as Apollo iOS does (``accept``): the first part is the response, with the rest
/// to come (``TransportResponse``'s `later`, framed by `MultipartReader`).
///
/// GraphQL errors come back inside the response, also when a server answers a request it
/// refuses (a validation error) with a 4xx status and a body of `errors`. Everything else
/// is a thrown ``TransportError`` that says what came instead (``HTTPAnswer``): another
/// status (with the GraphQL errors of its body, if any), a body that is not JSON or whose
/// JSON is cut short, a body larger than ``maximumResponseSize``, a connection reset or
/// closed mid-body, no whole answer within ``timeout``, an endpoint that cannot be
/// reached, a cancelled task.
///
/// On Darwin a transport's requests, and its copies', share one URLSession and so its
/// connections; an app may hand it its own session (``init(url:session:headers:timeout:maximumResponseSize:)``).
///
/// ```swift
/// var transport = HTTPTransport(url: URL(string: "http://127.0.0.1:8000/graphql")!, timeout: 10)
/// transport.headers.append((name: "Authorization", value: "Bearer 8f2c…"))
/// let response = try await transport.send(GraphQLRequest(document: "{ trips { id name } }"))
/// response["data"]?["trips"]
/// let sdl = try await transport.schema()   // "interface Node {\n  id: ID!\n}\n\ntype Place implements Node {…"
/// ```
public struct HTTPTransport: Transport {
    /// URLSession's own default: a minute.
    public static let defaultTimeout: TimeInterval = 60
    /// 32 MiB: a client's GraphQL response is kilobytes, a large one a few megabytes. A body
    /// beyond this is a server gone wrong (an endless stream, a dump), refused before it
    /// fills the memory; the cache would hold several times its size once parsed.
    public static let defaultMaximumResponseSize = 32 << 20

    /// The endpoint every request is posted to.
    public let url: URL
    /// Headers sent with every request, after (and so replacing) `Content-Type` and `Accept`.
    public var headers: [(name: String, value: String)]
    /// Seconds to wait for the whole answer, or for an answer in parts the next part, before
    /// giving up with ``TransportError/timeout(_:)``.
    public var timeout: TimeInterval
    /// The largest body accepted, in bytes, or for an answer in parts the largest part; a
    /// larger one is refused with ``TransportError/tooLarge(url:size:limit:)``.
    public var maximumResponseSize: Int
    /// What the endpoint's schema (an introspection result, a schema file) tells the
    /// cache; `nil` until one is known.
    public var schemaKnowledge: SchemaKnowledge?
    /// The URLSession requests go through, shared by the copies of this transport.
    private let sessions: HTTPSession

    /// A transport that posts to `url`, through `session` when the app gives one: its
    /// configuration, its delegate (authentication challenges, certificate pinning) and its
    /// connections serve the requests, and it stays the app's, never invalidated by the
    /// transport. Without one the transport uses an ephemeral session of its own (on Linux,
    /// one a request; docs/reliability.md).
    ///
    /// ```swift
    /// let configuration = URLSessionConfiguration.default
    /// configuration.httpAdditionalHeaders = ["User-Agent": "Trips/2.4"]
    /// let session = URLSession(configuration: configuration, delegate: pinning, delegateQueue: nil)
    /// let transport = HTTPTransport(url: URL(string: "https://api.example.com/graphql")!, session: session)
    /// let client = Client(cache: NormalizedCache(), endpoint: transport)
    /// ```
    public init(url: URL, session: URLSession? = nil, headers: [(name: String, value: String)] = [],
                timeout: TimeInterval = Self.defaultTimeout, maximumResponseSize: Int = Self.defaultMaximumResponseSize) {
        self.url = url
        self.headers = headers
        self.timeout = timeout
        self.maximumResponseSize = maximumResponseSize
        sessions = HTTPSession(session)
    }

    public var name: String { url.absoluteString }

    /// What every request accepts, as Apollo iOS says it for queries and mutations: an
    /// answer in parts (`@defer`, read by ``MultipartReader``), or one JSON response.
    static let accept = "multipart/mixed;deferSpec=20220824,application/graphql-response+json,application/json"

    /// The whole response: for an answer in parts (`@defer`), once its last part came, the
    /// parts merged.
    public func send(_ request: GraphQLRequest) async throws(TransportError) -> CacheValue {
        var response = try await response(to: request)
        while let later = response.later, let next = try await later.next() { response = next }
        return response.value
    }

    /// Sends one request and returns the body of the answer, checked to be a GraphQL
    /// response (``HTTPAnswer``) and read once: the client writes it into the cache from
    /// its bytes.
    public func response(to request: GraphQLRequest) async throws(TransportError) -> TransportResponse {
        try await answer(to: request, accepting: Self.accept).firstResponse()
    }

    /// The answer to `request` from its head on, accepting `accept` (``accept``, or for a
    /// subscription ``subscriptionAccept``): a whole body, or parts still to come.
    func answer(to request: GraphQLRequest, accepting accept: String) async throws(TransportError) -> HTTPAnswer {
        try await HTTPExchange.run(urlRequest(posting: JSON.string(request.body), accepting: accept), on: sessions, timeout: timeout,
                                   limit: maximumResponseSize)
    }

    /// The endpoint's schema as SDL, printed from ``introspect()``.
    public func schema() async throws(TransportError) -> String {
        try IntrospectionSchema.sdl(from: try await introspect())
    }

    /// The `data` of the standard introspection query (`{"__schema": {"types": […], …}}`),
    /// as ``PossibleTypes/init(introspection:)`` reads it.
    public func introspect() async throws(TransportError) -> CacheValue {
        let response = try await send(GraphQLRequest(document: IntrospectionSchema.query, operationName: "IntrospectionQuery"))
        guard let data = response["data"], case .object? = data["__schema"] else {
            let reason = graphQLErrorMessages(response["errors"]).first.map { ": " + $0 } ?? ""
            throw .invalidResponse("the introspection query returned no __schema" + reason)
        }
        return data
    }

    private func urlRequest(posting body: String, accepting accept: String) -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.httpBody = Data(body.utf8)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(accept, forHTTPHeaderField: "Accept")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }
}
