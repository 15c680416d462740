import Foundation
import NormCache
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends operations to a GraphQL endpoint over HTTP: a `POST` of the request as JSON,
/// answered by the GraphQL response object.
///
/// GraphQL errors come back inside the response, also when a server answers a request it
/// refuses (a validation error) with a 4xx status and a body of `errors`. Any other status
/// than 2xx, no answer within ``timeout``, an endpoint that cannot be reached, a cancelled
/// task and an answer that is not a JSON object are thrown as ``TransportError``s.
///
/// ```swift
/// var transport = HTTPTransport(url: URL(string: "http://127.0.0.1:8000/graphql")!, timeout: 10)
/// transport.headers.append((name: "Authorization", value: "Bearer 8f2c…"))
/// let response = try await transport.send(GraphQLRequest(document: "{ trips { id name } }"))
/// response["data"]?["trips"]
/// let sdl = try await transport.schema()   // "interface Node {\n  id: ID!\n}\n\ntype Place implements Node {…"
/// ```
public struct HTTPTransport: Transport {
    /// The endpoint every request is posted to.
    public let url: URL
    /// Headers sent with every request, after (and so replacing) `Content-Type` and `Accept`.
    public var headers: [(name: String, value: String)]
    /// Seconds to wait for the server before giving up with ``TransportError/timeout(_:)``.
    public var timeout: TimeInterval
    /// What the endpoint's schema (an introspection result, a schema file) tells the
    /// cache; `nil` until one is known.
    public var schemaKnowledge: SchemaKnowledge?

    /// How many characters of an error status's body ``TransportError/http(status:body:)`` keeps.
    private static let errorBodyLength = 200
    /// One session for every HTTP transport: connections are reused, and nothing (cookies,
    /// cached answers) is kept on disk. Its own timeout is a day, so that only ``timeout``
    /// applies (see `post`).
    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 24 * 60 * 60
        return URLSession(configuration: configuration)
    }()

    public init(url: URL, headers: [(name: String, value: String)] = [], timeout: TimeInterval = 30) {
        self.url = url
        self.headers = headers
        self.timeout = timeout
    }

    public var name: String { url.absoluteString }

    public func send(_ request: GraphQLRequest) async throws(TransportError) -> CacheValue {
        let (status, text) = try await post(JSON.string(request.body))
        switch (status, try? JSON.parse(text)) {
        case (200..<300, .object(let response)?):
            return .object(response)
        case (200..<300, let other?):
            throw .invalidResponse("the body is \(other.kindDescription), not an object")
        case (200..<300, nil):
            throw .invalidResponse(text.isEmpty ? "the body is empty" : "the body is not JSON: \(text.prefix(80))")
        case (400..<500, .object(let response)?) where hasErrorList(response):
            return .object(response)
        default:
            throw .http(status: status, body: String(text.prefix(Self.errorBodyLength)))
        }
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
            var reason = ""
            if case .list(let errors)? = response["errors"], case .string(let message)? = errors.first?["message"] {
                reason = ": " + message
            }
            throw .invalidResponse("the introspection query returned no __schema" + reason)
        }
        return data
    }

    /// Posts `body` and returns the status and the text of the answer, or throws when none
    /// came within ``timeout``. The deadline is kept here, not by URLSession: its timeout is
    /// the longest silence between bytes rather than a deadline, and on Linux it is cut to
    /// whole seconds (1.5 s times out after 1 s, 0.5 s at once).
    private func post(_ body: String) async throws(TransportError) -> (status: Int, text: String) {
        let request = urlRequest(posting: body)
        let answer: (status: Int, text: String)?
        do {
            answer = try await withThrowingTaskGroup(of: (status: Int, text: String)?.self) { group in
                group.addTask { try await Self.load(request) }
                group.addTask {
                    try await Task.sleep(for: .seconds(timeout))
                    return nil
                }
                defer { group.cancelAll() }
                return try await group.next()!
            }
        } catch {
            throw failure(error)
        }
        guard let answer else { throw .timeout(timeout) }
        return answer
    }

    private func urlRequest(posting body: String) -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.httpBody = Data(body.utf8)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }

    private static func load(_ request: URLRequest) async throws -> (status: Int, text: String) {
        let (data, response) = try await session.data(for: request)
        guard let response = response as? HTTPURLResponse else {
            throw TransportError.invalidResponse("\(request.url?.scheme ?? "the URL") did not answer with HTTP")
        }
        return (response.statusCode, String(decoding: data, as: UTF8.self))
    }

    /// The transport error for a failed request.
    private func failure(_ error: any Error) -> TransportError {
        if Task.isCancelled || error is CancellationError { return .cancelled }
        if let error = error as? TransportError { return error }
        guard let error = error as? URLError else { return .unreachable("\(error)") }
        switch error.code {
        case .cancelled: return .cancelled
        case .timedOut: return .timeout(timeout)
        case .cannotConnectToHost: return .unreachable("nothing answers at \(hostAndPort)")
        case .cannotFindHost, .dnsLookupFailed: return .unreachable("unknown host \(url.host ?? "")")
        case .unsupportedURL: return .unreachable("\(url.absoluteString) is not an http or https URL")
        default: return .unreachable("\(hostAndPort): \(error.localizedDescription)")
        }
    }

    private var hostAndPort: String { (url.host ?? "") + (url.port.map { ":\($0)" } ?? "") }
}

/// Whether a response holds an `errors` list: what GraphQL servers answer with a 4xx status
/// to a request they refuse (a document that does not validate, a missing variable).
private func hasErrorList(_ response: CacheObject) -> Bool {
    if case .list? = response["errors"] { return true }
    return false
}
