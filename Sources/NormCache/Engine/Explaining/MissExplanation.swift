/// Why a field an operation asked for was missing from the cache, and the nearest data
/// that is there (``NormalizedCache/explainMisses(of:variables:schema:)``, the workbench's
/// `.why` after an operation).
///
/// ```swift
/// let misses = try cache.explainMisses(of: tripDetail, variables: ["id": "2"], schema: trips)
/// misses[0].field         // "QUERY_ROOT.trip(id:\"2\")"
/// misses[0].reason.code   // .fieldPolicyWouldRedirect
/// misses[0].nearest       // ["Trip:2"]
/// ```
package struct MissExplanation: Sendable, Equatable {
    /// The record-field key that was missing (`Trip:2.name`).
    package let field: String
    package let reason: WhyReason
    /// Record or record-field keys holding related data, nearest first.
    package let nearest: [String]
}
