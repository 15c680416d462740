import NormCache
import NormClient

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
    /// One record (nil: there is none).
    case record(key: String, record: CacheObject?)
    case keys([String])
    /// The record fields that refer to `key`.
    case refs(key: String, from: [String])
    /// A request finished (any endpoint, any status).
    case network(NetworkEvent)
    /// A commit changed record fields (`.monitor on`).
    case write(Commit)
    case gc(removed: [String])
    case stats(CacheStatistics)
    /// A service's state changed (loading, loaded, error).
    case state(service: String, state: String, detail: String?)
    /// An `.expect` held or failed.
    case expect(ok: Bool, message: String, at: SourceLocation?)
    /// A command failed; `source` is the text it failed on, for a caret under `column`.
    case error(message: String, at: SourceLocation?, source: SourceText?)
    case warning(String)
    case plugins([Plugin])
    /// A command that had nothing else to say succeeded (JSON mode only).
    case ok(command: String)
    /// Anything else a command reports: `fields` for JSON mode, `lines` for people.
    case info(event: String, fields: CacheObject, lines: [String])

    /// An emission, failure or incomplete read of a watcher: what the client's watch
    /// events become (everything else is reported by a command, the network or a service).
    var isWatcherEvent: Bool {
        switch self {
        case .watch, .watchFailure, .watchIncomplete, .watchUnheard: true
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
