import NormCache

/// Where subscriptions run: a connection that delivers each event of a subscription as
/// the server sends it. ``WebSocketTransport`` is the one normcache has (Apollo iOS's
/// `WebSocketTransport`); an app can write its own.
///
/// ```swift
/// let events = try await transport.subscribe(GraphQLRequest(document: "subscription { tripRenamed { id name } }"))
/// for try await event in events {
///     if case .next(let response) = event { print(response.value) }
/// }
/// ```
public protocol SubscriptionTransport: Sendable {
    /// How the endpoint is named in messages: its URL.
    var name: String { get }
    /// Starts a subscription, once the connection is open and the server has acknowledged
    /// it; its events follow until the server completes it (the sequence ends), the server
    /// or the connection fails it (the sequence throws a ``TransportError``), or the caller
    /// stops iterating (the subscription is stopped at the server).
    func subscribe(_ request: GraphQLRequest) async throws(TransportError) -> AsyncThrowingStream<SubscriptionEvent, any Error>
}

/// What a ``SubscriptionTransport`` delivers for one subscription.
///
/// ```swift
/// switch event {
/// case .next(let response): print(response.value["data"] ?? .null)
/// case .interrupted(let message), .resumed(let message): print(message)
/// }
/// ```
public enum SubscriptionEvent: Sendable, Equatable {
    /// One event: the response object the server sent.
    case next(TransportResponse)
    /// The connection dropped and the transport reconnects, as the message says (when, which attempt).
    case interrupted(String)
    /// The transport reconnected and subscribed again.
    case resumed(String)
}

/// The messages of the GraphQL errors that end a subscription (``graphQLErrorMessages(_:)``),
/// joined by "; ": what ``TransportError/subscription(_:)`` says.
func subscriptionErrorMessages(_ errors: CacheValue?) -> String {
    let messages = graphQLErrorMessages(errors)
    return messages.isEmpty ? "(no message)" : messages.joined(separator: "; ")
}
