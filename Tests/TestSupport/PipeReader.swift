import Foundation

/// Everything read from a child process's output pipe so far, read on a thread of its own
/// so that a child writing a lot never blocks on a full pipe. The read end is closed once
/// the pipe ends.
///
/// ```swift
/// let output = privatePipe()
/// process.standardOutput = output
/// let reader = PipeReader(output)
/// try process.run()
/// if await reader.wait(timeout: 10, until: { $0.contains("ready") }) { print(reader.text) }
/// ```
package final class PipeReader: @unchecked Sendable {
    private let lock = NSCondition()
    private var data = Data()
    private var ended = false

    package init(_ pipe: Pipe) {
        let handle = pipe.fileHandleForReading
        Thread.detachNewThread { [self] in
            while true {
                let chunk = handle.availableData
                lock.lock()
                if chunk.isEmpty { ended = true } else { data.append(chunk) }
                lock.broadcast()
                lock.unlock()
                if chunk.isEmpty {
                    try? handle.close()
                    return
                }
            }
        }
    }

    /// The output read so far, as UTF-8.
    package var text: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: data, as: UTF8.self)
    }

    /// Waits until the text read so far satisfies `condition`, or the pipe ends, or
    /// `timeout` passes; whether it did. On a thread of its own (``onThread(_:)``).
    @discardableResult
    package func wait(timeout: TimeInterval, until condition: @escaping (String) -> Bool) async -> Bool {
        await onThread { self.waitHere(timeout: timeout, until: condition) }
    }

    /// ``wait(timeout:until:)`` on the calling thread.
    @discardableResult
    package func waitHere(timeout: TimeInterval, until condition: (String) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        lock.lock()
        defer { lock.unlock() }
        while true {
            if condition(String(decoding: data, as: UTF8.self)) { return true }
            if ended || !lock.wait(until: deadline) { return condition(String(decoding: data, as: UTF8.self)) }
        }
    }

    /// Waits on the calling thread until the pipe ends or `timeout` passes; whether it ended.
    package func waitForEnd(timeout: TimeInterval) -> Bool {
        _ = waitHere(timeout: timeout) { _ in false }
        lock.lock()
        defer { lock.unlock() }
        return ended
    }
}
