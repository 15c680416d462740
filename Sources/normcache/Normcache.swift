import ArgumentParser
import NormBench
import Workbench

/// `normcache`: the workbench's command line. Each subcommand hands over to a module at once.
@main
struct Normcache: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "normcache",
        abstract: "A normalized GraphQL cache workbench.",
        version: REPL.version,
        subcommands: [Repl.self, Bench.self],
        defaultSubcommand: Repl.self
    )
}

struct Repl: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Start the REPL (the default): libedit on a terminal, commands from standard input otherwise."
    )

    func run() throws {
        let status = REPL.run()
        if status != 0 { throw ExitCode(status) }
    }
}

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the built-in benchmarks; each reports a ratio against a raw baseline measured in the same run."
    )

    @Flag(help: "One JSON object per benchmark: {\"event\":\"bench\",\"name\",\"value\",\"unit\",\"baseline\",\"ratio\"}.")
    var json = false

    @Option(help: "Measured runs per benchmark after one warm-up; the median is reported.")
    var runs = 5

    @Argument(help: "Names of the benchmarks to run (all when none), e.g. keys.intern.")
    var names: [String] = []

    func validate() throws {
        guard runs >= 1 else { throw ValidationError("--runs must be at least 1") }
        let known = BenchmarkSuite.all.map(\.name)
        for name in names where !known.contains(name) {
            throw ValidationError("unknown benchmark \"\(name)\"; known: \(known.joined(separator: ", "))")
        }
    }

    func run() throws {
        BenchmarkSuite.run(names: names, runs: runs, json: json)
    }
}
