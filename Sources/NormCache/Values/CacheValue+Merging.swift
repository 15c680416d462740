/// One value from two selections of the same data (two fragments that select a field, a
/// field selected twice): what each selection found, member by member.
extension CacheValue {
    /// `other`'s members added to this value's: objects merged member by member, lists of
    /// one length item by item; otherwise this value.
    ///
    /// ```swift
    /// let a: CacheValue = ["id": "1", "owner": ["name": "Ann"]]
    /// a.merged(with: ["owner": ["id": "7"]])   // ["id": "1", "owner": ["name": "Ann", "id": "7"]]
    /// ```
    package func merged(with other: CacheValue) -> CacheValue {
        switch (self, other) {
        case (.object(var left), .object(let right)):
            for (key, value) in right.members { left[key] = left[key].map { $0.merged(with: value) } ?? value }
            return .object(left)
        case (.list(let left), .list(let right)) where left.count == right.count:
            return .list(zip(left, right).map { $0.merged(with: $1) })
        default:
            return self
        }
    }
}
