/// How a read judges fields' ages: the one owner of when a field is stale and when it is
/// too stale to read (docs/engine.md, "Freshness"). A field is stale once its age (the
/// ``CacheClock``'s now less the time it was received, ``ReceivedTimes``) reaches its max
/// age: the least of its rule's (``MaxAges``: the cache's own over the endpoint's schema)
/// and its response's `Cache-Control: max-age`. A stale field is still read while its age
/// is below max age and max stale together (Apollo Kotlin's `maxStale`), and is a miss
/// from then on, as Apollo Kotlin's cache resolver makes it.
///
/// ```swift
/// if AgeJudge.judges(state) {                 // false: nothing received, or no max age anywhere
///     let rules = AgeJudge.rules(of: state)   // the cache's max ages over the endpoint's
///     AgeJudge(state).verdict(received, maxAge: 300)   // Verdict(age: 420, maxAge: 300, missing: true)
/// }
/// ```
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

    /// The judge of a read in `state`, now.
    init(_ state: EngineState) {
        now = state.clock.now().timeIntervalSince1970
        maxStale = state.maxStale
    }

    /// Whether a field can be stale in `state` at all: one has a known time, and a rule
    /// (the cache's or the endpoint's) or a response gives a max age. Over a store that
    /// keeps times, not yet loaded whole, times (and responses' max ages) come with the
    /// records a read loads, so it may; over a file Apollo iOS wrote, not until times are
    /// written. (Asked by every read: it copies nothing.)
    static func judges(_ state: EngineState) -> Bool {
        let mayLoadTimes = !state.records.loaded.all && state.records.store?.keepsReceivedTimes == true
        guard mayLoadTimes || !state.received.isEmpty else { return false }
        return mayLoadTimes || maxAgesInForce(state)
    }

    /// Whether some max age is in force in `state`: a rule (the cache's or the endpoint's),
    /// or a response's that came with one.
    static func maxAgesInForce(_ state: EngineState) -> Bool {
        state.received.hasSenderMaxAges || !state.maxAges.isEmpty || state.schema.endpoint?.maxAges.isEmpty == false
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
