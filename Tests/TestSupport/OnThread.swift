import Foundation

/// Runs `body` on a thread of its own and returns what it returns (or throws what it
/// throws). Swift Testing runs tests on a pool of about as many threads as there are
/// cores, so a test that blocks there (a session waiting for the tasks its commands start,
/// a wait for a child process, its output or a file) starves every test beside it, and
/// their timeouts fire. Whatever blocks goes through here.
///
/// ```swift
/// let keys = try await onThread { try Session(output: { _ in }, errors: { _ in }).client.cache.keys() }
/// await onThread { child.process.waitUntilExit() }   // a body that cannot throw needs no `try`
/// ```
package func onThread<Value, Failure: Error>(_ body: @escaping () throws(Failure) -> Value) async throws(Failure) -> Value {
    let body = UncheckedBox(value: body)
    let outcome = await withCheckedContinuation { (done: CheckedContinuation<UncheckedBox<Result<Value, Failure>>, Never>) in
        Thread.detachNewThread { done.resume(returning: UncheckedBox(value: Result { () throws(Failure) in try body.value() })) }
    }
    return try outcome.value.get()
}

/// Carries a value that is not `Sendable` to and from the thread; only one thread uses it at a time.
private struct UncheckedBox<Value>: @unchecked Sendable { let value: Value }
