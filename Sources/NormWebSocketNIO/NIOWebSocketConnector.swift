import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import NormClient

/// WebSocket connections through swift-nio (its HTTP upgrade and frame codec), for a
/// ``WebSocketTransport`` on Linux, where Foundation's `URLSessionWebSocketTask` needs a
/// libcurl with WebSocket support that Debian 12 does not have. ws: only: wss: would need
/// swift-nio-ssl, whose BoringSSL build would double the workbench's; the workbench says
/// so and points to `ws:` on loopback (docs/live.md).
///
/// Fragments are joined into one message (up to `maximumMessageSize`), pings answered, and
/// the server's choice of subprotocol read from its `101 Switching Protocols` answer.
///
/// ```swift
/// let transport = WebSocketTransport(url: URL(string: "ws://127.0.0.1:8000/graphql")!,
///                                    connector: NIOWebSocketConnector())
/// ```
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
package struct NIOWebSocketConnector: WebSocketConnector {
    /// The largest message accepted, in bytes.
    package var maximumMessageSize: Int

    package init(maximumMessageSize: Int = 16 << 20) {
        self.maximumMessageSize = maximumMessageSize
    }

    private enum Upgrade: Sendable {
        case upgraded(NIOAsyncChannel<WebSocketFrame, WebSocketFrame>, subprotocol: String?)
        case refused(NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>)
    }

    package func connect(to url: URL, subprotocols: [String], headers: [String: String]) async throws(TransportError) -> any WebSocketConnection {
        guard let scheme = url.scheme?.lowercased(), scheme == "ws", let host = url.host, !host.isEmpty else {
            throw .unreachable(url.scheme?.lowercased() == "wss"
                ? "\(url.absoluteString): this build connects WebSockets with swift-nio without TLS, so ws: only (wss: works through URLSession on Apple's platforms)"
                : "\(url.absoluteString) is not a ws: URL")
        }
        let port = url.port ?? 80
        var head = HTTPHeaders()
        let hostName = host.contains(":") ? "[\(host)]" : host   // an IPv6 address, bracketed as in a URL
        head.add(name: "Host", value: url.port == nil ? hostName : "\(hostName):\(port)")
        if !subprotocols.isEmpty { head.add(name: "Sec-WebSocket-Protocol", value: subprotocols.joined(separator: ", ")) }
        for (name, value) in headers { head.add(name: name, value: value) }
        // As written in the URL: a path decoded would be sent wrong.
        let path = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? ""
        var target = path.isEmpty ? "/" : path
        if let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery { target += "?\(query)" }
        let request = HTTPRequestHead(version: .http1_1, method: .GET, uri: target, headers: head)
        let maximum = maximumMessageSize

        let upgrade: Upgrade
        do {
            let negotiated: EventLoopFuture<Upgrade> = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(.seconds(10))
                .connect(host: host, port: port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let upgrader = NIOTypedWebSocketClientUpgrader<Upgrade>(maxFrameSize: maximum) { channel, answer in
                            channel.eventLoop.makeCompletedFuture {
                                try channel.pipeline.syncOperations.addHandler(NIOWebSocketFrameAggregator(
                                    minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 1 << 16, maxAccumulatedFrameSize: maximum))
                                let chosen = answer.headers.first(name: "Sec-WebSocket-Protocol")?.trimmingCharacters(in: .whitespaces)
                                return .upgraded(try NIOAsyncChannel(wrappingChannelSynchronously: channel), subprotocol: chosen)
                            }
                        }
                        let configuration = NIOTypedHTTPClientUpgradeConfiguration(upgradeRequestHead: request, upgraders: [upgrader]) { channel in
                            channel.eventLoop.makeCompletedFuture { .refused(try NIOAsyncChannel(wrappingChannelSynchronously: channel)) }
                        }
                        return try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(
                            configuration: .init(upgradeConfiguration: configuration))
                    }
                }
            upgrade = try await negotiated.get()
        } catch {
            throw .unreachable("\(url.absoluteString): \(error)")
        }
        switch upgrade {
        case .upgraded(let channel, let subprotocol):
            return try await NIOWebSocketConnection.open(channel, subprotocol: subprotocol)
        case .refused(let channel):
            throw await Self.refusal(channel, url: url)
        }
    }

    /// The server's answer that was not `101 Switching Protocols`, as an HTTP error.
    private static func refusal(_ channel: NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>, url: URL) async -> TransportError {
        var status = 0
        var body = ""
        try? await channel.executeThenClose { inbound, _ in
            for try await part in inbound {
                switch part {
                case .head(let head): status = Int(head.status.code)
                case .body(let bytes) where body.count < 200: body += String(buffer: bytes)
                case .body: break
                case .end: return
                }
            }
        }
        let said = body.count > 200 ? String(body.prefix(200)) + "…" : body
        return .http(status: status, body: "\(url.absoluteString) refused the WebSocket upgrade" + (said.isEmpty ? "" : ": \(said)"))
    }
}
