import NormPluginABI
import Foundation
import GraphQL

/// The subscriptions the host started in a plugin (the ABI's `subscribe` and
/// `unsubscribe`), by the `event_context` that names each: each runs its operation on the
/// plugin's executable schema in a task of its own and sends each event's response, then
/// complete or error, until the host unsubscribes.
final class PluginSubscriptions: Sendable {
    private let lock = NSLock()
    private nonisolated(unsafe) var running: [UInt: Subscription] = [:]

    /// Starts `request` on `schema` and returns once it listens (its event source exists, so
    /// what is published from then on is among its events); the events follow.
    func start(_ request: String, on schema: ExecutableSchema<Environment>, context: Environment,
               event: nc_event_fn?, eventContext: UnsafeMutableRawPointer?) {
        let key = UInt(bitPattern: eventContext)
        let subscription = Subscription(event, eventContext)
        lock.withLock { running[key] = subscription }
        let listening = DispatchSemaphore(value: 0)
        subscription.run(Task {
            defer { lock.withLock { if running[key] === subscription { running[key] = nil } } }
            let started = await schema.subscribe(json: request, context: context)
            listening.signal()
            switch started {
            case .failure(let errors):
                subscription.send(NC_EVENT_ERROR, PluginError.json(PluginError(errors.errors.map(\.message).joined(separator: "; "))))
            case .success(let responses):
                do {
                    for try await response in responses {
                        guard subscription.send(NC_EVENT_NEXT, try CodableJSON.encode(response)) else { return }
                    }
                    subscription.send(NC_EVENT_COMPLETE, nil)
                } catch {
                    subscription.send(NC_EVENT_ERROR, PluginError.json(error))
                }
            }
        })
        listening.wait()
    }

    /// Stops the subscription of `eventContext`: once this returns it sends nothing more.
    func stop(_ eventContext: UnsafeMutableRawPointer?) {
        let key = UInt(bitPattern: eventContext)
        lock.withLock { running.removeValue(forKey: key) }?.stop()
    }

    /// One subscription's `nc_event_fn`: sends while open, one event at a time, and never
    /// after complete, error or ``stop()``.
    private final class Subscription: @unchecked Sendable {  // the ABI lets events come from any thread
        private let lock = NSLock()
        private var open = true
        private var task: Task<Void, Never>?
        private let function: nc_event_fn?
        private let context: UnsafeMutableRawPointer?

        init(_ function: nc_event_fn?, _ context: UnsafeMutableRawPointer?) {
            self.function = function
            self.context = context
        }

        /// Keeps the task that sends the events, to cancel it on ``stop()``.
        func run(_ task: Task<Void, Never>) {
            let stopped = lock.withLock {
                self.task = task
                return !open
            }
            if stopped { task.cancel() }
        }

        /// Sends one event; false once the subscription is closed.
        @discardableResult
        func send(_ kind: nc_event_kind, _ json: String?) -> Bool {
            lock.withLock {
                guard open else { return false }
                if kind != NC_EVENT_NEXT { open = false }
                if let json { json.withCString { function?(context, Int32(kind.rawValue), $0) } } else { function?(context, Int32(kind.rawValue), nil) }
                return true
            }
        }

        func stop() {
            lock.withLock {
                open = false
                return task
            }?.cancel()
        }
    }
}
