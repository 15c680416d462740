import ArgumentParser
import NormBench
import NormCache
import NormCodegen
import NormPluginHost
import Workbench

/// `normcache`: the workbench's command line. Each subcommand hands over to a module at once.
@main
struct Normcache: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "normcache",
        abstract: "A normalized GraphQL cache workbench.",
        version: NormcacheVersion.current,
        subcommands: [Repl.self, Run.self, Inspect.self, Bench.self, Generate.self],
        defaultSubcommand: Repl.self
    )
}

/// Where the session's cache lives and which plugins it loads, shared by the subcommands
/// that start a session.
struct SessionArguments: ParsableArguments {
    @Option(name: .customLong("cache-dir"), help: ArgumentHelp("Persistent per-user stores DIR/USER.sqlite (Apollo iOS format); without it the cache lives in memory only.", valueName: "DIR"))
    var cacheDirectory: String?

    @Option(help: ArgumentHelp("The user logged in at start (needs --cache-dir; default: \(SessionOptions.defaultUser)).", valueName: "NAME"))
    var user: String?

    @Option(name: .customLong("plugins"), help: ArgumentHelp("Also load every plugin library (*\(PluginHost.librarySuffix)) in DIR; repeatable. Plugins are found first in the directories of $\(PluginSearch.variable) (colon-separated), then beside the executable, then in \(PluginSearch.installedPath) from it; the first libnormcache_NAME\(PluginHost.librarySuffix) of each NAME loads.", valueName: "DIR"))
    var pluginDirectories: [String] = []

    @Option(help: ArgumentHelp("An HTTP GraphQL endpoint to start with (default: the project's, else the first plugin's in-process server).", valueName: "URL"))
    var endpoint: String?

    @Option(help: ArgumentHelp("Milliseconds to wait for an HTTP endpoint's whole answer or a plugin's reply, as .timeout (default: a minute, URLSession's default).", valueName: "MS"))
    var timeout = SessionOptions.defaultTimeout

    @OptionGroup var project: ProjectArgument
    @OptionGroup var lock: LockOptions
    @OptionGroup var script: ScriptArguments

    func validate() throws {
        guard timeout > 0 else { throw ValidationError("--timeout must be at least 1 millisecond") }
    }

    func session() -> SessionOptions {
        script.apply(to: SessionOptions(cacheDirectory: cacheDirectory, user: user, busyTimeout: lock.busyTimeout,
                                        pluginDirectories: pluginDirectories, endpoint: endpoint, timeout: timeout,
                                        projectDirectory: project.directory))
    }
}

/// An app's GraphQL project to load, for every subcommand that starts a session.
struct ProjectArgument: ParsableArguments {
    @Option(name: .customLong("project"), help: ArgumentHelp("An app's GraphQL project: apollo-codegen-config.json, or every *.graphqls / schema.json and *.graphql under DIR. A project that does not load stops the session (exit 2).", valueName: "DIR"))
    var directory: String?
}

/// How commands run and print, shared by every subcommand that starts a session.
struct ScriptArguments: ParsableArguments {
    @Flag(help: "Print one JSON object per line (docs/workbench.md lists the events), as .mode json.")
    var json = false

    @Flag(help: "Print each command before it runs, as .echo on.")
    var echo = false

    @Flag(help: "Stop at the first command or expectation that fails, as .bail on.")
    var bail = false

    @Option(name: .customShort("c"), help: ArgumentHelp("Run COMMAND first (repeatable; after the init script, before any other input).", valueName: "COMMAND"))
    var commands: [String] = []

    @Option(name: .customLong("init"), help: ArgumentHelp("Run FILE first, instead of ~/.normcacherc.", valueName: "FILE"))
    var initFile: String?

    @Option(name: .customLong("watch-log"), help: ArgumentHelp("Keep the last N emissions of each watcher for .expect watch ID #N, as .watchlog N; older ones are counted, not kept.", valueName: "N"))
    var watchLog = SessionOptions.defaultWatchLog

