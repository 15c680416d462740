import Foundation

/// Why a watcher emitted or did not (``NormalizedCache/explain(watcher:)``, the workbench's
/// `.why ID`): every commit kept since its last emission, oldest first, each with what
/// started it, what it changed, whether it reached the watcher, and the reason in the
/// watcher's terms.
///
/// ```swift
/// let why = cache.explain(watcher: 1)!
/// why.commits.last?.reached        // false
/// why.commits.last?.reason?.code   // .newRecordNotInList
/// ```
package struct WatcherExplanation: Sendable, Equatable {
    /// One commit, as the watcher saw it.
    package struct Commit: Sendable, Equatable {
        package let number: Int
        package let at: Date
        package let cause: ChangeCause
        /// What started it (`CreateTrip {"name":"Faro"}`, `write Trip:1`, `gc`); nil when unknown.
        package let origin: String?
        /// The record fields it changed, sorted.
        package let changed: [NamedField]
        /// Whether it changed a field the watcher reads (the watcher then read again).
        package let reached: Bool
        package let reason: WhyReason
    }

    package let watcher: Int
    /// The watched operation's name; nil for an anonymous one.
    package let operation: String?
    /// How many times it emitted, and the number of the commit its last emission came after.
    package let emissions: Int
    package let emittedAfter: Int
    /// Commits since its last emission that are no longer kept (older than the journal).
    package let forgotten: Int
    package let commits: [Commit]

    /// How many commits an explanation can look back on.
    package static let kept = CommitJournal.capacity
}
