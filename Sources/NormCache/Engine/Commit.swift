/// What one commit did, for a monitor: why, which record fields really changed, which
/// watchers the change reached (each re-read; those whose data changed emit), and which
/// it did not reach though they read a record it touched.
///
/// ```swift
/// cache.monitor { commit in print(commit.cause, commit.changed, commit.watchers, commit.unreached.map(\.id)) }
/// // write ["Trip:2.name"] [1] [2]
/// ```
package struct Commit: Sendable, Equatable {
    /// A watcher that reads a record the commit touched but none of the fields it changed.
    package struct Unreached: Sendable, Equatable {
        package let id: Int
        /// The watched operation's name; `nil` for an anonymous one.
        package let operation: String?
        /// The keys of the touched records it reads, sorted.
        package let records: [String]
    }

    package let cause: ChangeCause
    /// Record-field keys (`Trip:2.name`), sorted.
    package let changed: [String]
    /// Ids of the watchers that depend on a changed field, sorted.
    package let watchers: [Int]
    /// The watchers not reached that depend on another field of a changed record, by id.
    package let unreached: [Unreached]
}
