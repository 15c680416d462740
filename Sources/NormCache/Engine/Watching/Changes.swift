/// What a commit changed: the record-field keys whose value really changed.
///
/// ```swift
/// let changes = try cache.write(data: data, for: op)
/// changes.count     // 12
/// changes.keys      // ["QUERY_ROOT.trips", "Trip:1.name", ...] (named on demand)
/// ```
public struct Changes: Sendable {
    let changes: ChangeSet
    let cache: NormalizedCache

    public var count: Int { changes.changedFields.count }
    public var isEmpty: Bool { changes.isEmpty }
    /// `Trip:1.name`, …, sorted.
    public var keys: [String] { cache.names(changes.changedFields) }
}
