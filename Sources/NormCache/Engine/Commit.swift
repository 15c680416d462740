/// What one commit did, for a monitor: why, which record fields really changed, and
/// which watchers the change reached (each re-read; those whose data changed emit).
///
/// ```swift
/// cache.monitor { commit in print(commit.cause, commit.changed, commit.watchers) }
/// // write ["Trip:2.name"] [1]
/// ```
package struct Commit: Sendable, Equatable {
    package let cause: ChangeCause
    /// Record-field keys (`Trip:2.name`), sorted.
    package let changed: [String]
    /// Ids of the watchers that depend on a changed field, sorted.
    package let watchers: [Int]
}
