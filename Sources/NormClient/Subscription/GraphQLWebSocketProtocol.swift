import NormCache

/// The two subprotocols GraphQL subscriptions run over WebSocket, as Apollo iOS speaks them:
/// `graphql-transport-ws` (the graphql-ws library's, today's) and `graphql-ws`
/// (subscriptions-transport-ws, the older one). The one owner of their message shapes.
///
/// ```swift
/// let dialect = GraphQLWebSocketProtocol.transportWS
/// dialect.subscribe(id: "1", request.body)        // {"id":"1","type":"subscribe","payload":{…}}
/// try dialect.message(#"{"type":"next","id":"1","payload":{"data":{}}}"#)   // .next(id: "1", …)
/// ```
public enum GraphQLWebSocketProtocol: String, Sendable, CaseIterable {
    case transportWS = "graphql-transport-ws"
    case legacyWS = "graphql-ws"

    /// What a server sends, read into the few things a client does with it.
    enum ServerMessage: Equatable {
        case connectionAck
        /// A ping (`graphql-transport-ws`) that wants a pong.
        case ping
        /// Nothing to do: a pong, a keep-alive (`ka`).
        case keepAlive
        /// An event of subscription `id`: its response object.
        case next(id: String, payload: CacheValue)
        /// Subscription `id` failed, with the server's messages.
        case error(id: String, message: String)
        case complete(id: String)
        /// The server refused the connection (`connection_error`, graphql-ws).
        case connectionError(String)
    }

    func connectionInit(payload: CacheObject?) -> String {
        var message: CacheObject = ["type": .string("connection_init")]
        if let payload { message["payload"] = .object(payload) }
        return JSON.string(.object(message))
    }

    func subscribe(id: String, _ body: CacheValue) -> String {
        let type = self == .transportWS ? "subscribe" : "start"
        return JSON.string(.object(["id": .string(id), "type": .string(type), "payload": body]))
    }

    func stop(id: String) -> String {
        JSON.string(.object(["id": .string(id), "type": .string(self == .transportWS ? "complete" : "stop")]))
    }

    var pong: String { #"{"type":"pong"}"# }
    /// A client's ping (`graphql-transport-ws` only: `graphql-ws` has none; its server sends `ka`).
    var ping: String { #"{"type":"ping"}"# }

    /// The message `text`, or a thrown ``TransportError/invalidResponse(_:)`` naming what is
    /// wrong with it (not JSON, no type, a type this subprotocol does not have).
    func message(_ text: String) throws(TransportError) -> ServerMessage {
        let value: CacheValue
        do { value = try JSON.parse(text) } catch { throw .invalidResponse("a \(rawValue) message that is not JSON (\(error)): \(Self.excerpt(text))") }
        guard case .string(let type)? = value["type"] else {
            throw .invalidResponse("a \(rawValue) message without a \"type\": \(Self.excerpt(text))")
        }
        let id: String? = if case .string(let id)? = value["id"] { id } else { nil }
        switch (type, id) {
        case ("connection_ack", _): return .connectionAck
        case ("ping", _) where self == .transportWS: return .ping
        case ("pong", _) where self == .transportWS, ("ka", _) where self == .legacyWS: return .keepAlive
        case ("next", let id?) where self == .transportWS, ("data", let id?) where self == .legacyWS:
            guard let payload = value["payload"], case .object = payload else {
                throw .invalidResponse("a \(type) message whose payload is not a response object: \(Self.excerpt(text))")
            }
            return .next(id: id, payload: payload)
        case ("error", let id?):
            return .error(id: id, message: subscriptionErrorMessages(value["payload"]))
        case ("complete", let id?): return .complete(id: id)
        case ("connection_error", _) where self == .legacyWS: return .connectionError(subscriptionErrorMessages(value["payload"]))
        default:
            throw .invalidResponse("a message \(rawValue) does not have (type \"\(type)\"\(id == nil ? ", no id" : "")): \(Self.excerpt(text))")
        }
    }

    private static func excerpt(_ text: String) -> String {
        text.count > 200 ? String(text.prefix(200)) + "…" : text
    }
}
