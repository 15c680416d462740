import Foundation

/// Every benchmark `normcache bench` knows, and how results are printed.
package enum BenchmarkSuite {
    package static let all: [Benchmark] = [
        KeyBenchmarks.intern, EngineBenchmarks.write, EngineBenchmarks.writeBytes, EngineBenchmarks.read, EngineBenchmarks.hit, EngineBenchmarks.watchFanout,
        EngineBenchmarks.historyWrite, EngineBenchmarks.historyFanout, EngineBenchmarks.freshnessRead, PagingBenchmarks.append,
        SQLiteBenchmarks.write, SQLiteBenchmarks.open, BigCacheBenchmarks.loadWide, BigCacheBenchmarks.importWide,
        BigCacheBenchmarks.importList, MillionRecordBenchmarks.open, MillionRecordBenchmarks.read,
        FetchBenchmarks.fetch, FollowBenchmarks.lag, WorkbenchBenchmarks.startup, WorkbenchBenchmarks.batch, WorkbenchBenchmarks.soak, ProjectBenchmarks.load, GeneratedTypeBenchmarks.read,
    ]

    /// Runs the benchmarks called `names` (all when empty), printing each result as it
    /// finishes: a JSON line per result with `json`, a table otherwise.
    package static func run(names: [String], runs: Int, json: Bool) {
        let selected = names.isEmpty ? all : all.filter { names.contains($0.name) }
        if !json {
            print(row("benchmark", "value", "unit", "baseline", "ratio"))
        }
        for benchmark in selected {
            let result = benchmark.measure(runs)
            if json {
                print(jsonLine(result))
            } else {
                print(row(result.name, format(result.value), result.unit, format(result.baseline), String(format: "%.3f", result.ratio)))
                if let resident = result.residentMB { print(String(format: "  resident: %.1f MB", resident)) }
                print("  " + benchmark.summary)
            }
        }
    }

    /// One `bench` event; a value that JSON cannot hold (infinite, NaN) is written as null.
    static func jsonLine(_ result: BenchmarkResult) -> String {
        let number = { (value: Double) in value.isFinite ? "\(value)" : "null" }
        return "{\"event\":\"bench\",\"name\":\"\(result.name)\",\"value\":\(number(result.value)),"
            + "\"unit\":\"\(result.unit)\",\"baseline\":\(number(result.baseline)),\"ratio\":\(number(result.ratio))"
            + (result.residentMB.map { ",\"residentMB\":\(number($0))" } ?? "") + "}"
    }

    private static func row(_ cells: String...) -> String {
        zip(cells, [22, 14, 12, 14, 8]).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined()
    }

    private static func format(_ value: Double) -> String {
        value >= 1000 ? String(format: "%.0f", value) : String(format: "%.3f", value)
    }
}
