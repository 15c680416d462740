import NormCache
import NormClient

/// The last operation the session ran, as `.why` explains it: the operation, the policy
/// it ran under, whether the cache's answer was whole (nil: the policy did not read it),
/// and why each field the cache lacked was missing, explained when the read missed.
///
/// ```swift
/// let run = OperationRun(operation: tripDetail, policy: .cacheFirst, cacheAnswered: false, misses: misses)
/// run.decision   // (requested: true, reason: "cache-first: the cache lacked fields, so the query was sent")
/// ```
struct OperationRun {
    let operation: CompiledOperation
    let policy: FetchPolicy
    let cacheAnswered: Bool?
    let misses: [MissExplanation]

    /// Whether a request was sent, and why, as the policy decides (FetchPolicy+Decisions.swift).
    var decision: (requested: Bool, reason: String) { policy.explanation(of: operation, cacheAnswered: cacheAnswered) }
}
