import Foundation

/// A task executor that runs its task's jobs on the thread that waits for the task: the
/// session's own, blocked in ``Session/wait(_:)`` until a command's async work ends. Work
/// that ends without suspending (a cache-only query, a settle with nothing in flight) runs
/// from start to end on that thread, with no hand-off to Swift's thread pool and back;
/// work that suspends (a request on the network, a timer) comes back to that thread when
/// it resumes. A hand-off costs a wake-up of a sleeping thread each way, tens of µs once
/// the two threads sit on two cores (docs/PERFORMANCE.md, "Where `batch` goes").
///
/// Tasks the work starts with `Task { }` do not inherit the preference: they run on the
/// thread pool, and the executor's thread is not needed for them to finish.
///
/// ```swift
/// let executor = WaitingThreadExecutor()
/// Task(executorPreference: executor) {
///     result = await Result { try await client.fetch(query) }
///     executor.finish()
/// }
/// executor.runUntilFinished()   // the task's jobs run here
/// ```
final class WaitingThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    /// Jobs enqueued and not yet run (guarded by `condition`).
    private var jobs: [UnownedJob] = []
    private var finished = false

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.withLock {
            jobs.append(job)
            condition.signal()
        }
    }

    /// The work is over: ``runUntilFinished()`` returns once no job is left.
    func finish() {
        condition.withLock {
            finished = true
            condition.signal()
        }
    }

    /// Runs the jobs on the calling thread as they come, until ``finish()``.
    func runUntilFinished() {
        while true {
            let batch = condition.withLock { () -> [UnownedJob] in
                while jobs.isEmpty && !finished { condition.wait() }
                defer { jobs.removeAll(keepingCapacity: true) }
                return jobs
            }
            if batch.isEmpty { return }   // finished, and nothing left to run
            for job in batch { job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
    }
}
