import NormCache
import NormClient

/// How `.why` writes an explanation for people: a heading, then one paragraph a commit
/// (number, time, cause and origin, what it changed, reached or not with the reason's
/// code and sentence, and the hint after an arrow).
///
/// ```swift
/// WhyText.lines(explanation, style: style)
/// // watcher 1 TripList: 1 emission, the last after commit #2; 1 commit since
/// // #3 2026-11-29T02:10:00Z write (CreateTrip {"name":"Faro"}): MUTATION_ROOT.createTrip(name:"Faro"), Trip:4.id, …
/// //   not reached, new-record-not-in-list: Trip:4 is new; TripList reads QUERY_ROOT.trips, which still lists …
/// //   → refetch it (.refetch 1), or write Trip:4 into QUERY_ROOT.trips as the mutation's cache update would
/// ```
enum WhyText {
    static func lines(_ why: WatcherExplanation, style: TextStyle) -> [String] {
        let count = why.commits.count + why.forgotten
        let since = count == 0 ? "no commit since" : "\(count) commit\(count == 1 ? "" : "s") since"
            + (why.forgotten == 0 ? "" : " (the first \(why.forgotten) no longer kept)")
        let heading = style.heading("watcher \(why.watcher) \(why.operation ?? "(anonymous)")")
            + ": \(why.emissions) emission\(why.emissions == 1 ? "" : "s"), the last after commit #\(why.emittedAfter); " + since
        return [heading] + why.commits.flatMap { commit -> [String] in
            let origin = commit.origin.map { " (\($0))" } ?? ""
            let changed = commit.changed.isEmpty ? "nothing changed" : list(commit.changed)
            let reached = commit.reached ? "reached" : "not reached"
            return ["#\(commit.number) \(HistoryText.time(commit.at)) \(commit.cause.rawValue)\(origin): \(changed)",
                    "  \(reached), \(commit.reason.code.rawValue): \(commit.reason.text)"] + hint(commit.reason, style: style)
        }
    }

    /// The last operation: where its result came from and why, then each missing field.
    static func lines(_ run: OperationRun, result: ClientResult?, style: TextStyle) -> [String] {
        let decision = run.decision
        let source = result.map { $0.source == .cache && !$0.complete ? "the cache could not answer whole" : "answered from the \($0.source.rawValue)" }
            ?? "it failed without a result"
        let heading = style.heading(run.operation.name ?? "(anonymous \(run.operation.kind.rawValue))")
            + ": \(source); " + (decision.requested ? "a request was sent" : "no request was sent")
        let missing = run.misses.isEmpty ? [] : ["missing \(run.misses.count) field\(run.misses.count == 1 ? "" : "s"):"]
        let pending = result.map(\.pending).flatMap { $0.isEmpty ? nil : $0 }.map { fields in
            ["  a deferred part (@defer) is pending: the cache lacks " + fields.joined(separator: ", ")
             + ", and Apollo iOS reads it as a hit without them (.semantics apollo-client: a miss)"]
        } ?? []
        return [heading, "  " + decision.reason] + pending + missing + run.misses.flatMap { miss -> [String] in
            let nearest = miss.nearest.isEmpty ? [] : ["    nearest: " + miss.nearest.joined(separator: ", ")]
            return ["  \(miss.field) \(miss.reason.code.rawValue): \(miss.reason.text)"] + nearest
                + (miss.reason.hint.map { [style.dim("    → " + $0)] } ?? [])
        }
    }

    /// The hint line under a reason, when it has one.
    static func hint(_ reason: WhyReason, style: TextStyle) -> [String] {
        reason.hint.map { [style.dim("  → " + $0)] } ?? []
    }

    /// The first 6 record fields, then how many more.
    static func list(_ fields: [NamedField]) -> String {
        fields.prefix(6).map(\.description).joined(separator: ", ") + (fields.count > 6 ? " and \(fields.count - 6) more" : "")
    }
}
