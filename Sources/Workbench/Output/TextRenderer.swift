import Foundation
import NormCache
import NormClient
import NormPluginHost
import NormProject

/// Events as people read them: data as a tree (``TreeView``) or as tables
/// (``TableView``), watch emissions after the first as `-`/`+` lines against the one
/// before, errors with their place and a caret. Tables and column listings fit the
/// ``TableLayout``'s width.
///
/// What goes to standard error (`errors`) is what is not the data a command asked for:
/// errors, warnings, failed expectations, and what the session says of itself as it
/// starts (its cache), so that piped output holds the data alone.
///
/// ```swift
/// let renderer = TextRenderer(tables: false, style: TextStyle(colour: false))
/// renderer.render(.keys(["Trip:1"]))   // (output: ["Trip:1"], errors: [])
/// ```
struct TextRenderer {
    let tables: Bool
    let style: TextStyle
    /// How wide tables and listings may be.
    var layout = TableLayout.unlimited

    func render(_ event: Event) -> (output: [String], errors: [String]) {
        switch event {
        case .result(let result):
            let parts = result.hasNext.map { $0 ? ", more parts to come (@defer)" : ", the last part (@defer)" } ?? ""
            return (heading(result.operationName ?? "result", style.dim("from " + result.source.rawValue + parts)) + data(result.data)
                    + result.errors.map { style.failure(result.source == .cache ? "partial: " : "server error: ") + Self.errorText($0) }
                    + result.redirects.map { style.dim("redirected by a field policy: ") + $0 }
                    + (result.pending.isEmpty ? [] : [style.dim("pending (@defer, not in the cache): ") + result.pending.joined(separator: ", ")])
                    + missing(result.missing) + stale(result.stale, missing: result.missing), [])
        case .watch(let id, let operation, let number, let emission, let previous):
            let changed = emission.changed.isEmpty ? "" : " " + style.dim("(" + emission.changed.joined(separator: ", ") + ")")
            let title = heading("watch \(id) \(operation ?? "(anonymous)") #\(number)", emission.cause.rawValue + changed)
            let body = previous == nil ? data(emission.result.data) : diff(from: previous, to: emission.result.data)
            return (title + body + missing(emission.result.missing) + stale(emission.result.stale, missing: emission.result.missing), [])
        case .watchFailure(let id, let message):
            return ([style.failure("watch \(id): fetch failed: ") + message], [])
        case .watchIncomplete(let id, let operation, let cause, let missing):
            return (heading("watch \(id) \(operation ?? "(anonymous)")", "incomplete after \(cause.rawValue): keeps its last complete data")
                    + self.missing(missing), [])
        case .watchUnheard(let id, let operation, let cause, let changed):
            let what = changed.isEmpty ? "" : " " + style.dim("(" + changed.joined(separator: ", ") + ")")
            return (heading("watch \(id) \(operation ?? "(anonymous)")",
                            "not told of this \(cause.rawValue) (Apollo iOS): keeps what it shows" + what), [])
        case .pager(let pager):
            let next = pager.canLoadNext ? "can load next" : "no next page"
            let previous = pager.canLoadPrevious ? "can load previous" : "no previous page"
            let before = pager.previousPages == 0 ? "" : " (\(pager.previousPages) previous)"
            let detail = "page \(pager.page) emitted: \(pager.pages) page\(pager.pages == 1 ? "" : "s")\(before), \(pager.items.count) items, \(next), \(previous)"
            return (heading("pager \(pager.id) \(pager.operation ?? "(anonymous)")", detail) + data(.object([pager.list: .list(pager.items)])), [])
        case .record(let key, let record, let ages, let now):
            guard let record else { return (["no record " + key], []) }
            if tables { return ([key] + table.lines(header: ["field", "value"], rows: record.members.map { [$0, TableView.cell($1)] }) + self.ages(ages, now: now), []) }
            return ([style.heading(key)] + TreeView(style: style).lines(of: record) + self.ages(ages, now: now), [])
        case .keys(let keys):
            return (tables ? table.lines(header: ["key"], rows: keys.map { [$0] }) : keys, [])
        case .refs(let key, let from):
            if from.isEmpty { return (["nothing refers to \(key)"], []) }
            return (["\(key) is referred to by:"] + from.map { "  " + $0 }, [])
        case .graph(let key, let watcher, let depth, let dot, let file):
            guard let file else { return (dot.split(separator: "\n").map(String.init), []) }
            return (["wrote the graph of \(key ?? "watcher \(watcher!)'s records"), depth \(depth), to \(file)"], [])
        case .network(let request):
            return ([style.dim("network \(request.endpoint) \(request.operation ?? "(anonymous)"): \(request.status), \(request.milliseconds) ms"
                               + (request.message.map { " (\($0))" } ?? ""))], [])
        case .write(let commit):
            let reached = commit.watchers.isEmpty ? "" : " → watcher" + (commit.watchers.count == 1 ? " " : "s ")
                + commit.watchers.map(String.init).joined(separator: ", ")
            let unreached = commit.unreached.map { watcher in
                "watcher \(watcher.id) (\(watcher.operation ?? "(anonymous)") reads \(watcher.records.joined(separator: ", ")), none of the fields changed)"
            }
            return ([style.dim("monitor \(commit.cause.rawValue): ") + commit.changed.joined(separator: ", ") + style.dim(reached)]
                    + (unreached.isEmpty ? [] : [style.dim("  not reached: " + unreached.joined(separator: ", "))]), [])
        case .follow(let file, let change):
            return (followed(file, change), [])
        case .following(let file):
            return ([file.map { "following \($0): another process's commits to it reload here" } ?? "not following a file"], [])
        case .gc(let removed):
            return ([removed.isEmpty ? "gc: nothing to remove" : "gc removed \(Self.count(removed.count, "record")): " + removed.joined(separator: ", ")], [])
        case .staleRemoved(let fields):
            guard !fields.isEmpty else { return (["gc stale: no stale field"], []) }
            return (["gc stale removed \(Self.count(fields.count, "stale field")): " + fields.joined(separator: ", ")], [])
        case .maxAges(let own, let endpoint, let endpointName, let maxStale):
            func lines(_ ages: MaxAges, _ source: String) -> [String] {
                ages.rules.sorted { $0.key < $1.key }.map { coordinate, rule in
                    switch rule {
                    case .seconds(let seconds): "\(coordinate)  \(DurationText.of(seconds))  (\(source))"
                    case .inherit: "\(coordinate)  inherit  (\(source))"
                    }
                } + (ages.defaultMaxAge.map { ["default  \(DurationText.of($0))  (\(source))"] } ?? [])
            }
            let all = lines(own, ".maxage") + lines(endpoint, "@cacheControl in \(endpointName ?? "the endpoint")'s schema")
            return ((all.isEmpty ? ["no max age: nothing is ever stale"] : all) + ["max stale \(DurationText.of(maxStale))"], [])
        case .danglingRemoved(let removed):
            guard !removed.isEmpty else { return (["gc dangling: no reference to a record that no longer exists"], []) }
            return (["gc dangling removed the references to records that no longer exist from \(Self.count(removed.fields.count, "field")): "
                     + removed.fields.joined(separator: ", ")]
                    + (removed.records.isEmpty ? [] : ["and \(Self.count(removed.records.count, "record")) left empty: " + removed.records.joined(separator: ", ")]), [])
        case .history(let key, let field, let changes, let limit):
            let target = field.map { key + "." + $0 } ?? key
            guard !changes.isEmpty else {
                return (["no changes of \(target) kept" + (limit == 0 ? " (.history limit is 0: none are)" : "")], [])
            }
            if tables {
                return (table.lines(header: ["commit", "at", "cause", "origin", "field", "old", "new"], rows: changes.map { change in
                    ["#\(change.commit)", HistoryText.time(change.at), change.cause.rawValue, change.origin ?? "",
                     change.field, HistoryText.value(change.old), HistoryText.value(change.new)]
                }), [])
            }
            return (changes.map(HistoryText.line), [])
        case .clock(let clock):
            let setting = switch clock.setting {
            case .real(0): "real time"
            case .real(let offset): "real time + \(DurationText.of(offset))"
            case .fixed: "stopped; .clock real returns to real time"
            }
            return (["\(HistoryText.time(clock.now())) (\(setting))"], [])
        case .whyWatcher(let explanation):
            return (WhyText.lines(explanation, style: style), [])
        case .whyOperation(let run, let result):
            return (WhyText.lines(run, result: result, style: style), [])
        case .stats(let statistics):
            let rows = Self.statisticsRows(statistics)
            if tables { return (table.lines(header: ["statistic", "value"], rows: rows.map { [$0.label, "\($0.value)"] }), []) }
            return (rows.map { "\($0.label): \($0.value)" }, [])
        case .state(let service, let state, let detail):
            return (["state \(service): \(state)" + (detail.map { " (\($0))" } ?? "")], [])
        case .expect(let ok, let message, let location):
            return ok ? ([], []) : ([], [style.failure("expectation failed") + (location.map { " at \($0)" } ?? "") + ": " + message])
        case .error(let message, let location, let source):
            return ([], [style.failure("error: ") + (location.map { "\($0): " } ?? "") + message] + (source?.caret ?? []))
        case .warning(let message):
            return ([], ["warning: " + message])
        case .plugins(let plugins, let searched):
            if plugins.isEmpty { return ([Self.noPlugins(searched: searched)], []) }
            return (listing(header: ["plugin", "version", "services", "operations", "commands", "path"], rows: plugins.map { plugin in [
                plugin.name, plugin.version,
                plugin.manifest.services.map { "\($0.name) (\($0.domain))" }.joined(separator: ", "),
                plugin.manifest.operations.keys.sorted().joined(separator: ", "),
                plugin.manifest.commands.map(\.name).joined(separator: ", "),
                plugin.path,
            ] }), [])
        case .ok:
            return ([], [])
        case .cache(let description, let records, let atStart):
            let line = "cache: \(description), \(Self.count(records, "record"))"
            return atStart ? ([], [line]) : ([line], [])
        case .echo(let line):
            return ([line], [])
        case .timer(let milliseconds):
            return (["time: " + String(format: "%.3f", milliseconds) + " ms"], [])
        case .stopped(let watchers):
            return (["stopped watchers: " + watchers.map(String.init).joined(separator: ", ")], [])
        case .loggedOut(let deleted):
            return ([deleted.map { "logged out: \($0) deleted" } ?? "logged out: the cache is cleared"], [])
        case .help(let commands):
            return (table.columns(commands.map { [$0.synopsis, $0.help] }, whole: ".help COMMAND"), [])
        case .commandHelp(let command):
            let also = command.aliases.isEmpty ? [] : ["  also: " + command.aliases.map { "." + $0 }.joined(separator: ", ")]
            return ([command.synopsis, "  " + command.help] + also, [])
        case .mode(let mode):
            return ([mode.rawValue], [])
        case .version(let version):
            return (["normcache \(version)"], [])
        case .policy(let policy):
            return ([policy.name], [])
        case .semantics(let semantics):
            return ([semantics.name], [])
        case .variables(let variables):
            return ([JSON.string(.object(variables))], [])
        case .timeout(let milliseconds):
            return (["timeout \(milliseconds) ms"], [])
        case .watchLogLimit(let limit):
            return (["the watch log keeps the last \(limit) emissions of each watcher"], [])
        case .shell(_, _, let output):
            var lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if lines.last == "" { lines.removeLast() }
            return (lines, [])
        case .pluginLoaded(let plugin):
            return (["loaded \(plugin.name) \(plugin.version) from \(plugin.path)"], [])
        case .pluginOperations(let operations):
            return (operations.map { "\($0.name)  " + ($0.document.split(separator: "\n").first.map(String.init) ?? "") }, [])
        case .pluginCommands(let commands):
            return (table.columns(commands.map { command in
                let refetch = command.refetch.isEmpty ? "" : " (then refetches \(command.refetch.joined(separator: ", ")))"
                return [command.name + " " + command.usage, command.help + refetch]
            }), [])
        case .serviceOutput(_, let lines):
            return (lines, [])
        case .project(let project, let endpoint):
            guard let project else { return (["no project (.project DIR loads one)"], []) }
            let policies = project.schemaKnowledge.typePolicies.types
            return ([
                "project \(project.directory)",
                "  schema: " + project.schemaFiles.joined(separator: ", "),
                "  \(project.operations.count) operations and \(project.fragments.count) fragments in \(project.operationFiles.count) files",
                "  type policies: " + (policies.isEmpty ? "none" : policies.joined(separator: ", ")),
                endpoint.map { "  its endpoint: \($0)" } ?? "  the endpoint is a plugin's: .project DIR again returns to the project's",
            ], [])
        case .projectOperations(let definitions):
            return (definitions.map { "\($0.name)  \($0.kind.rawValue)  \($0.file):\($0.line)" }, [])
        case .schema(let sdl):
            return ([sdl], [])
        case .watching(let id, let operation):
            return (["watching \(operation ?? "an anonymous query") as watcher \(id)"], [])
        case .subscribed(let id, let operation, let url, let subprotocol):
            return (["subscribed to \(operation ?? "an anonymous subscription") as subscription \(id) (\(url), \(subprotocol ?? "no subprotocol"))"], [])
        case .subscriptionEvent(let id, let operation, let number, let result):
            return (heading("subscription \(id) \(operation ?? "(anonymous)") #\(number)", "written (cause subscription)") + data(result.data)
                    + result.errors.map { style.failure("server error: ") + Self.errorText($0) }, [])
        case .subscriptionEnded(let id, let operation, let events, let reason, let failed):
            let line = "subscription \(id) \(operation ?? "(anonymous)") ended after \(events) event\(events == 1 ? "" : "s"): \(reason)"
            return failed ? ([], [style.failure(line)]) : ([line], [])
        case .subscriptions(let running):
            if running.isEmpty { return (["no subscriptions (.subscribe OPERATION starts one)"], []) }
            return (running.map { running in
                "\(running.id)  \(running.operation ?? "(anonymous)")  \(JSON.string(.object(running.subscription.variables), sortedKeys: true))  "
                    + "\(running.events) event\(running.events == 1 ? "" : "s")  \(running.transport.name)"
            }, [])
        case .more(let id, let direction, let variables, let reason):
            if let reason { return (["\(id): \(reason); nothing sent"], []) }
            return (["\(id): \(direction.rawValue) page \(JSON.string(.object(variables ?? CacheObject()), sortedKeys: true))"], [])
        case .paging(let id, let operation, let list):
            return (["paging \(operation ?? "an anonymous query")'s \(list) as pager \(id) (its first page is watcher \(id); .more \(id) loads the next)"], [])
        case .watches(let watches):
            return (listing(header: ["id", "operation", "variables", "policy", "refetch", "emissions", "endpoint"], rows: watches.map { watch in
                ["\(watch.id)", watch.operation ?? "(anonymous)", JSON.string(.object(watch.variables)), watch.policy.name,
                 watch.refetchPolicy.name, "\(watch.emissions)", watch.endpoint]
            }), [])
        case .typePolicies(let own, let endpoint, let endpointName, let defaultKeyFields):
            func described(_ policies: [(type: String, policy: TypePolicies.Policy)], from source: String?) -> [String] {
                let origin = source.map { " (from \($0))" } ?? ""
                return policies.map { type, policy in
                    switch policy {
                    case .keyFields(let fields, let group): "\(type): " + fields.joined(separator: "+") + (group.map { " (as \($0))" } ?? "") + origin
                    case .notNormalized: "\(type): never normalized\(origin)"
                    }
                }
            }
            let fallback = defaultKeyFields.joined(separator: "+")
            return (described(own, from: nil) + described(endpoint, from: endpointName)
                + ["other types: \(fallback.isEmpty ? "never normalized" : fallback)"], [])
        case .evicted(let removed):
            return (["evicted: " + removed.joined(separator: ", ")], [])
        case .snapshot(let snapshot):
            return (SnapshotText.text(of: snapshot).split(separator: "\n").map(String.init), [])
        case .exported(let file, let records):
            return (["wrote \(Self.count(records, "record")) to \(file)"], [])
        case .imported(let file, let records):
            return (["imported \(Self.count(records, "record")) from \(file)"], [])
        case .integrityChecked(let file):
            return (["\(file): ok (PRAGMA integrity_check)"], [])
        case .diff(let a, let b, let diff):
            return (DiffText.lines(diff, a: a, b: b, table: tables ? table : nil, style: style), [])
        }
    }

    /// `1 record`, `2 records`.
    static func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }

    private func heading(_ title: String, _ detail: String) -> [String] { [style.heading(title) + " " + detail] }

    /// What another process changed in a followed file: a line a record, its fields old →
    /// new as `.history` writes them; a record the session never read only by its key.
    private func followed(_ file: String, _ change: ExternalChange) -> [String] {
        let counts = [(change.changed.count, "changed"), (change.removed.count, "removed")].filter { $0.0 > 0 }
            .map { Self.count($0.0, "record") + " " + $0.1 }
        let commit = change.commit.map { style.dim(" (commit #\($0))") } ?? ""
        return heading("follow " + file, counts.joined(separator: ", ") + commit)
            + change.changed.map { record in
                guard record.wasRead else {
                    return "  \(record.key): " + style.dim((record.isNew ? "new in the file" : "changed in the file") + ", not read here yet")
                }
                return "  \(record.key): " + record.fields.map { HistoryText.change($0.field, $0.old, $0.new) }.joined(separator: ", ")
            }
            + change.removed.map { "  \($0): " + style.dim("removed") }
    }

    private var table: TableView { TableView(style: style, layout: layout) }

    /// Rows of a listing (`.watches`, `.plugins`): a table in table mode, else columns under a header.
    private func listing(header: [String], rows: [[String]]) -> [String] {
        tables ? table.lines(header: header, rows: rows) : table.columns(rows, header: header)
    }

    private func data(_ data: CacheValue?) -> [String] {
        guard case .object(let object)? = data else { return noData }
        return tables ? table.lines(ofData: object) : TreeView(style: style).lines(of: object)
    }

    /// What a result without data (nil, or a JSON null) shows in place of its data.
    private var noData: [String] { ["  " + style.dim("(no data)")] }

    /// A later emission against the one shown before: `-`/`+` lines for the leaves that
    /// changed (a watch shows only complete data; anything else shows as it is).
    private func diff(from old: CacheValue?, to new: CacheValue?) -> [String] {
        guard case .object(let before)? = old, case .object(let after)? = new else { return data(new) }
        let lines = DataDiff.lines(from: before, to: after)
        if lines.isEmpty { return ["  " + style.dim("(the data did not change)")] }
        if tables {
            let rows = lines.map { line in
                switch line {
                case .removed(let path, let value): ["-", path, TableView.cell(value)]
                case .added(let path, let value): ["+", path, TableView.cell(value)]
                }
            }
            return table.lines(header: ["", "path", "value"], rows: rows)
        }
        return lines.map { line in
            switch line {
            case .removed(let path, let value): style.removed("- \(path): \(TableView.cell(value))")
            case .added(let path, let value): style.added("+ \(path): \(TableView.cell(value))")
            }
        }
    }

    private func missing(_ fields: [String]) -> [String] {
        fields.isEmpty ? [] : [style.dim("missing: ") + fields.joined(separator: ", ")]
    }

    /// `.inspect`'s ages, when some field has a max age (.maxage, `@cacheControl`, the
    /// response's `Cache-Control`): each field with a known time, how long ago it was
    /// received, its max age and whether it is stale.
    private func ages(_ ages: [NormalizedCache.FieldAge], now: Date) -> [String] {
        let known = ages.filter { $0.received != nil }
        guard known.contains(where: { $0.maxAge != nil }) else { return [] }
        return [style.dim("received:")] + known.map { age in
            "  \(age.field)  \(DurationText.of(now.timeIntervalSince(age.received!))) ago"
                + (age.maxAge.map { ", max age \(DurationText.of($0))" } ?? "") + (age.stale ? " " + style.failure("stale") : "")
        }
    }

    /// The stale fields a read answered with (past their max age, within max stale); those
    /// it missed as stale are under missing already.
    private func stale(_ fields: [String], missing: [String]) -> [String] {
        let read = fields.filter { !missing.contains($0) }
        return read.isEmpty ? [] : [style.dim("stale: ") + read.joined(separator: ", ")]
    }

    /// `.stats` rows, in the order they print: the JSON field, the label people read, the value.
    static func statisticsRows(_ statistics: CacheStatistics) -> [(field: String, label: String, value: Int)] {
        [("records", "records", statistics.records), ("fields", "fields", statistics.fields), ("watchers", "watchers", statistics.watchers),
         ("layers", "optimistic layers", statistics.layers), ("bytes", "bytes", statistics.bytes), ("hits", "hits", statistics.hits),
         ("misses", "misses", statistics.misses), ("recordKeys", "record keys", statistics.recordKeys),
         ("fieldKeys", "field keys", statistics.fieldKeys), ("historyChanges", "history changes", statistics.historyChanges),
         ("historyBytes", "history bytes", statistics.historyBytes)]
    }

    /// What the session says when no plugin loaded, at its start (a warning) and to
    /// `.plugins`: where it looked, and how to point it elsewhere.
    static func noPlugins(searched: [String]) -> String {
        "no plugins found (looked in: \(searched.joined(separator: ", ")); set \(PluginSearch.variable) or --plugins DIR)"
    }

    /// A GraphQL error's message, with its path when it has one.
    static func errorText(_ error: CacheValue) -> String {
        guard case .string(let message)? = error["message"] else { return JSON.string(error) }
        guard case .list(let path)? = error["path"], !path.isEmpty else { return message }
        let steps = path.map { step in if case .string(let name) = step { name } else { JSON.string(step) } }
        return message + " (at " + steps.joined(separator: ".") + ")"
    }
}
