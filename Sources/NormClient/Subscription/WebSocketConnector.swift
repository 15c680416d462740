import Foundation

/// Opens WebSocket connections for a ``WebSocketTransport``: the one thing it needs of a
/// WebSocket library. ``URLSessionWebSocketConnector`` is Foundation's (Apple's platforms);
/// the workbench and the tests on Linux use swift-nio's (the `NormWebSocketNIO` target), since
/// Linux's FoundationNetworking speaks WebSocket only over a libcurl built with it.
///
/// ```swift
/// let connection = try await connector.connect(to: url, subprotocols: ["graphql-transport-ws", "graphql-ws"])
/// connection.subprotocol            // "graphql-transport-ws": the one the server chose
/// try await connection.send(#"{"type":"connection_init"}"#)
/// for try await text in connection.messages { print(text) }
/// ```
public protocol WebSocketConnector: Sendable {
    /// Connects to `url` (ws: or wss:), offering `subprotocols` in order of preference, with
    /// `headers` on the upgrade request. Throws ``TransportError/unreachable(_:)`` when nothing
    /// answers, ``TransportError/http(status:body:)`` when the server refuses the upgrade.
    func connect(to url: URL, subprotocols: [String], headers: [String: String]) async throws(TransportError) -> any WebSocketConnection
}

/// One open WebSocket connection: the text messages that arrive (fragments joined), and
/// sending and closing. The `messages` sequence ends when the connection closes; its
/// ``closeReason`` then says how.
public protocol WebSocketConnection: Sendable {
    /// The subprotocol the server chose in its answer to the upgrade; nil when it named none.
    var subprotocol: String? { get }
    /// Each text message as it arrives; the sequence ends when the connection closes, and
    /// throws when it broke.
    var messages: AsyncThrowingStream<String, any Error> { get }
    /// The close frame's code, once `messages` has ended; nil when none came (the
    /// connection broke).
    var closeCode: Int? { get }
    /// How the connection ended, once `messages` has: the close frame's code and reason, or
    /// what broke it.
    var closeReason: String? { get }
    func send(_ text: String) async throws(TransportError)
    /// Sends a close frame with `code` and closes; `messages` ends.
    func close(code: Int) async
}
