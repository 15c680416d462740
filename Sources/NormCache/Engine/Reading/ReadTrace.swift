/// What a read keeps beyond its result, when asked (a plain read carries none, so its hot
/// path pays one nil test): the fields it found absent with the plan that asked for each,
/// which `.why` explains, and, filling holes (``NormalizedCache/readPartialData(_:variables:schema:)``),
/// a GraphQL-style error for each hole at its response path.
///
/// ```swift
/// var reader = try Reader(state: state, operation: operation, variables: variables)
/// reader.trace = ReadTrace(fillsHoles: true)
/// _ = try reader.readOperation()
/// reader.trace!.holeErrors   // [{"message":"Object 'Trip:2' has no field named 'name'","path":["trips",1,"name"]}]
/// ```
final class ReadTrace {
    /// Whether a field the read misses reads as null, with an error in ``holeErrors``.
    let fillsHoles: Bool
    /// The fields found absent from their record, with the plan that asked, in read order
    /// (one absent from each item of a list is met once an item).
    var absent: [(pair: RecordField, field: FieldPlan)] = []
    var holeErrors: [CacheValue] = []
    /// The response path to the field being read (while filling holes).
    var path: [CacheValue] = []
    /// The record-field key last noted missing, for a hole's error.
    var lastMissing = ""
    /// The stale fields met, by record-field key, with their age and max age (``AgeJudge``).
    var ages: [String: AgeJudge.Verdict] = [:]

    init(fillsHoles: Bool) {
        self.fillsHoles = fillsHoles
    }
}
