import NormCache
import NormClient

/// How a session starts: where its cache lives and how long it waits for a lock.
///
/// ```swift
/// let options = SessionOptions(cacheDirectory: "/tmp/caches", user: "alice")
/// let session = try Session(options: options, output: { print($0) }, errors: { print($0) })
/// ```
package struct SessionOptions: Sendable {
    /// `--cache-dir`: per-user stores `DIR/USER.sqlite`; nil keeps the cache in memory.
    package var cacheDirectory: String?
    /// `--user`: the user logged in at start (``defaultUser`` when a cache directory is given).
    package var user: String?
    /// `normcache inspect FILE`: the file to open read-only.
    package var inspectFile: String?
    /// `normcache inspect --follow`: follow the commits another process makes to the file, as `.follow on`.
    package var follows: Bool
    /// `--busy-timeout`: milliseconds to wait for another process's lock on a cache file.
    package var busyTimeout: Int
    /// Load the plugins a `PluginSearch` finds (`libnormcache_*.so`, `.dylib` on Darwin, in
    /// `NORMCACHE_PLUGINS`, beside the executable, in `../lib/normcache/plugins`), as
    /// `normcache` does.
    package var loadsBundledPlugins: Bool
    /// `--plugins DIR`: more directories whose shared libraries (every `*.so`) are loaded as plugins.
    package var pluginDirectories: [String]
    /// `--endpoint URL`: an HTTP GraphQL endpoint to start with, instead of the first plugin.
    package var endpoint: String?
    /// `--timeout MS`: milliseconds to wait for an HTTP endpoint's whole answer, or for a
    /// plugin's reply to a call; URLSession's default, a minute, unless given.
    package var timeout: Int
    /// `--project DIR`: an app's GraphQL project to load; the session starts on its endpoint.
    package var projectDirectory: String?
    /// Finish each command's consequences (background fetches, refetches, emissions)
    /// before the next line runs: true for scripts and pipes, false at an interactive
    /// prompt, where emissions print whenever they happen.
    package var settlesEachCommand: Bool
    /// `--json` makes it `.json`; tree otherwise (`.mode` changes it).
    package var mode: OutputMode
    /// Paint the tree and tables: output is a terminal and `NO_COLOR` is not set.
    package var colour: Bool
    /// `--echo`: print each command before it runs.
    package var echoes: Bool
    /// `--bail`: stop at the first command or expectation that fails.
    package var bails: Bool
    /// `--init FILE`: a script to run first, instead of `~/.normcacherc`.
    package var initFile: String?
    /// `-c COMMAND`: commands to run after the init script, before any other input.
    package var commands: [String]
    /// `--watch-log N`: how many emissions of each watcher are kept for `.expect watch ID #N`
    /// (``defaultWatchLog``; `.watchlog N` changes it).
    package var watchLog: Int
    /// `--semantics`: whose answers the cache gives where Apollo iOS and Apollo Client
    /// differ (Apollo iOS's unless given; `.semantics` changes it).
    package var semantics: Semantics
    /// How subscriptions open their WebSocket connections: Foundation's by default; the
    /// `normcache` executable gives swift-nio's on Linux (`NormWebSocketNIO`), where
    /// Foundation's needs a libcurl with WebSocket support.
    package var webSocketConnector: any WebSocketConnector = URLSessionWebSocketConnector()
    /// Standard output's terminal (``Session/onStandardStreams(_:console:)``): tables fit its width.
    var terminal: Terminal?
    /// An interactive session's pager (``REPL``).
    var pager: Pager?

    package static let defaultUser = "default"
    /// Emissions kept per watcher: enough for any test's `.expect watch ID #N`, while a
    /// watcher that emits for hours holds a few megabytes at most.
    package static let defaultWatchLog = 1000
    /// URLSession's default, in milliseconds.
    package static let defaultTimeout = Int(HTTPTransport.defaultTimeout * 1000)

    package init(cacheDirectory: String? = nil, user: String? = nil, inspectFile: String? = nil, follows: Bool = false,
                busyTimeout: Int = SQLiteStore.defaultBusyTimeout, loadsBundledPlugins: Bool = true, pluginDirectories: [String] = [], endpoint: String? = nil, timeout: Int = Self.defaultTimeout, projectDirectory: String? = nil,
                settlesEachCommand: Bool = true, mode: OutputMode = .tree, colour: Bool = false,
                echoes: Bool = false, bails: Bool = false, initFile: String? = nil, commands: [String] = [],
                watchLog: Int = SessionOptions.defaultWatchLog, semantics: Semantics = .apolloIOS) {
        self.cacheDirectory = cacheDirectory
        self.user = user
        self.inspectFile = inspectFile
        self.follows = follows
        self.busyTimeout = busyTimeout
        self.loadsBundledPlugins = loadsBundledPlugins
        self.pluginDirectories = pluginDirectories
        self.endpoint = endpoint
        self.timeout = timeout
        self.projectDirectory = projectDirectory
        self.settlesEachCommand = settlesEachCommand
        self.mode = mode
        self.colour = colour
        self.echoes = echoes
        self.bails = bails
        self.initFile = initFile
        self.commands = commands
        self.watchLog = watchLog
        self.semantics = semantics
    }
}
