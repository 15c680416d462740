/// Explanations (issue 36), built on demand from what commits and reads already record:
/// why a watcher did not emit (``explain(watcher:)``).
extension NormalizedCache {
    /// Every commit kept since watcher `id` last emitted (up to ``CommitJournal/capacity``),
    /// each judged against what the watcher reads now; nil for no such watcher.
    package func explain(watcher id: Int) -> WatcherExplanation? {
        locked {
            guard let watcher = state.watchers.watcher(id) else { return nil }
            let reasons = WatcherReasons(watcher, state: state)
            let commits = state.journal.entries(after: watcher.emittedAfter).map { entry in
                let (changed, created) = entry.named(keys: state.keys)
                let reached = entry.reached.contains(id)
                return WatcherExplanation.Commit(number: entry.stamp.number, at: entry.stamp.at, cause: entry.stamp.cause,
                                                 origin: entry.stamp.origin?.description, changed: changed, reached: reached,
                                                 reason: reasons.reason(changed: changed, created: created, reached: reached,
                                                                        rolledBack: entry.rolledBack))
            }
            return WatcherExplanation(watcher: id, operation: watcher.operation.name, emissions: watcher.emissions,
                                      emittedAfter: watcher.emittedAfter,
                                      forgotten: max(0, state.log.number - watcher.emittedAfter - commits.count), commits: commits)
        }
    }
}

extension NormalizedCache {
    /// Why each field `operation` misses (with `variables`, read by the knowledge `schema`)
    /// is missing now, and the nearest data the cache holds, in the order the read met them.
    /// Empty when the cache answers it whole.
    package func explainMisses(of operation: CompiledOperation, variables: CacheObject = CacheObject(),
                               schema: SchemaKnowledge? = nil) throws(CacheError) -> [MissExplanation] {
        try lockedThrowing { () throws(CacheError) in
            try state.withSchema(schema) { () throws(CacheError) in
                let variables = try coerced(variables, for: operation)
                var reader = try Reader(state: state, operation: operation, variables: variables)
                let trace = ReadTrace(fillsHoles: false)
                reader.trace = trace
                _ = try reader.readOperation()
                let root = (try state.keys.recordID(operation.kind.rootKey), state.schema.rootType(operation.kind))
                let reasons = MissReasons(state: state, variables: variables)
                var explained: [String: MissExplanation] = [:]
                for (pair, field) in trace.absent where explained[state.keys.name(pair)] == nil {
                    explained[state.keys.name(pair)] = try reasons.explain(pair, field: field, root: root)
                }
                let stale = Set(reader.stale)
                return reader.missing.map { name in
                    if let verdict = trace.ages[name] {
                        return MissExplanation(field: name, reason: WhyReason(.stale,
                            "\(name) is stale: received \(DurationText.of(verdict.age)) ago, max age \(DurationText.of(verdict.maxAge))"
                            + (state.maxStale > 0 ? ", max stale \(DurationText.of(state.maxStale))" : ""),
                            hint: "a fetch writes it again and makes it fresh; .maxstale SECONDS reads it stale a while longer"), nearest: [name])
                    }
                    if stale.contains(name) {
                        return MissExplanation(field: name, reason: WhyReason(.stale, "\(name) is cached but was invalidated",
                                                                              hint: "a fetch writes it again and makes it fresh"), nearest: [name])
                    }
                    if let miss = explained[name] { return miss }
                    return MissExplanation(field: name, reason: WhyReason(.otherShape,
                        "\(name) holds a value the operation cannot read there: a null where the schema's type is non-null (Apollo iOS reads that as a miss), "
                        + "or a scalar where it selects fields, or a record where it asks for a scalar",
                        hint: "a fetch writes it again as the schema gives it"), nearest: [name])
                }
            }
        }
    }
}
