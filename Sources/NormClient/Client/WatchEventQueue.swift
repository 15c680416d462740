import Foundation

/// Hands the client's watch events to their callbacks on a serial queue of its own, in
/// the order they happened: the write or commit that caused an event returns without
/// waiting for its callback, however slow, and every watcher hears its events in order
/// (one queue per client, so events of different watchers keep their order too).
///
/// ```swift
/// let events = WatchEventQueue()
/// events.deliver { print("emission 2") }   // returns at once
/// await events.drain()                      // every event queued so far was handed over
/// ```
final class WatchEventQueue: @unchecked Sendable {
    private let queue = DispatchQueue(label: "normcache.client.watch-events")
    /// Set on `queue`, so a call can tell it comes from a callback.
    private let onQueue = DispatchSpecificKey<Bool>()
    private let lock = NSLock()
    /// Events queued and not yet handed over (guarded by `lock`).
    private var waiting = 0

    init() { queue.setSpecific(key: onQueue, value: true) }

    /// Queues `delivery`, which calls a callback with an event.
    func deliver(_ delivery: @escaping @Sendable () -> Void) {
        lock.withLock { waiting += 1 }
        queue.async {
            delivery()
            self.lock.withLock { self.waiting -= 1 }
        }
    }

    /// True while an event waits for its callback, or its callback runs.
    var isBusy: Bool { lock.withLock { waiting > 0 } }

    /// Waits until every event queued before the call has been handed over. A callback
    /// must not call it: it would wait for itself.
    func drain() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in queue.async { continuation.resume() } }
    }

    /// Blocks until every event queued before the call has been handed over; returns at
    /// once when called from a callback, which would otherwise wait for itself.
    func drainNow() {
        guard DispatchQueue.getSpecific(key: onQueue) == nil else { return }
        queue.sync {}
    }
}
