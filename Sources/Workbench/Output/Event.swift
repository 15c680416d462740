import Foundation
import NormCache
import NormClient
import NormPluginHost
import NormProject

/// One thing the workbench reports. Commands and callbacks describe what happened as
/// events; the ``Printer`` renders each in the session's mode: a tree or tables for
/// people, one JSON object per line for programs (docs/workbench.md lists the JSON fields).
///
/// ```swift
/// printer.emit(.keys(["Trip:1", "Trip:2"]))
/// // tree:  Trip:1 / Trip:2, one a line
/// // json:  {"event":"keys","keys":["Trip:1","Trip:2"]}
/// ```
enum Event {
    /// An operation's result.
    case result(ClientResult)
    /// A watcher's emission `number` (1 = first shown); `previous` is the data of the one
    /// before (nil for the first).
    case watch(id: Int, operation: String?, number: Int, emission: WatchEmission, previous: CacheValue?)
    /// A watcher's fetch failed; the watcher goes on.
    case watchFailure(id: Int, message: String)
    /// A cache-only watcher's read became incomplete (`missing`, after a change of
    /// `cause`); its view keeps the last complete data.
    case watchIncomplete(id: Int, operation: String?, cause: ChangeCause, missing: [String])
    /// A change of `cause` reached a watcher's read, but under Apollo iOS's semantics its
    /// watcher is not told (records removed; a cache-only watch with no answer yet): its
    /// view keeps what it shows.
    case watchUnheard(id: Int, operation: String?, cause: ChangeCause, changed: [String])
    /// A page of a pager (`.pager`) emitted: the items of every page, concatenated.
    case pager(QueryPager.Snapshot)
    /// One record (nil: there is none), with its fields' ages at `now` (`.inspect`).
    case record(key: String, record: CacheObject?, ages: [NormalizedCache.FieldAge], now: Date)
    case keys([String])
    /// The record fields that refer to `key`.
    case refs(key: String, from: [String])
    /// `.graph`: the records around `key`, or those watcher `watcher` depends on, within
    /// `depth` references, as DOT text; written to `file` (as DOT, SVG or PNG) when named.
    case graph(key: String?, watcher: Int?, depth: Int, dot: String, file: String?)
    /// A request finished (any endpoint, any status).
    case network(NetworkEvent)
    /// A commit changed record fields (`.monitor on`).
    case write(Commit)
    /// Another process committed to the followed cache `file` (`.follow on`): what changed,
    /// reloaded into the cache.
    case follow(file: String, change: ExternalChange)
    /// `.follow` alone: the file followed, nil when none is.
    case following(file: String?)
    case gc(removed: [String])
    /// `.gc dangling`: the fields whose references to absent records went, and the records left empty.
    case danglingRemoved(RemovedReferences)
    /// `.gc stale`: the record fields removed as stale.
    case staleRemoved([String])
    /// `.maxage`, `.maxstale` alone: the max ages set on the cache, those of the current
    /// endpoint's schema (`@cacheControl`), and the max stale.
    case maxAges(own: MaxAges, endpoint: MaxAges, endpointName: String?, maxStale: Double)
    case stats(CacheStatistics)
    /// `.history KEY[.FIELD]`: the changes kept of record `key` (or of its `field`), oldest
    /// first, and how many the cache keeps of a record.
    case history(key: String, field: String?, changes: [HistoryChange], limit: Int)
    /// `.why ID`: each commit since watcher `id` last emitted, reached or not, and why.
    case whyWatcher(WatcherExplanation)
    /// `.why` alone: the last operation run, and its result (nil when it failed without one).
    case whyOperation(OperationRun, result: ClientResult?)
    /// `.clock`: the session's clock after the command.
    case clock(CacheClock)
    /// A service's state changed (loading, loaded, error).
    case state(service: String, state: String, detail: String?)
    /// An `.expect` held or failed.
    case expect(ok: Bool, message: String, at: SourceLocation?)
    /// A command failed; `source` is the text it failed on, for a caret under `column`.
    case error(message: String, at: SourceLocation?, source: SourceText?)
    case warning(String)
    /// `.plugins`: the loaded plugins, and the directories looked in for them.
    case plugins([LoadedPlugin], searched: [String])
    /// A command that had nothing else to say succeeded (JSON mode only).
    case ok(command: String)

    // What the session reports of itself.

    /// The cache the session is over (a file, a user's store) and how many records it holds;
    /// `atStart`: as the session starts (not a command's answer, so not on standard output).
    case cache(description: String, records: Int, atStart: Bool)
    /// A line about to run (`.echo on`).
    case echo(line: String)
    /// How long a command took (`.timer on`).
    case timer(milliseconds: Double)
    /// Watchers stopped because the cache they read was switched (`.open`, `.login`, `.logout`).
    case stopped(watchers: [Int])
    /// The user's store was deleted (`described`; nil: the cache was in memory) by `.logout`.
    case loggedOut(deleted: String?)

