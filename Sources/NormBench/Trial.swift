/// One run of a benchmark, as its body sees it: how many rounds to time, and the
/// benchmark's name for the message that stops it when work that cannot fail does.
/// A body sets up with ``must(_:)`` and times with ``medians(_:baseline:)``.
///
/// ```swift
/// Benchmark(name: "read.10k", unit: "records/s", summary: "…") { trial in
///     let cache = trial.must { NormalizedCache() }
///     let seconds = trial.medians({ try cache.read(operation).complete ? 1 : 0 }, baseline: { records.count })
///     return .rate(10_000, seconds)
/// }
/// ```
struct Trial {
    let name: String
    let runs: Int

    /// What `work` returns; an error stops the benchmark, naming it: set-up and measured
    /// work fail only when normcache is broken.
    func must<Value>(_ work: () throws -> Value) -> Value {
        do { return try work() } catch { fatalError("\(name): \(error)") }
    }

    /// The median seconds of ``runs`` timings of `measured` and of `baseline`, after one
    /// warm-up of each. Each body returns a count of what it produced (records, bytes, a
    /// checksum); the counts must not all be zero, so that neither body is work the
    /// optimizer may drop or work that silently did nothing.
    func medians(_ measured: () throws -> Int, baseline: () throws -> Int) -> (measured: Double, baseline: Double) {
        var produced = 0
        let seconds = medians(timing: { Stopwatch.seconds { produced &+= must(measured) } },
                              baseline: { Stopwatch.seconds { produced &+= must(baseline) } })
        precondition(produced != 0, "\(name): the timed work produced nothing")
        return seconds
    }

    /// ``medians(_:baseline:)`` for bodies that time themselves and return their seconds,
    /// so that set-up and clean-up around the timed part stay out of the figure. The two
    /// are interleaved so that both see the same machine conditions.
    func medians(timing measured: () throws -> Double, baseline: () throws -> Double) -> (measured: Double, baseline: Double) {
        _ = must(measured)
        _ = must(baseline)
        var ours: [Double] = [], raw: [Double] = []
        for _ in 0..<runs {
            ours.append(must(measured))
            raw.append(must(baseline))
        }
        return (Stopwatch.median(ours), Stopwatch.median(raw))
    }
}
