extension Array {
    /// Makes room for `extra` more elements before they are appended one by one. The
    /// capacity at least doubles when it grows, so that many small reservations (a
    /// response of many short lists) stay amortised instead of copying the array each time.
    ///
    /// ```swift
    /// var staged: [Int] = []
    /// staged.reserveRoom(for: 10_000)   // one allocation instead of ~14 doublings
    /// ```
    @inline(__always) mutating func reserveRoom(for extra: Int) {
        let needed = count + extra
        if needed > capacity { reserveCapacity(Swift.max(needed, capacity * 2)) }
    }
}
