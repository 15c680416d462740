/// Whether two values are the same as an app on Apollo iOS reads them: the one owner of
/// that question for what compares stored values across processes or files (`.diff`,
/// a followed file's reload), where the same data may have been written another way.
extension CacheValue {
    /// Whether Apollo iOS reads `self` and `other` as the same value: numbers by their
    /// value (`77` and `77.0`: it reads both through `NSNumber`), objects by their members
    /// whatever their order (it reads them as dictionaries), lists item by item,
    /// references by the key they name, anything else as JSON compares it.
    ///
    /// ```swift
    /// CacheValue.int(77).readsTheSame(as: .double(77))                       // true
    /// CacheValue.object(["a": 1, "b": 2]).readsTheSame(as: ["b": 2, "a": 1])  // true
    /// CacheValue.list([1, 2]).readsTheSame(as: [2, 1])                      // false
    /// ```
    package func readsTheSame(as other: CacheValue) -> Bool {
        switch (self, other) {
        case (.int(let integer), .double(let double)), (.double(let double), .int(let integer)):
            return Int64(exactly: double) == integer
        case (.list(let left), .list(let right)):
            return left.count == right.count && zip(left, right).allSatisfy { $0.readsTheSame(as: $1) }
        case (.object(let left), .object(let right)):
            return left.count == right.count && left.members.allSatisfy { name, value in
                right[name].map { value.readsTheSame(as: $0) } ?? false
            }
        default:
            return self == other
        }
    }
}
