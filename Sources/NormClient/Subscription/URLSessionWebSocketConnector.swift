import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// WebSocket connections through Foundation's `URLSessionWebSocketTask`: what an app on
/// Apple's platforms uses, as Apollo iOS does. On Linux, FoundationNetworking speaks
/// WebSocket only when its libcurl has it (7.86 or later, built with ws and wss); where it
/// does not (Debian 12's), connecting fails saying so, and the workbench uses swift-nio's
/// connector instead (`NormWebSocketNIO`).
///
/// ```swift
/// let transport = WebSocketTransport(url: URL(string: "wss://api.example.com/graphql")!,
///                                    connector: URLSessionWebSocketConnector())
/// ```
public struct URLSessionWebSocketConnector: WebSocketConnector {
    /// The largest message accepted, in bytes.
    public var maximumMessageSize: Int

    public init(maximumMessageSize: Int = 16 << 20) {
        self.maximumMessageSize = maximumMessageSize
    }

    public func connect(to url: URL, subprotocols: [String], headers: [String: String]) async throws(TransportError) -> any WebSocketConnection {
        let opening = Opening()
        let session = URLSession(configuration: .ephemeral, delegate: opening, delegateQueue: nil)
        var request = URLRequest(url: url)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.setValue(subprotocols.joined(separator: ", "), forHTTPHeaderField: "Sec-WebSocket-Protocol")
        let task = session.webSocketTask(with: request)
        task.maximumMessageSize = maximumMessageSize
        do {
            let chosen = try await withCheckedThrowingContinuation { continuation in
                opening.start(continuation)
                task.resume()
            }
            return Connection(task: task, session: session, subprotocol: chosen)
        } catch {
            session.invalidateAndCancel()
            throw Self.transportError(error, url: url)
        }
    }

    private static func transportError(_ error: any Error, url: URL) -> TransportError {
        guard let error = error as? URLError else { return .unreachable("\(url.absoluteString): \(error)") }
        switch error.code {
        case .unsupportedURL:
            return .unreachable("\(url.absoluteString): this Foundation cannot open WebSockets (on Linux its libcurl needs ws support, 7.86 or later)")
        case .cannotConnectToHost: return .unreachable("nothing answers at \(url.host ?? "")\(url.port.map { ":\($0)" } ?? "")")
        case .cannotFindHost, .dnsLookupFailed: return .unreachable("unknown host \(url.host ?? "")")
        case .badServerResponse: return .http(status: 0, body: "\(url.absoluteString) refused the WebSocket upgrade")
        default: return .unreachable("\(url.absoluteString): \(error.localizedDescription)")
        }
    }

    /// Waits for the task to open (with the subprotocol the server chose) or to fail.
    private final class Opening: NSObject, URLSessionWebSocketDelegate, @unchecked Sendable {
        private let lock = NSLock()
        private var continuation: CheckedContinuation<String?, any Error>?

        func start(_ continuation: CheckedContinuation<String?, any Error>) {
            lock.withLock { self.continuation = continuation }
        }

        private func finish(_ result: Result<String?, any Error>) {
            lock.withLock {
                defer { continuation = nil }
                return continuation
            }?.resume(with: result)
        }

        func urlSession(_ session: URLSession, webSocketTask: URLSessionWebSocketTask, didOpenWithProtocol chosen: String?) {
            finish(.success(chosen.flatMap { $0.isEmpty ? nil : $0 }))
        }

        func urlSession(_ session: URLSession, webSocketTask: URLSessionWebSocketTask,
                        didCloseWith closeCode: URLSessionWebSocketTask.CloseCode, reason: Data?) {
            finish(.failure(URLError(.networkConnectionLost)))   // nothing once open: the connection's receive hears it
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            finish(.failure(error ?? URLError(.badServerResponse)))
        }
    }

    private final class Connection: WebSocketConnection, @unchecked Sendable {
        let subprotocol: String?
        let messages: AsyncThrowingStream<String, any Error>
        private let task: URLSessionWebSocketTask
        private let session: URLSession

        init(task: URLSessionWebSocketTask, session: URLSession, subprotocol: String?) {
            self.task = task
            self.session = session
            self.subprotocol = subprotocol
            messages = AsyncThrowingStream { [task] in
                switch try await task.receive() {
                case .string(let text): return text
                case .data(let data): return String(decoding: data, as: UTF8.self)
                @unknown default: return nil
                }
            }
        }

        var closeCode: Int? { task.closeCode == .invalid ? nil : task.closeCode.rawValue }

        var closeReason: String? {
            guard let code = closeCode else { return task.error.map { "\($0.localizedDescription)" } }
            let reason = task.closeReason.map { String(decoding: $0, as: UTF8.self) } ?? ""
            return "close \(code)" + (reason.isEmpty ? "" : " \(reason)")
        }

        func send(_ text: String) async throws(TransportError) {
            do { try await task.send(.string(text)) } catch { throw .connectionLost("\(error.localizedDescription)") }
        }

        func close(code: Int) async {
            task.cancel(with: URLSessionWebSocketTask.CloseCode(rawValue: code) ?? .normalClosure, reason: nil)
            session.finishTasksAndInvalidate()
        }
    }
}
