import Foundation

/// One named measurement of `normcache bench`, reported beside a raw baseline that does
/// the same work without normcache, measured in the same run, so the ratio survives the
/// drift of absolute times on shared machines.
///
/// ```swift
/// let result = KeyBenchmarks.intern.measure(5)
/// print(result.ratio)   // intern rate / raw XXH3 rate
/// ```
public struct Benchmark: Sendable {
    public let name: String
    public let unit: String
    /// What is measured and what the baseline is, for the table's readers.
    public let summary: String
    /// Runs one warm-up and `runs` measured rounds and reports the medians.
    let run: @Sendable (_ runs: Int) -> Measurement

    init(name: String, unit: String, summary: String, run: @escaping @Sendable (_ runs: Int) -> Measurement) {
        self.name = name
        self.unit = unit
        self.summary = summary
        self.run = run
    }

    /// The medians of `runs` measured rounds after one warm-up, under the benchmark's name and unit.
    public func measure(_ runs: Int) -> BenchmarkResult {
        let measured = run(runs)
        return BenchmarkResult(name: name, value: measured.value, unit: unit, baseline: measured.baseline, ratio: measured.ratio)
    }
}

/// What one benchmark's run found, before it is named: normcache's figure, the raw
/// baseline's, and their ratio.
struct Measurement {
    let value: Double
    let baseline: Double
    let ratio: Double

    /// Items per second for `count` items done in the median times `seconds`; ratio = ours / raw.
    static func rate(_ count: Int, _ seconds: (measured: Double, baseline: Double)) -> Measurement {
        let ours = Double(count) / seconds.measured, raw = Double(count) / seconds.baseline
        return Measurement(value: ours, baseline: raw, ratio: ours / raw)
    }
}

/// A benchmark's medians: `value` for normcache, `baseline` for the raw work, and
/// `ratio` = value / baseline (for rates, higher is better).
public struct BenchmarkResult: Sendable {
    public let name: String
    public let value: Double
    public let unit: String
    public let baseline: Double
    public let ratio: Double
}

/// Timing helpers shared by the benchmarks.
enum Stopwatch {
    /// Seconds taken by `body`.
    static func seconds(_ body: () -> Void) -> Double {
        let elapsed = ContinuousClock().measure(body)
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }

    /// The median of `runs` timings of each body after one warm-up of each; the two are
    /// interleaved so that both see the same machine conditions.
    static func medians(runs: Int, _ measured: () -> Void, baseline: () -> Void) -> (measured: Double, baseline: Double) {
        medians(runs: runs, timing: { seconds(measured) }, baseline: { seconds(baseline) })
    }

    /// ``medians(runs:_:baseline:)`` for bodies that time themselves and return their
    /// seconds, so that set-up and clean-up around the timed part stay out of the figure.
    static func medians(runs: Int, timing measured: () -> Double, baseline: () -> Double) -> (measured: Double, baseline: Double) {
        _ = measured()
        _ = baseline()
        var ours: [Double] = [], raw: [Double] = []
        for _ in 0..<runs {
            ours.append(measured())
            raw.append(baseline())
        }
        return (median(ours), median(raw))
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
