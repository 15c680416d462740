import Foundation

/// Where a plugin's server publishes the events of a subscription field: each value it is
/// given goes to every stream started by ``subscribe()`` and not yet ended. A stream ends
/// when its subscription stops (the host unsubscribes); values published before a stream
/// starts are not in it.
///
/// ```swift
/// actor TripServer {
///     let renamed = Broadcast<[String: any Sendable]>()
///     // in the renameTrip resolver:   renamed.publish(trip.object)
///     // the Subscription resolvers:   ["tripRenamed": { _, _ in self.renamed.subscribe() }]
/// }
/// ```
public final class Broadcast<Value: Sendable>: Sendable {
    private let lock = NSLock()
    private nonisolated(unsafe) var listeners: [UUID: AsyncStream<Value>.Continuation] = [:]

    public init() {}

    /// A stream of the values published from now on.
    public func subscribe() -> AsyncStream<Value> {
        let (values, continuation) = AsyncStream<Value>.makeStream()
        let id = UUID()
        continuation.onTermination = { [weak self] _ in self?.lock.withLock { _ = self?.listeners.removeValue(forKey: id) } }
        lock.withLock { listeners[id] = continuation }
        return values
    }

    /// Hands `value` to every stream.
    public func publish(_ value: Value) {
        for listener in lock.withLock({ Array(listeners.values) }) { listener.yield(value) }
    }
}