    @Option(help: ArgumentHelp("Whose answers the cache gives where Apollo iOS and Apollo Client differ, as .semantics.", valueName: "apollo-ios|apollo-client"))
    var semantics = Semantics.apolloIOS

    func validate() throws {
        guard watchLog >= 1 else { throw ValidationError("--watch-log must keep at least 1 emission") }
    }

    func apply(to options: SessionOptions) -> SessionOptions {
        var options = options
        options.mode = json ? .json : .tree
        options.colour = !json   // on a terminal, unless NO_COLOR is set
        options.echoes = echo
        options.bails = bail
        options.commands = commands
        options.initFile = initFile
        options.watchLog = watchLog
        options.semantics = semantics
        return options
    }
}

/// How long to wait for another process's lock on a cache file.
struct LockOptions: ParsableArguments {
    @Option(name: .customLong("busy-timeout"), help: ArgumentHelp("Milliseconds to wait for another process's lock on a cache file.", valueName: "MS"))
    var busyTimeout = SessionOptions().busyTimeout

    func validate() throws {
        guard busyTimeout >= 0 else { throw ValidationError("--busy-timeout must be 0 or more milliseconds") }
    }
}

struct Repl: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Start the REPL (the default): libedit on a terminal, commands from standard input otherwise."
    )

    @OptionGroup var session: SessionArguments

    func run() throws {
        let status = REPL.run(options: session.session())
        if status != 0 { throw ExitCode(status) }
    }
}

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run .repl scripts in one session (- reads standard input).",
        discussion: "Exit status: 0 when every command ran and every .expect held, 1 when an expectation failed, 2 when a command failed."
    )

    @OptionGroup var session: SessionArguments

    @Argument(help: ArgumentHelp("The scripts, run in order; - is standard input.", valueName: "FILE"))
    var files: [String] = []

    func run() throws {
        let status = Batch.run(files: files, options: session.session())
        if status != 0 { throw ExitCode(status) }
    }
}

struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Open an Apollo iOS-format cache file read-only and start the REPL on it; the file is never changed."
    )

    @Argument(help: ArgumentHelp("The SQLite cache file, e.g. one pulled off an iOS device.", valueName: "CACHE.sqlite"))
    var file: String

    @OptionGroup var project: ProjectArgument
    @OptionGroup var lock: LockOptions
    @OptionGroup var script: ScriptArguments

    func run() throws {
        let options = SessionOptions(inspectFile: file, busyTimeout: lock.busyTimeout, projectDirectory: project.directory)
        let status = REPL.run(options: script.apply(to: options))
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

struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "codegen",
        abstract: "Write Swift types for a project's operations and fragments (Apollo iOS's shapes, on NormAPI).",
        discussion: "Unchanged files are left alone; files an earlier run wrote and this one does not are removed. Exit status 2, with nothing written, when the project or a name is refused."
    )

    @Option(name: .customLong("project"), help: ArgumentHelp("The app's GraphQL project (as for --project of a session).", valueName: "DIR"))
    var directory: String

    @Option(help: ArgumentHelp("The folder to write into; created when missing. With the configuration's output key, it stands for the configuration's folder (default: that folder, as Apollo iOS writes).", valueName: "OUT"))
    var output: String?

    @Option(help: ArgumentHelp("The enum the schema's enums, input objects and custom scalars go in (default: the configuration's schemaNamespace, else API).", valueName: "NAME"))
    var namespace: String?

    @Flag(name: .customLong("embed-schema"), help: "Also write the schema's SDL into the namespace (static let sdl): for a plugin, which serves it.")
    var embedsSchema = false

    func run() throws {
        let status = Codegen.run(project: directory, output: output, namespace: namespace, embedsSchema: embedsSchema)
        if status != 0 { throw ExitCode(status) }
    }
}

/// `--semantics apollo-ios|apollo-client`.
extension Semantics: ExpressibleByArgument {}
