import Foundation
import Synchronization

/// Waiting for what a command set off: the session reads its next line only when a
/// command's async work has ended, or Ctrl-C interrupted it.
extension Session {
    /// Runs async work to its end (the workbench reads its next line only then), or
    /// until ``interrupt()`` cancels it: then it throws ``CommandError`` "interrupted".
    /// The work runs on this thread (``WaitingThreadExecutor``): what needs no network is
    /// done without a hand-off to another thread and back.
    func wait<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let box = ResultBox<T>()
        let executor = WaitingThreadExecutor()
        let task = Task(executorPreference: executor) {
            box.result = await Result(catching: body)
            executor.finish()
        }
        running.withLock { $0 = task }
        executor.runUntilFinished()
        let interrupted = running.withLock { running in
            defer { running = nil }
            return running == nil
        }
        if interrupted, case .failure = box.result! { throw CommandError("interrupted") }
        return try box.result!.get()
    }

    /// Ctrl-C: cancels the request or command in flight; the session stays usable and its
    /// next line runs as usual. Safe to call from any thread, e.g. a signal handler's queue.
    package func interrupt() {
        running.withLock { task in
            task?.cancel()
            task = nil
        }
    }

    /// Waits for the fetches and refetches the last command set off; a followed file is
    /// looked at first, so that what another process committed meanwhile (a `.shell`
    /// command's) is reported, and its emissions printed, before the next line.
    func settle() {
        following?.pollNow()
        guard client.isBusy else { return }
        let client = self.client
        _ = try? wait { await client.settle() }
    }
}

private final class ResultBox<T: Sendable>: @unchecked Sendable {
    var result: Result<T, any Error>?
}
