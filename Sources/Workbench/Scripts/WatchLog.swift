import Foundation
import NormCache

/// The last emissions of every watcher in the session, for `.expect watch ID #N` and
/// `.expect emissions`; written from the tasks that deliver emissions.
///
/// A long session stays bounded: each watcher keeps its last ``limit`` emissions (the
/// window, `--watch-log N`, `.watchlog N`) and counts the rest. Emission numbers stay
/// absolute: #1 is a watcher's first emission however many have gone.
///
/// ```swift
/// let log = WatchLog(limit: 2)
/// for emission in [first, second, third] { log.append(emission, of: 1) }
/// log.lookup(3, of: 1)   // (emitted: 3, emission: third)
/// log.lookup(1, of: 1)   // (emitted: 3, emission: nil): #1 is older than the window #2–#3
/// ```
final class WatchLog: @unchecked Sendable {
    /// One watcher's window: its last emissions, and how many it made in all.
    private struct Window {
        var emitted = 0
        var ring = Ring<WatchEmission>()

        /// Emission `number` (1 = the first ever), if the ring still holds it.
        func emission(_ number: Int) -> WatchEmission? {
            let offset = number - (emitted - ring.count) - 1
            return offset >= 0 ? ring[offset] : nil
        }

        mutating func append(_ emission: WatchEmission, limit: Int) {
            ring.append(emission, limit: limit)
            emitted += 1
        }
    }

    private let lock = NSLock()
    private var windows: [Int: Window] = [:]
    private var keeps: Int

    /// A log that keeps the last `limit` emissions of each watcher (at least 1).
    init(limit: Int = SessionOptions.defaultWatchLog) { keeps = max(1, limit) }

    /// How many emissions of each watcher are kept. Lowering it drops the oldest at once.
    var limit: Int {
        get { lock.withLock { keeps } }
        set {
            lock.withLock {
                keeps = max(1, newValue)
                for (watcher, window) in windows {
                    windows[watcher] = Window(emitted: window.emitted, ring: Ring(window.ring.elements, limit: keeps))
                }
            }
        }
    }

    func append(_ emission: WatchEmission, of watcher: Int) {
        lock.withLock { windows[watcher, default: Window()].append(emission, limit: keeps) }
    }

    /// How many times `watcher` emitted (0 for one that has not), and its emission
    /// `number` (nil: its last) when the window still holds it, read together.
    func lookup(_ number: Int?, of watcher: Int) -> (emitted: Int, emission: WatchEmission?) {
        lock.withLock {
            guard let window = windows[watcher] else { return (0, nil) }
            return (window.emitted, window.emission(number ?? window.emitted))
        }
    }
}
