import Foundation
import NormCache
@testable import NormClient
import Testing

/// A connection that stops saying anything (a half-open TCP connection, a server that hangs)
/// is pinged, then taken for dropped and reconnected, with no network: an in-memory server
/// that acknowledges and then is silent.
struct WebSocketKeepAliveTests {
    /// Acknowledges `connection_init`, and answers nothing else.
    final class SilentServer: WebSocketConnector, @unchecked Sendable {
        private let lock = NSLock()
        private var opened: [Connection] = []
        var connections: [Connection] { lock.withLock { opened } }

        func connect(to url: URL, subprotocols: [String], headers: [String: String]) async throws(TransportError) -> any WebSocketConnection {
            let connection = Connection()
            lock.withLock { opened.append(connection) }
            return connection
        }

        final class Connection: WebSocketConnection, @unchecked Sendable {
            let subprotocol: String? = "graphql-transport-ws"
            let messages: AsyncThrowingStream<String, any Error>
            private let incoming: AsyncThrowingStream<String, any Error>.Continuation
            private let lock = NSLock()
            private var said: [String] = []
            private var code: Int?

            init() { (messages, incoming) = AsyncThrowingStream.makeStream() }

            var sent: [String] { lock.withLock { said } }
            var closeCode: Int? { lock.withLock { code } }
            var closeReason: String? { closeCode.map { "close \($0)" } }

            func send(_ text: String) async throws(TransportError) {
                lock.withLock { said.append(text) }
                if text.contains("connection_init") { incoming.yield(#"{"type":"connection_ack"}"#) }
            }

            func close(code: Int) async {
                lock.withLock { self.code = self.code ?? code }
                incoming.finish()
            }
        }
    }

    @Test func aSilentConnectionIsPingedThenDroppedAndReconnected() async throws {
        let server = SilentServer()
        let transport = WebSocketTransport(url: URL(string: "ws://silent.example/graphql")!, connector: server,
                                           backoff: ReconnectBackoff(initial: .milliseconds(10)), keepAlive: .milliseconds(100))
        var events = try await transport.subscribe(GraphQLRequest(document: "subscription { a }")).makeAsyncIterator()
        guard case .interrupted(let notice)? = try await events.next() else { Issue.record("no interruption"); return }
        #expect(notice.contains("dropped (no answer to a ping within 0.1 seconds); reconnecting in 0.01 seconds (attempt 1)"))
        guard case .resumed? = try await events.next() else { Issue.record("no resumption"); return }
        let connections = server.connections
        #expect(connections.count == 2)
        #expect(connections.first?.sent.contains(#"{"type":"ping"}"#) == true, "pinged before it was given up")
        #expect(connections.first?.closeCode == 1001)
        #expect(connections.last?.sent.last == #"{"id":"1","type":"subscribe","payload":{"query":"subscription { a }","variables":{}}}"#,
                "subscribed again with its id")
        await transport.close()
    }

    @Test func withoutKeepAliveASilentConnectionStays() async throws {
        let server = SilentServer()
        let transport = WebSocketTransport(url: URL(string: "ws://silent.example/graphql")!, connector: server, keepAlive: nil)
        let events = try await transport.subscribe(GraphQLRequest(document: "subscription { a }"))
        try await Task.sleep(for: .milliseconds(300))
        #expect(server.connections.count == 1)
        #expect(server.connections.first?.sent.contains(#"{"type":"ping"}"#) == false)
        #expect(server.connections.first?.closeCode == nil)
        withExtendedLifetime(events) {}   // held: a subscription whose events are dropped is stopped
        await transport.close()
    }
}
