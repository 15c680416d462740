/// What one commit did, for a monitor: why, which record fields really changed, and
/// which watchers the change reached (each re-read; those whose data changed emit).
///
/// ```swift
/// cache.monitor { commit in print(commit.cause, commit.changed, commit.watchers) }
/// // write ["Trip:2.name"] [1]
/// ```
public struct Commit: Sendable, Equatable {
    public let cause: ChangeCause
    /// Record-field keys (`Trip:2.name`), sorted.
    public let changed: [String]
    /// Ids of the watchers that depend on a changed field, sorted.
    public let watchers: [Int]
}
