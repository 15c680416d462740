import Foundation
import NormCache

/// Following the cache file the session is over while another process writes it
/// (`.follow on`, `normcache inspect --follow`): a thread of its own asks the
/// ``StoreFollower`` every ``interval`` whether anything was committed, and prints what
/// changed (a `follow` event) before the watchers' emissions it causes, which print as any
/// other's. A script also looks once after each command (``pollNow()``), so that what a
/// command's process wrote is reported before the next line runs. When the file goes
/// (deleted, replaced, its write-ahead log reset, unreadable), a warning names it and
/// following stops; the session goes on over what it had read.
///
/// ```swift
/// let following = try Following(cache: cache, printer: printer)!   // nil: the cache is in memory
/// // another process commits; within ~50 ms: follow /tmp/app.sqlite 1 record changed …
/// following.stop()
/// ```
package final class Following: @unchecked Sendable {
    /// How often the thread looks: `PRAGMA data_version` costs microseconds, so looking
    /// often keeps the time to notice a commit well under 250 ms (`bench follow.lag`'s
    /// baseline polls as often).
    package static let interval: TimeInterval = 0.05

    let follower: StoreFollower
    private let printer: Printer
    private let condition = NSCondition()
    /// Set by ``stop()`` or a failed look (guarded by `condition`); `ended` once the thread is done.
    private var stopped = false
    private var ended = false

    /// Starts following the file `cache` is over, after a first look on the calling thread
    /// (what the cache had read and the file no longer holds as it was reloads and prints
    /// now); nil when it is over no file. Throws when the file cannot be read.
    init?(cache: NormalizedCache, printer: Printer) throws {
        guard let follower = try StoreFollower(cache: cache) else { return nil }
        self.follower = follower
        self.printer = printer
        try look()
        let thread = Thread { [self] in run() }
        thread.name = "normcache follow"
        thread.start()
    }

    var file: String { follower.path }

    /// Whether it still follows (it stops when the file goes).
    var isActive: Bool { condition.withLock { !stopped } }

    /// Looks once, now, on the calling thread (after a polling thread's look in progress).
    func pollNow() {
        guard isActive else { return }
        lookOrStop()
    }

    /// Stops the thread, waiting for a look in progress to end.
    func stop() {
        condition.withLock {
            stopped = true
            condition.broadcast()
            while !ended { condition.wait() }
        }
    }

    private func run() {
        condition.lock()
        while !stopped {
            _ = condition.wait(until: Date(timeIntervalSinceNow: Self.interval))
            if stopped { break }
            condition.unlock()
            lookOrStop()
            condition.lock()
        }
        ended = true
        condition.broadcast()
        condition.unlock()
    }

    /// One look: what changed is printed, and pushed out of the process's output.
    private func look() throws {
        let printer = self.printer, file = self.file
        let change = try follower.poll { change in
            if !change.changed.isEmpty || !change.removed.isEmpty { printer.emit(.follow(file: file, change: change)) }
        }
        guard let change else { return }
        for row in change.unreadable {
            printer.emit(.warning("\(file): record \(row.key) no longer reads as a record (\(row.problem)); the cache keeps it as it was"))
        }
        printer.flush()
    }

    /// ``look()``; a file gone stops following, with a warning.
    private func lookOrStop() {
        do { try look() } catch {
            let wasActive = condition.withLock {
                defer { stopped = true }
                return !stopped
            }
            guard wasActive else { return }
            printer.emit(.warning("\(error); following stopped (the session keeps what it had read)"))
            printer.flush()
        }
    }
}
