/// How a read judges fields' ages: the one owner of when a field is stale and when it is
/// too stale to read (docs/engine.md, "Freshness"). A field is stale once its age (the
/// ``CacheClock``'s now less the time it was received, ``ReceivedTimes``) reaches its max
/// age: the least of its rule's (``MaxAges``: the cache's own over the endpoint's schema)
/// and its response's `Cache-Control: max-age`. A stale field is still read while its age
/// is below max age and max stale together (Apollo Kotlin's `maxStale`), and is a miss
/// from then on, as Apollo Kotlin's cache resolver makes it.
///
/// ```swift
/// let rules = AgeJudge.rules(of: state)        // the max ages to judge by: the cache's over the endpoint's
/// let judge = AgeJudge(state, rules: rules)    // nil: nothing received, or no max age anywhere
/// judge?.verdict(received, maxAge: 300)   // Verdict(age: 420, maxAge: 300, missing: true)
/// ```
///
/// (A judge holds two numbers, so a read copies it for free; the rules it judges by are
/// the reader's.)
struct AgeJudge {
    /// A stale field's age, the max age it was judged by, and whether it is a miss.
    struct Verdict: Equatable {
        let age: Double
        let maxAge: Double
        let missing: Bool
    }

    /// Now, in seconds since 1970.
    let now: Double
    let maxStale: Double

    /// The judge of a read in `state` by `rules`; nil when no field can be stale: none has
    /// a known time, or neither a rule nor a response gives a max age.
    init?(_ state: EngineState, rules: MaxAges) {
        guard !state.received.isEmpty, !rules.isEmpty || state.received.hasSenderMaxAges else { return nil }
        now = state.clock.now().timeIntervalSince1970
        maxStale = state.maxStale
    }

    /// The max ages a read in `state` judges by: the cache's own (`.maxage`) over those of
    /// the endpoint's schema (`@cacheControl`).
    static func rules(of state: EngineState) -> MaxAges {
        let endpoint = state.schema.endpoint?.maxAges ?? MaxAges()
        return endpoint.isEmpty ? state.maxAges : state.maxAges.isEmpty ? endpoint : endpoint.overlaid(by: state.maxAges)
    }

    /// The verdict on a field received as `received` whose rule gives it `maxAge` seconds;
    /// nil while it is fresh.
    func verdict(_ received: ReceivedTimes.Receipt, maxAge: Double) -> Verdict? {
        let limit = min(maxAge, received.maxAge ?? .infinity)
        guard limit.isFinite else { return nil }
        let age = now - received.at
        guard age >= limit else { return nil }
        return Verdict(age: age, maxAge: limit, missing: age >= limit + maxStale)
    }
}
