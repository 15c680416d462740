import Foundation
import NormCache
import NormPluginHost
import Workbench

/// Benchmarks of the workbench as its users meet it: starting it in a terminal, running
/// a long script, and a long session's memory under a watcher that keeps emitting.
///
/// ```swift
/// let result = WorkbenchBenchmarks.startup.measure(5)
/// print(result.value, result.ratio)   // ms to the prompt, and how many times a bare start
/// ```
enum WorkbenchBenchmarks {
    static let scriptLines = 10_000

    static let startup = Benchmark(
        name: "startup", unit: "ms",
        summary: "process start to the first prompt on a pseudo-terminal, the 4 bundled plugins loaded; baseline: "
            + "the same spawn and read for `normcache --version` (same binary, no session); ratio = ours / baseline"
    ) { trial in
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("normcache-bench-\(getpid())-home").path
        trial.must { try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true) }
        defer { try? FileManager.default.removeItem(atPath: home) }
        let launch = TerminalLaunch(executable: ExecutableLocation.path, home: home)   // normcache itself
        let search = PluginSearch()
        precondition(!search.libraries().paths.isEmpty,
                     "startup: no plugins (libnormcache_*\(PluginHost.librarySuffix)) in \(search.directories.joined(separator: ", ")); `swift build` builds them")
        let seconds = trial.medians(timing: {
            launch.secondsUntil(REPL.prompt)
        }, baseline: {
            launch.secondsUntil(NormcacheVersion.current, arguments: ["--version"])
        })
        return .time(seconds, scale: 1e3, ratio: .oursOverBaseline)
    }

    static let batch = Benchmark(
        name: "batch", unit: "commands/s",
        summary: "a 10,000-line script of cache-only commands (40% .write, 30% queries, 20% .inspect, 10% .keys) run "
            + "by a session; baseline: the same engine calls made directly, without parsing or rendering"
    ) { trial in
        let script = BatchScript(lineCount: scriptLines)
        let lines = script.lines
        let seconds = trial.medians(timing: {
            let session = try Session(options: SessionOptions(loadsBundledPlugins: false), output: { _ in }, errors: { _ in })
            let seconds = Stopwatch.seconds { for line in lines { session.execute(line) } }
            precondition(session.failures == 0, "batch: \(session.failures) commands failed")
            return seconds
        }, baseline: {
            let cache = NormalizedCache()
            return Stopwatch.seconds { script.replay(on: cache) }
        })
        return .rate(scriptLines, seconds)
    }

    static let soakChanges = 1_000_000
    static let soakSample = 100_000

    static let soak = Benchmark(
        name: "soak", unit: "MB",
        summary: "a session (parsing, client, engine, printer, watch log) watching { trip { id name } } while "
            + "`.write Trip:1 {\"name\":…}` changes the trip 1,000,000 times, each an emission; value: resident MB "
            + "after them, baseline: after 100,000 of them, both after freed pages go back (malloc_trim); ratio = ours / baseline "
            + "(goal ≤ 1.2); runs once, whatever --runs says"
    ) { trial in
        let session = trial.must { try Session(options: SessionOptions(loadsBundledPlugins: false), output: { _ in }, errors: { _ in }) }
        for line in [".policy cache-only", #".write Trip:1 {"__typename":"Trip","id":"1","name":"n0"}"#,
                     #".write QUERY_ROOT {"trip":{"$reference":"Trip:1"}}"#, ".watch { trip { id name } }"] {
            session.execute(line)
        }
        /// Resident MB once `changes` more writes have each changed the trip.
        var written = 0
        func residentAfter(_ changes: Int) -> Double {
            for _ in 0..<changes {
                written += 1
                session.execute(#".write Trip:1 {"name":"n\#(written)"}"#)
            }
            ResidentMemory.returnFreed()
            return ResidentMemory.megabytes()
        }
        let sample = residentAfter(soakSample)
        let end = residentAfter(soakChanges - soakSample)
        session.execute(".expect emissions 1 == \(soakChanges + 1)")
        precondition(session.failures == 0 && session.failedExpectations == 0,
                     "soak: \(session.failures) commands and \(session.failedExpectations) expectations failed")
        return Measurement(value: end, baseline: sample, ratio: end / sample).resident(end)
    }
}
