import NormCache

/// Subscriptions over HTTP, as Apollo Router serves them and Apollo iOS reads them
/// (`subscriptionSpec=1.0`): one POST whose answer is `multipart/mixed`, a part per event.
/// A part `{}` is a heartbeat; `{"payload": {…}}` an event, the response object;
/// `{"payload": null}` nothing; a top-level `errors` ends the subscription with them (it
/// wins over a payload beside it). The time allowed between parts is the transport's
/// `timeout`: Apollo Router sends a heartbeat every 5 seconds.
///
/// ```swift
/// let transport = HTTPTransport(url: URL(string: "https://router.example.com/")!)
/// client.subscriptionEndpoint = transport   // a router without WebSocket
/// ```
extension HTTPTransport: SubscriptionTransport {
    /// What a subscription's request accepts, as Apollo iOS says it.
    static let subscriptionAccept = "multipart/mixed;subscriptionSpec=1.0,application/graphql-response+json,application/json"

    /// Starts the subscription: returns once the server has answered with its head. A
    /// server that answers one JSON response instead is taken at its word: its errors end
    /// the subscription at once, its data is the one event.
    public func subscribe(_ request: GraphQLRequest) async throws(TransportError) -> AsyncThrowingStream<SubscriptionEvent, any Error> {
        let answer = try await answer(to: request, accepting: Self.subscriptionAccept)
        guard let parts = answer.parts else {
            let response = try answer.graphQLResponse()
            if response.member("data") == nil || response.member("data") == .null, let errors = response.member("errors") {
                throw .subscription(subscriptionErrorMessages(errors))
            }
            return AsyncThrowingStream { continuation in
                continuation.yield(.next(response))
                continuation.finish()
            }
        }
        guard answer.spec == .subscriptionSpec else {
            throw .invalidResponse("\(name) answered a subscription with @defer parts (\(answer.contentType)), not subscriptionSpec=1.0")
        }
        let (events, continuation) = AsyncThrowingStream<SubscriptionEvent, any Error>.makeStream()
        let reading = Task {
            do {
                for try await part in parts {
                    if let response = try Self.event(in: part) { continuation.yield(.next(TransportResponse(response))) }
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in reading.cancel() }   // dropping the parts stops the transfer
        return events
    }

    /// The event part `part` carries; nil for a heartbeat or a null payload.
    private static func event(in part: MultipartReader.Part) throws(TransportError) -> CacheValue? {
        if let errors = part.object["errors"] { throw .subscription(subscriptionErrorMessages(errors)) }
        switch part.object["payload"] {
        case nil, .null?: return nil
        case .object(let response)?: return .object(response)
        case let other?: throw .invalidResponse("part \(part.number)'s payload is \(other.kindDescription), not a response object")
        }
    }
}
