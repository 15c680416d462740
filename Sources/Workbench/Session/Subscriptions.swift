import Foundation
import NormCache
import NormClient
import Synchronization

/// The subscriptions a session runs (`.subscribe`), numbered from 1, each printing its
/// events as they arrive; and the WebSocket transport they share, one per endpoint URL, so
/// that subscriptions to one server run over one connection as in an app.
///
/// ```swift
/// let running = session.subscriptions.start(subscription, on: transport, printer: printer)
/// session.subscriptions.subscription(1)?.events   // 3
/// running.stop()                                  // the server hears complete
/// ```
final class Subscriptions: Sendable {
    /// One subscription: how many events it has printed, and how it ended.
    final class Running: Sendable {
        let id: Int
        let subscription: ClientSubscription
        let transport: WebSocketTransport
        private let state = Mutex<(events: Int, ended: String?, stopping: Bool)>((0, nil, false))
        private let printing = Mutex<Task<Void, Never>?>(nil)

        init(id: Int, subscription: ClientSubscription, transport: WebSocketTransport) {
            self.id = id
            self.subscription = subscription
            self.transport = transport
        }

        var operation: String? { subscription.operation.name }
        var events: Int { state.withLock { $0.events } }
        /// Why it ended; nil while it runs.
        var ended: String? { state.withLock { $0.ended } }

        /// Returns once the subscription has ended and said so.
        func ended() async { await printing.withLock { $0 }?.value }

        /// Prints each update as it comes, then how the subscription ended.
        fileprivate func startPrinting(to printer: Printer) {
            printing.withLock { $0 = printingTask(printer) }
        }

        private func printingTask(_ printer: Printer) -> Task<Void, Never> {
            Task {
                var failure: String?
                do {
                    for try await update in subscription {
                        switch update {
                        case .result(let result):
                            let number = state.withLock { state in
                                state.events += 1
                                return state.events
                            }
                            printer.emit(.subscriptionEvent(id: id, operation: operation, number: number, result: result))
                        case .interrupted(let notice), .resumed(let notice):
                            printer.emit(.warning("subscription \(id): \(notice)"))
                        }
                    }
                } catch {
                    failure = "\(error)"
                }
                let reason = state.withLock { state in
                    state.ended = failure ?? (state.stopping ? "stopped (.unsubscribe)" : "the server completed it")
                    return state.ended!
                }
                printer.emit(.subscriptionEnded(id: id, operation: operation, events: events, reason: reason, failed: failure != nil))
            }
        }

        func stop() {
            state.withLock { $0.stopping = true }
            subscription.cancel()
        }
    }

    private let table = Mutex<(running: [Int: Running], lastID: Int, transport: WebSocketTransport?)>(([:], 0, nil))

    /// The transport to `url` (ws: or wss:): the one subscriptions share, or a new one when
    /// the endpoint changed.
    func transport(to url: URL, connector: any WebSocketConnector, headers: [String: String]) -> WebSocketTransport {
        table.withLock { table in
            if let transport = table.transport, transport.url == url { return transport }
            let transport = WebSocketTransport(url: url, connector: connector, headers: headers)
            table.transport = transport
            return transport
        }
    }

    /// Numbers `subscription` and starts printing its events.
    @discardableResult
    func start(_ subscription: ClientSubscription, on transport: WebSocketTransport, printer: Printer) -> Running {
        let running = table.withLock { table in
            table.lastID += 1
            let running = Running(id: table.lastID, subscription: subscription, transport: transport)
            table.running[running.id] = running
            return running
        }
        running.startPrinting(to: printer)
        return running
    }

    /// The subscriptions still running, by id.
    var active: [Running] { table.withLock { $0.running.values.filter { $0.ended == nil }.sorted { $0.id < $1.id } } }

    /// Subscription `id`, running or ended (`.wait` tells an ended one by its reason).
    func subscription(_ id: Int) -> Running? { table.withLock { $0.running[id] } }
}
