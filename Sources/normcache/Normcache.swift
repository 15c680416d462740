import ArgumentParser
import NormBench
import NormCache
import NormCodegen
import NormPluginHost
#if os(Linux) && canImport(NormWebSocketNIO)
import NormWebSocketNIO
#endif
import Workbench

/// `normcache`: the workbench's command line. Each subcommand hands over to a module at once.
/// Without one it starts the REPL, and `normcache --help` lists the REPL's options
/// (``rootHelp(columns:)``).
@main
struct Normcache: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "normcache",
        abstract: "A normalized GraphQL cache workbench.",
        usage: "normcache [<options>]\nnormcache <subcommand> [<options>]",
        version: NormcacheVersion.current,
        subcommands: [Repl.self, Run.self, Inspect.self, Diff.self, Bench.self, Generate.self],
        defaultSubcommand: Repl.self
    )
}

/// Where the session's cache lives and which plugins it loads, shared by the subcommands
/// that start a session.
struct SessionArguments: ParsableArguments {
    @Option(name: .customLong("cache-dir"), help: ArgumentHelp("Per-user caches in DIR/USER.sqlite, not memory.", valueName: "DIR"))
    var cacheDirectory: String?

    @Option(help: ArgumentHelp("The user logged in at start (with --cache-dir).", valueName: "NAME"))
    var user: String?

    @Option(name: .customLong("plugins"), help: ArgumentHelp("Also load the plugins (*\(PluginHost.librarySuffix)) in DIR; repeatable.", valueName: "DIR"))
    var pluginDirectories: [String] = []

    @Option(help: ArgumentHelp("Start on an HTTP GraphQL endpoint.", valueName: "URL"))
    var endpoint: String?

    @Option(help: ArgumentHelp("Wait for an answer, as .timeout.", valueName: "MS"))
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
    @Option(name: .customLong("project"), help: ArgumentHelp("Load an app's GraphQL project, as .project.", valueName: "DIR"))
    var directory: String?
}

/// How commands run and print, shared by every subcommand that starts a session.
struct ScriptArguments: ParsableArguments {
    @Flag(help: "Print JSON events, one a line, as .mode json.")
    var json = false

    @Flag(help: "Print each command before it runs, as .echo on.")
    var echo = false

    @Flag(help: "Stop at the first failure, as .bail on.")
    var bail = false

    @Option(name: .customShort("c"), help: ArgumentHelp("Run COMMAND first; repeatable.", valueName: "COMMAND"))
    var commands: [String] = []

    @Option(name: .customLong("init"), help: ArgumentHelp("Run FILE first, instead of the init file.", valueName: "FILE"))
    var initFile: String?

    @Option(name: .customLong("watch-log"), help: ArgumentHelp("Emissions kept per watcher.", valueName: "N"))
    var watchLog = SessionOptions.defaultWatchLog

    @Option(help: ArgumentHelp("As .semantics.", valueName: "NAME"))
    var semantics: Semantics?

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
        options.semantics = semantics ?? options.semantics
        #if os(Linux) && canImport(NormWebSocketNIO)
        // Linux's FoundationNetworking speaks WebSocket only over a libcurl built with it.
        options.webSocketConnector = NIOWebSocketConnector()
        #endif
        return options
    }
}

/// How long to wait for another process's lock on a cache file.
struct LockOptions: ParsableArguments {
    @Option(name: .customLong("busy-timeout"), help: ArgumentHelp("Wait for another process's lock.", valueName: "MS"))
    var busyTimeout = SessionOptions().busyTimeout

    func validate() throws {
        guard busyTimeout >= 0 else { throw ValidationError("--busy-timeout must be 0 or more milliseconds") }
    }
}

struct Repl: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The REPL: libedit on a terminal, else reads stdin.",
        discussion: "Plugins are found in the directories of $\(PluginSearch.variable) (colon-separated), then beside the executable, then in \(PluginSearch.installedPath) from it; the first libnormcache_NAME\(PluginHost.librarySuffix) of each NAME loads, and --plugins DIR adds every library of DIR."
    )

    @OptionGroup var session: SessionArguments

    func run() throws {
        let status = REPL.run(options: session.session())
        if status != 0 { throw ExitCode(status) }
    }
}

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run .repl scripts in one session (- is stdin).",
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
        abstract: "Open a cache file read-only and start the REPL on it.",
        discussion: "The file, in Apollo iOS's format (e.g. one pulled off a device), is never changed; with --follow, what another process commits to it meanwhile reloads, and watchers emit (docs/live.md)."
    )

    @Argument(help: ArgumentHelp("The SQLite cache file, e.g. one pulled off an iOS device.", valueName: "CACHE.sqlite"))
    var file: String

    @Flag(help: "Follow the commits another process (the app) makes to the file, as .follow on.")
    var follow = false

    @OptionGroup var project: ProjectArgument
    @OptionGroup var lock: LockOptions
    @OptionGroup var script: ScriptArguments

    func run() throws {
        let options = SessionOptions(inspectFile: file, follows: follow, busyTimeout: lock.busyTimeout, projectDirectory: project.directory)
        let status = REPL.run(options: script.apply(to: options))
        if status != 0 { throw ExitCode(status) }
    }
}

struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compare two cache files: records only in A, only in B, and the fields that changed.",
        usage: FileDiff.usage,
        discussion: "Both files, in Apollo iOS's format, are opened read-only and never changed. Records compare as Apollo iOS reads them, so member order and number formatting are no difference. Exit status as diff(1): 0 when they hold the same records, 1 when they differ, 2 on trouble (not two files, a file that is missing, not SQLite, not an Apollo iOS cache or damaged)."
    )

    @Argument(help: ArgumentHelp("The two cache files, A then B.", valueName: "A.sqlite B.sqlite"), completion: .file())
    var files: [String] = []

    @Option(help: ArgumentHelp("Only the records whose keys match GLOB (* any run, ? one character), on both sides.", valueName: "GLOB"))
    var keys: String?

    @Flag(help: "Print the JSON diff event instead of text.")
    var json = false

    @OptionGroup var lock: LockOptions

    func run() throws {
        let status = FileDiff.run(files: files, keys: keys, json: json, busyTimeout: lock.busyTimeout)
        if status != 0 { throw ExitCode(status) }
    }
}

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the benchmarks, each against a raw baseline.",
        discussion: "Each reports a ratio against a raw baseline measured in the same run."
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
        abstract: "Write Swift types for a project's operations.",
        discussion: "Its operations and fragments in Apollo iOS's shapes, on NormAPI. Unchanged files are left alone; files an earlier run wrote and this one does not are removed. Exit status 2, with nothing written, when the project or a name is refused."
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
