import Foundation
import NormCache
import NormClient
import Synchronization

/// The subscriptions a session runs (`.subscribe`), numbered from 1, each printing its
/// events as they arrive; and the WebSocket transport they share, one per endpoint URL, so
/// that subscriptions to one server run over one connection as in an app.
///
/// ```swift
/// let running = session.subscriptions.start(subscription, on: transport, printer: printer) { printer.emit(.subscribed(…)) }
/// session.subscriptions.subscription(1)?.events   // 3
/// running.stop(because: "stopped (.unsubscribe)") // the server hears complete
/// ```
final class Subscriptions: Sendable {
    /// One subscription: how many events it has printed, and how it ended.
    final class Running: Sendable {
        let id: Int
        let subscription: ClientSubscription
        let transport: any SubscriptionTransport
        /// Events printed so far, how it ended (nil while it runs), and why it is being stopped.
        private let state = Mutex<(events: Int, ended: End?, stopping: String?)>((0, nil, nil))
        private let printing = Mutex<Task<Void, Never>?>(nil)

        init(id: Int, subscription: ClientSubscription, transport: any SubscriptionTransport) {
            self.id = id
            self.subscription = subscription
            self.transport = transport
        }

        var operation: String? { subscription.operation.name }
        var events: Int { state.withLock { $0.events } }
        /// Why it ended, and whether it failed (the server's error, a lost connection);
        /// nil while it runs.
        var ended: End? { state.withLock { $0.ended } }

        struct End {
            let reason: String
            let failed: Bool
        }

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
                            // Printed before it counts: `.wait` returns once it is on the screen.
                            let number = state.withLock { $0.events } + 1
                            printer.emit(.subscriptionEvent(id: id, operation: operation, number: number, result: result))
                            state.withLock { $0.events = number }
                        case .interrupted(let notice), .resumed(let notice):
                            printer.emit(.warning("subscription \(id): \(notice)"))
                        }
                    }
                } catch {
                    failure = "\(error)"
                }
                let reason = failure ?? state.withLock { $0.stopping } ?? "the server completed it"
                printer.emit(.subscriptionEnded(id: id, operation: operation, events: events, reason: reason, failed: failure != nil))
                state.withLock { $0.ended = End(reason: reason, failed: failure != nil) }
            }
        }

        /// Stops it at the server; `reason` is what its end says.
        func stop(because reason: String) {
            state.withLock { $0.stopping = reason }
            subscription.cancel()
        }
    }

    private let table = Mutex<(running: [Int: Running], lastID: Int, transport: (headers: [String: String], WebSocketTransport)?)>(([:], 0, nil))

    /// The transport to `url` (ws: or wss:) with `headers` on its upgrade request: the one
    /// subscriptions share, or a new one when the endpoint or its headers changed (those
    /// running keep theirs).
    func transport(to url: URL, connector: any WebSocketConnector, headers: [String: String]) -> WebSocketTransport {
        table.withLock { table in
            if let (given, transport) = table.transport, transport.url == url, given == headers { return transport }
            let transport = WebSocketTransport(url: url, connector: connector, headers: headers)
            table.transport = (headers, transport)
            return transport
        }
    }

    /// Numbers `subscription`; `announce` says so, and then its events print.
    @discardableResult
    func start(_ subscription: ClientSubscription, on transport: any SubscriptionTransport, printer: Printer,
               announce: (Running) -> Void) -> Running {
        let running = table.withLock { table in
            table.lastID += 1
            let running = Running(id: table.lastID, subscription: subscription, transport: transport)
            table.running[running.id] = running
            return running
        }
        announce(running)
        running.startPrinting(to: printer)
        return running
    }

    /// The subscriptions still running, by id.
    var active: [Running] { table.withLock { $0.running.values.filter { $0.ended == nil }.sorted { $0.id < $1.id } } }

    /// Subscription `id`, running or ended (`.wait` tells an ended one by its reason).
    func subscription(_ id: Int) -> Running? { table.withLock { $0.running[id] } }
}
