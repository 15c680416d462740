/// Waits for what happens in a task of its own (a request's end logged, a watcher's
/// emission delivered): polls a condition every 2 ms until it holds or the time is up.
///
/// ```swift
/// #expect(await Poll.until { !client.network.log.isEmpty })
/// ```
package enum Poll {
    /// True once `condition` holds; false if `timeout` passes first.
    package static func until(timeout: Duration = .seconds(5), _ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !condition() {
            if ContinuousClock.now >= deadline { return false }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return true
    }
}
