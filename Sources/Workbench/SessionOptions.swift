import NormCache

/// How a session starts: where its cache lives and how long it waits for a lock.
///
/// ```swift
/// let options = SessionOptions(cacheDirectory: "/tmp/caches", user: "alice")
/// let session = try Session(options: options, output: { print($0) }, errors: { print($0) })
/// ```
public struct SessionOptions: Sendable {
    /// `--cache-dir`: per-user stores `DIR/USER.sqlite`; nil keeps the cache in memory.
    public var cacheDirectory: String?
    /// `--user`: the user logged in at start (``defaultUser`` when a cache directory is given).
    public var user: String?
    /// `normcache inspect FILE`: the file to open read-only.
    public var inspectFile: String?
    /// `--busy-timeout`: milliseconds to wait for another process's lock on a cache file.
    public var busyTimeout: Int
    /// Load the plugins beside the executable (`libnormcache_*.so`), as `normcache` does.
    public var loadsBundledPlugins: Bool
    /// `--plugins DIR`: more directories whose `*.so` files are loaded as plugins.
    public var pluginDirectories: [String]
    /// `--endpoint URL`: an HTTP GraphQL endpoint to start with, instead of the first plugin.
    public var endpoint: String?
    /// Finish each command's consequences (background fetches, refetches, emissions)
    /// before the next line runs: true for scripts and pipes, false at an interactive
    /// prompt, where emissions print whenever they happen.
    public var settlesEachCommand: Bool

    public static let defaultUser = "default"

    public init(cacheDirectory: String? = nil, user: String? = nil, inspectFile: String? = nil,
                busyTimeout: Int = SQLiteStore.defaultBusyTimeout, loadsBundledPlugins: Bool = true, pluginDirectories: [String] = [], endpoint: String? = nil,
                settlesEachCommand: Bool = true) {
        self.cacheDirectory = cacheDirectory
        self.user = user
        self.inspectFile = inspectFile
        self.busyTimeout = busyTimeout
        self.loadsBundledPlugins = loadsBundledPlugins
        self.pluginDirectories = pluginDirectories
        self.endpoint = endpoint
        self.settlesEachCommand = settlesEachCommand
    }
}
