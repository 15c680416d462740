/// The capacity to grow to from `capacity` so that `needed` elements fit: at least double,
/// so that many small reservations (a response of many short lists) stay amortised instead
/// of copying the storage each time. The rule of ``Swift/Array/reserveRoom(for:)`` and of
/// ``StagedRecords/reserveRoom(for:)``.
///
/// ```swift
/// grownCapacity(from: 16, toHold: 17)      // 32
/// grownCapacity(from: 16, toHold: 10_000)  // 10_000
/// ```
@inline(__always) func grownCapacity(from capacity: Int, toHold needed: Int) -> Int {
    Swift.max(needed, capacity * 2)
}

extension Array {
    /// Makes room for `extra` more elements before they are appended one by one, growing
    /// by ``grownCapacity(from:toHold:)``.
    ///
    /// ```swift
    /// var staged: [Int] = []
    /// staged.reserveRoom(for: 10_000)   // one allocation instead of ~14 doublings
    /// ```
    @inline(__always) mutating func reserveRoom(for extra: Int) {
        let needed = count + extra
        if needed > capacity { reserveCapacity(grownCapacity(from: capacity, toHold: needed)) }
    }
}