    // What a command shows or did.

    /// `.help`: every command.
    case help([DotCommand])
    /// `.help COMMAND`: one command's help.
    case commandHelp(DotCommand)
    case mode(OutputMode)
    /// `.version`: normcache's version.
    case version(String)
    case policy(FetchPolicy)
    case semantics(Semantics)
    case variables(CacheObject)
    case timeout(milliseconds: Int)
    /// How many emissions of each watcher the watch log keeps.
    case watchLogLimit(Int)
    /// `.shell`: the command, its exit status and what it wrote.
    case shell(command: String, status: Int32, output: String)
    case pluginLoaded(LoadedPlugin)
    /// A plugin's named operations and their documents, sorted by name.
    case pluginOperations([(name: String, document: String)])
    /// The service commands of the loaded plugins.
    case pluginCommands([PluginManifest.Command])
    /// What a service command printed.
    case serviceOutput(command: String, lines: [String])
    /// The project loaded (nil: none); `endpoint` is its endpoint's name when the session
    /// runs on it, nil when the endpoint is a plugin's.
    case project(Project?, endpoint: String?)
    /// The project's operations and fragments, with file and line.
    case projectOperations([ProjectDefinition])
    /// SDL: the endpoint's schema, or one type of it.
    case schema(sdl: String)
    /// A watcher started.
    case watching(id: Int, operation: String?)
    /// `.subscribe`: subscription `id` runs, over `url` in `subprotocol`.
    case subscribed(id: Int, operation: String?, url: String, subprotocol: String?)
    /// The `number`th event (1 = the first) of subscription `id`, written into the cache.
    case subscriptionEvent(id: Int, operation: String?, number: Int, result: ClientResult)
    /// Subscription `id` ended after `events` events: the server completed it, `.unsubscribe`
    /// stopped it, or (`failed`) the server or the connection ended it with an error.
    case subscriptionEnded(id: Int, operation: String?, events: Int, reason: String, failed: Bool)
    /// `.subscriptions`: those running.
    case subscriptions([Subscriptions.Running])
    /// A pager started (`.pager`): its id, its first page's watcher's, and the list it pages.
    case paging(id: Int, operation: String?, list: String)
    /// `.more ID [next|previous|all]`: the next (or previous) page asked for with
    /// `variables`, or, with `reason`, none sent.
    case more(id: Int, direction: NextPage.Direction, variables: CacheObject?, reason: String?)
    /// The active watchers, as they were when listed.
    case watches([WatcherListing])
    /// The type policies set with `.keyfields`, those of the endpoint's schema that they do
    /// not override (`endpointName` says whose), and the key fields of every other type.
    case typePolicies(own: [(type: String, policy: TypePolicies.Policy)], endpoint: [(type: String, policy: TypePolicies.Policy)],
                      endpointName: String?, defaultKeyFields: [String])
    case evicted([String])
    /// The cache as an Apollo Client snapshot.
    case snapshot(CacheValue)
    /// A snapshot of `records` records written to or read from `file`.
    case exported(file: String, records: Int)
    case imported(file: String, records: Int)
    /// The cache file passed SQLite's integrity check.
    case integrityChecked(file: String)
    /// `.diff FILE`, `normcache diff A B`: what differs from the records of cache `a` (a
    /// file, or the session's cache as ``CacheScope/description`` names it) to those of `b`.
    case diff(a: String, b: String, CacheDiff)

    /// An emission, failure or incomplete read of a watcher: what the client's watch
    /// events become (everything else is reported by a command, the network or a service).
    var isWatcherEvent: Bool {
        switch self {
        case .watch, .watchFailure, .watchIncomplete, .watchUnheard, .pager: true
        default: false
        }
    }
}

/// Where a line came from: a script file (or `<stdin>`) and its line number.
///
/// ```swift
/// SourceLocation(file: "examples/offline-from-cache.repl", line: 25).description   // examples/offline-from-cache.repl:25
/// ```
struct SourceLocation: Sendable, Equatable, CustomStringConvertible {
    let file: String
    let line: Int

    var description: String { "\(file):\(line)" }
}

/// Text a command failed on and the place in it, e.g. a GraphQL syntax error at line 2,
/// column 9 of the operation: rendered as that line with a caret under the column.
///
/// ```swift
/// SourceText(text: "{ trips { } }", line: 1, column: 11).caret   // ["  { trips { } }", "            ^"]
/// ```
struct SourceText: Sendable, Equatable {
    let text: String
    let line: Int
    let column: Int

    /// The offending line, indented, and a caret under the column.
    var caret: [String] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.indices.contains(line - 1) else { return [] }
        let shown = lines[line - 1]
        let pad = shown.prefix(max(0, column - 1)).map { $0 == "\t" ? "\t" : " " }.joined()
        return ["  " + shown, "  " + pad + "^"]
    }
}
