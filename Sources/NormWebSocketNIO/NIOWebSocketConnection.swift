import NIOConcurrencyHelpers
import NIOCore
import NIOWebSocket
import NormClient

/// One WebSocket connection over a swift-nio channel: a task reads its frames (text
/// messages go to ``messages``, pings are answered, a close frame is answered and ends
/// it) while ``send(_:)`` writes through the channel's outbound writer.
///
/// ```swift
/// let connection = try await NIOWebSocketConnection.open(channel, subprotocol: "graphql-transport-ws")
/// try await connection.send(#"{"type":"connection_init"}"#)
/// ```
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
final class NIOWebSocketConnection: WebSocketConnection {
    let subprotocol: String?
    let messages: AsyncThrowingStream<String, any Error>
    private let outbound: NIOAsyncChannelOutboundWriter<WebSocketFrame>
    private let channel: any Channel
    private let ending = NIOLockedValueBox<(code: Int?, reason: String?)>((nil, nil))

    private init(subprotocol: String?, messages: AsyncThrowingStream<String, any Error>, outbound: NIOAsyncChannelOutboundWriter<WebSocketFrame>,
                 channel: any Channel) {
        self.subprotocol = subprotocol
        self.messages = messages
        self.outbound = outbound
        self.channel = channel
    }

    var closeCode: Int? { ending.withLockedValue { $0.code } }
    var closeReason: String? { ending.withLockedValue { $0.reason } }

    /// Starts reading `channel` and returns the connection once it can send.
    static func open(_ channel: NIOAsyncChannel<WebSocketFrame, WebSocketFrame>, subprotocol: String?) async throws(TransportError) -> NIOWebSocketConnection {
        let (messages, delivered) = AsyncThrowingStream<String, any Error>.makeStream()
        let connection: NIOWebSocketConnection = await withCheckedContinuation { ready in
            Task {
                do {
                    try await channel.executeThenClose { inbound, outbound in
                        let connection = NIOWebSocketConnection(subprotocol: subprotocol, messages: messages, outbound: outbound,
                                                                channel: channel.channel)
                        ready.resume(returning: connection)
                        try await connection.read(inbound, into: delivered)
                    }
                    delivered.finish()
                } catch {
                    delivered.finish(throwing: error)
                }
            }
        }
        return connection
    }

    private func read(_ inbound: NIOAsyncChannelInboundStream<WebSocketFrame>, into delivered: AsyncThrowingStream<String, any Error>.Continuation) async throws {
        for try await frame in inbound {
            switch frame.opcode {
            case .text, .binary:
                delivered.yield(String(buffer: frame.unmaskedData))
            case .ping:
                try await outbound.write(WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.unmaskedData))
            case .connectionClose:
                var data = frame.unmaskedData
                let code = data.readWebSocketErrorCode().map { Int(UInt16(webSocketErrorCode: $0)) }
                let reason = String(buffer: data)
                ending.withLockedValue { ending in
                    if ending.code == nil { ending = (code, "close \(code.map(String.init) ?? "without a code")" + (reason.isEmpty ? "" : " \(reason)")) }
                }
                try? await outbound.write(WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(),
                                                         data: ByteBuffer(integer: UInt16(code ?? 1000))))
                return
            default:
                break
            }
        }
        ending.withLockedValue { if $0.reason == nil { $0.reason = "the connection closed without a close frame" } }
    }

    func send(_ text: String) async throws(TransportError) {
        do {
            try await outbound.write(WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: ByteBuffer(string: text)))
        } catch {
            throw .connectionLost("\(error)")
        }
    }

    func close(code: Int) async {
        ending.withLockedValue { if $0.code == nil { $0 = (code, "closed by the client (\(code))") } }
        var data = ByteBuffer()
        data.write(webSocketErrorCode: WebSocketErrorCode(codeNumber: code))
        try? await outbound.write(WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: data))
        outbound.finish()
        // A server that never answers the close frame does not keep the connection open.
        let channel = self.channel
        channel.eventLoop.scheduleTask(in: .seconds(2)) { channel.close(promise: nil) }
    }
}
