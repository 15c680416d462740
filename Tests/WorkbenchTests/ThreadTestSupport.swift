import Foundation

/// Runs `body` on a thread of its own and returns what it returns. A session blocks while
/// the tasks its commands start run, which must not happen on the few threads that Swift
/// Testing runs tests on.
///
/// ```swift
/// let keys = try await onThread { try Session(output: { _ in }, errors: { _ in }).client.cache.keys() }
/// ```
func onThread<Value>(_ body: @escaping () throws -> Value) async throws -> Value {
    let body = UncheckedBox(value: body)
    return try await withCheckedThrowingContinuation { (done: CheckedContinuation<UncheckedBox<Value>, any Error>) in
        Thread.detachNewThread {
            do { done.resume(returning: UncheckedBox(value: try body.value())) } catch { done.resume(throwing: error) }
        }
    }.value
}

/// Carries a value that is not `Sendable` to and from the thread; only one thread uses it at a time.
private struct UncheckedBox<Value>: @unchecked Sendable { let value: Value }
