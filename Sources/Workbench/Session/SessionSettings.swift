import NormCache
import NormClient

/// What the user set in a session: the commands that change how the next commands run
/// (`.vars`, `.policy`, `.partial`, `.optimistic`, `.echo`, `.bail`, `.timer`, `.monitor`, `.history`)
/// change these, and the ``Session`` interpreting the lines reads them.
///
/// ```swift
/// var settings = SessionSettings(options: SessionOptions(bails: true))
/// settings.policy = .networkOnly   // .policy network-only
/// settings.bails                   // true: --bail
/// ```
struct SessionSettings {
    /// `.vars`: the variables of the next operations, each taking those it declares.
    var variables = CacheObject()
    /// `.policy`: the fetch policy of the next operations and watchers.
    var policy = FetchPolicy.cacheFirst
    /// `.partial on|off`: whether the next operations and watchers return what the cache
    /// holds when it cannot answer whole, nulls in the holes (Apollo Client's `returnPartialData`).
    var returnsPartialData = false
    /// `.optimistic`: the optimistic response for the next mutation, used once.
    var optimistic: CacheObject?
    /// `.echo`, `.bail`, `.timer`, `.monitor`: as sqlite3's shell has them.
    var echoes: Bool
    var bails: Bool
    var times = false
    var monitors = false
    /// `.history on|off`: whether the lines typed at the prompt go into the history.
    var recordsHistory = true

    /// The settings a session starts with: `--echo` and `--bail` as given; a cache file
    /// pulled off a device (`normcache inspect`) is read, never refreshed, so its policy
    /// is cache-only.
    init(options: SessionOptions) {
        echoes = options.echoes
        bails = options.bails
        if options.inspectFile != nil { policy = .cacheOnly }
    }
}
