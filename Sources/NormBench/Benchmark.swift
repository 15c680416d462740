import Foundation

/// One named measurement of `normcache bench`, reported beside a raw baseline that does
/// the same work without normcache, measured in the same run, so the ratio survives the
/// drift of absolute times on shared machines.
///
/// ```swift
/// let result = KeyBenchmarks.intern.measure(5)
/// print(result.ratio)   // intern rate / raw hash rate
/// ```
package struct Benchmark: Sendable {
    package let name: String
    package let unit: String
    /// What is measured and what the baseline is, for the table's readers.
    package let summary: String
    /// Sets up, then times one warm-up and ``Trial/runs`` measured rounds (``Trial/medians(_:baseline:)``).
    let run: @Sendable (Trial) -> Measurement

    init(name: String, unit: String, summary: String, run: @escaping @Sendable (Trial) -> Measurement) {
        self.name = name
        self.unit = unit
        self.summary = summary
        self.run = run
    }

    /// The medians of `runs` measured rounds after one warm-up, under the benchmark's name and unit.
    package func measure(_ runs: Int) -> BenchmarkResult {
        let measured = run(Trial(name: name, runs: runs))
        return BenchmarkResult(name: name, value: measured.value, unit: unit, baseline: measured.baseline, ratio: measured.ratio,
                               residentMB: measured.residentMB)
    }
}

/// What one benchmark's run found, before it is named: normcache's figure, the raw
/// baseline's, and their ratio.
struct Measurement {
    let value: Double
    let baseline: Double
    let ratio: Double
    /// The process's resident memory after the work, in MB, for benchmarks with a memory goal.
    var residentMB: Double? = nil

    /// This measurement with the resident memory `megabytes`.
    func resident(_ megabytes: Double) -> Measurement {
        var measured = self
        measured.residentMB = megabytes
        return measured
    }

    /// Items per second for `count` items done in the median times `seconds`; ratio = ours / raw.
    static func rate(_ count: Int, _ seconds: (measured: Double, baseline: Double)) -> Measurement {
        let ours = Double(count) / seconds.measured, raw = Double(count) / seconds.baseline
        return Measurement(value: ours, baseline: raw, ratio: ours / raw)
    }

    /// The median times `seconds` of all the work, or of one of `count` items, in units of
    /// `scale` seconds (1e3: milliseconds, 1e6: microseconds); the ratio as `ratio` says.
    static func time(_ seconds: (measured: Double, baseline: Double), scale: Double, per count: Int = 1, ratio: TimeRatio) -> Measurement {
        let ours = seconds.measured / Double(count) * scale, raw = seconds.baseline / Double(count) * scale
        return Measurement(value: ours, baseline: raw, ratio: ratio == .oursOverBaseline ? ours / raw : raw / ours)
    }

    /// Which way a time benchmark's ratio divides.
    enum TimeRatio {
        /// How many times slower normcache is than its baseline (lower is better).
        case oursOverBaseline
        /// How many times faster normcache is than its baseline (higher is better), as for rates.
        case baselineOverOurs
    }
}

/// A benchmark's medians: `value` for normcache, `baseline` for the raw work, and
/// `ratio` = value / baseline (for rates, higher is better).
package struct BenchmarkResult: Sendable {
    package let name: String
    package let value: Double
    package let unit: String
    package let baseline: Double
    package let ratio: Double
    /// The process's resident memory after the work, in MB, where the benchmark measures it.
    package let residentMB: Double?
}

/// Timing helpers shared by the benchmarks.
enum Stopwatch {
    /// Seconds taken by `body`.
    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let elapsed = try ContinuousClock().measure(body)
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The value that `fraction` of `values` (0.95: 95%) are at most: the nearest rank.
    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, max(0, Int((fraction * Double(sorted.count)).rounded(.up)) - 1))]
    }
}
