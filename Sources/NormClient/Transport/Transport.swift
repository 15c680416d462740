import NormCache

/// Where operations are sent: a plugin's in-process server, an HTTP endpoint, or any
/// transport under ``SimulatedNetwork`` conditions.
///
/// A transport answers with the GraphQL response object (`{"data": …, "errors": […]}`);
/// GraphQL errors are part of that response, while a failure to get one at all (offline,
/// an HTTP status, a timeout, a cancelled request) is a thrown ``TransportError``.
///
/// The client asks ``response(to:)``, which the HTTP transport and plugins answer with the
/// JSON text they received, so that the cache writes it from its bytes and the response is
/// read once; a transport that builds its answer as a value implements ``send(_:)`` alone.
///
/// ```swift
/// let transport: any Transport = HTTPTransport(url: URL(string: "http://127.0.0.1:8000/graphql")!)
/// let response = try await transport.send(GraphQLRequest(document: "{ trips { id } }"))
/// response["data"]?["trips"]
/// ```
public protocol Transport: Sendable {
    /// How the endpoint is named in `network` events and messages: a plugin's name or a URL.
    var name: String { get }
    /// Sends one request and returns the GraphQL response object.
    func send(_ request: GraphQLRequest) async throws(TransportError) -> CacheValue
    /// Sends one request and returns the response as it came, which is what the client
    /// asks: by default, the object ``send(_:)`` returns.
    func response(to request: GraphQLRequest) async throws(TransportError) -> TransportResponse
    /// The endpoint's schema as SDL (a plugin's manifest, or introspection over HTTP).
    func schema() async throws(TransportError) -> String
    /// What the endpoint's schema tells the cache about its responses (possible types,
    /// type policies); `nil` when nothing is known, and the cache learns from `__typename`.
    var schemaKnowledge: SchemaKnowledge? { get }
}

extension Transport {
    public var schemaKnowledge: SchemaKnowledge? { nil }

    public func response(to request: GraphQLRequest) async throws(TransportError) -> TransportResponse {
        TransportResponse(try await send(request))
    }
}

/// One GraphQL request: a document, the operation to run in it, and its variables.
///
/// ```swift
/// let request = GraphQLRequest(document: "query Trip($id: ID!) { trip(id: $id) { name } }",
///                              operationName: "Trip", variables: ["id": "2"])
/// JSON.string(request.body)   // {"query":"…","operationName":"Trip","variables":{"id":"2"}}
/// ```
public struct GraphQLRequest: Sendable, Equatable {
    public let document: String
    public let operationName: String?
    public let variables: CacheObject

    public init(document: String, operationName: String? = nil, variables: CacheObject = CacheObject()) {
        self.document = document
        self.operationName = operationName
        self.variables = variables
    }

    /// The request as GraphQL over HTTP sends it.
    public var body: CacheValue {
        var body = CacheObject()
        body["query"] = .string(document)
        if let operationName { body["operationName"] = .string(operationName) }
        body["variables"] = .object(variables)
        return .object(body)
    }

    /// A request read back from its ``body`` (what a plugin's `execute` receives).
    public init(body: CacheValue) throws(TransportError) {
        guard case .string(let document)? = body["query"] else {
            throw .invalidResponse("a request needs \"query\": the document as a string")
        }
        var variables = CacheObject()
        switch body["variables"] {
        case nil, .null?: break
        case .object(let given)?: variables = given
        case let other?: throw .invalidResponse("a request's \"variables\" must be an object, not \(other.kindDescription)")
        }
        var name: String?
        if case .string(let given)? = body["operationName"] { name = given }
        self.init(document: document, operationName: name, variables: variables)
    }
}

/// Why a transport returned no GraphQL response.
public enum TransportError: Error, Equatable, CustomStringConvertible {
    /// The simulated network is offline.
    case offline
    /// The simulated network failed this request on purpose (`.network fail N`).
    case injectedFailure
    /// The request was cancelled (a newer search, new watcher variables, Ctrl-C).
    case cancelled
    /// No response within the timeout, in seconds.
    case timeout(Double)
    /// The server answered with an HTTP status other than 2xx; `body` is the start of its text.
    case http(status: Int, body: String)
    /// The endpoint could not be reached (connection refused, unknown host, …).
    case unreachable(String)
    /// An answer came that is not a GraphQL response (not JSON, not an object, …).
    case invalidResponse(String)
    /// The answer is larger than `limit` bytes, the largest accepted: its Content-Length
    /// `declared` so, or it was still coming when it passed the limit (`declared` nil).
    case tooLarge(url: String, declared: Int?, limit: Int)
    /// The connection broke before the whole answer came: reset, or closed mid-body.
    case connectionLost(String)
    /// A plugin's endpoint failed to answer, with the plugin's own message.
    case plugin(String)
    /// The server ended a subscription with an error, or refused or closed its connection for
    /// the client's fault; the server's message.
    case subscription(String)

    /// The `status` of the `network` event for this failure.
    public var status: String {
        switch self {
        case .offline: "offline"
        case .cancelled: "cancelled"
        default: "error"
        }
    }

    public var description: String {
        switch self {
        case .offline: "the network is offline (.network online reconnects)"
        case .injectedFailure: "the request failed: an injected failure (.network fail)"
        case .cancelled: "the request was cancelled"
        case .timeout(let seconds): "no response within \(seconds.formatted()) s (timed out)"
        case .http(let status, let body): "HTTP error \(status)" + (body.isEmpty ? "" : ": \(body)")
        case .unreachable(let message): "cannot reach the endpoint: \(message)"
        case .invalidResponse(let message): "not a GraphQL response: \(message)"
        case .tooLarge(let url, let declared?, let limit):
            "the response from \(url) is too large: it declares \(byteCount(declared)) (Content-Length), more than the \(byteCount(limit)) a response may be"
        case .tooLarge(let url, nil, let limit):
            "the response from \(url) is too large: it was still coming after \(byteCount(limit)), the most a response may be"
        case .connectionLost(let message): "the connection broke: \(message)"
        case .plugin(let message): message
        case .subscription(let message): "the subscription ended: \(message)"
        }
    }
}

extension Double {
    /// `5` for 5.0, `0.25` for 0.25: seconds as people write them.
    func formatted() -> String { self == rounded() ? String(Int(self)) : String(self) }
}
