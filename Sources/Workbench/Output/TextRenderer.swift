import NormCache
import NormClient

/// Events as people read them: data as a tree (``TreeView``) or as tables
/// (``TableView``), watch emissions after the first as `-`/`+` lines against the one
/// before, errors with their place and a caret.
///
/// ```swift
/// let renderer = TextRenderer(tables: false, style: TextStyle(colour: false))
/// renderer.render(.keys(["Trip:1"]))   // (output: ["Trip:1"], errors: [])
/// ```
struct TextRenderer {
    let tables: Bool
    let style: TextStyle

    func render(_ event: Event) -> (output: [String], errors: [String]) {
        switch event {
        case .result(let result):
            return (heading(result.operationName ?? "result", style.dim("from " + result.source.rawValue)) + data(result.data)
                    + result.errors.map { style.failure("server error: ") + Self.errorText($0) }
                    + result.redirects.map { style.dim("redirected by a field policy: ") + $0 }
                    + missing(result.missing), [])
        case .watch(let id, let operation, let number, let emission, let previous):
            let changed = emission.changed.isEmpty ? "" : " " + style.dim("(" + emission.changed.joined(separator: ", ") + ")")
            let title = heading("watch \(id) \(operation ?? "(anonymous)") #\(number)", emission.cause.rawValue + changed)
            let body = previous == nil ? data(emission.result.data) : diff(from: previous, to: emission.result.data)
            return (title + body + missing(emission.result.missing), [])
        case .watchFailure(let id, let message):
            return ([style.failure("watch \(id): fetch failed: ") + message], [])
        case .watchIncomplete(let id, let operation, let cause, let missing):
            return (heading("watch \(id) \(operation ?? "(anonymous)")", "incomplete after \(cause.rawValue): keeps its last complete data")
                    + self.missing(missing), [])
        case .watchUnheard(let id, let operation, let cause, let changed):
            let what = changed.isEmpty ? "" : " " + style.dim("(" + changed.joined(separator: ", ") + ")")
            return (heading("watch \(id) \(operation ?? "(anonymous)")",
                            "not told of this \(cause.rawValue) (Apollo iOS): keeps what it shows" + what), [])
        case .record(let key, let record):
            guard let record else { return (["no record " + key], []) }
            if tables { return ([key] + TableView(style: style).lines(header: ["field", "value"], rows: record.members.map { [$0, TableView.cell($1)] }), []) }
            return ([style.heading(key)] + TreeView(style: style).lines(of: record), [])
        case .keys(let keys):
            return (tables ? TableView(style: style).lines(header: ["key"], rows: keys.map { [$0] }) : keys, [])
        case .refs(let key, let from):
            if from.isEmpty { return (["nothing refers to \(key)"], []) }
            return (["\(key) is referred to by:"] + from.map { "  " + $0 }, [])
        case .network(let request):
            return ([style.dim("network \(request.endpoint) \(request.operation ?? "(anonymous)"): \(request.status), \(request.milliseconds) ms"
                               + (request.message.map { " (\($0))" } ?? ""))], [])
        case .write(let commit):
            let reached = commit.watchers.isEmpty ? "" : " → watcher" + (commit.watchers.count == 1 ? " " : "s ")
                + commit.watchers.map(String.init).joined(separator: ", ")
            return ([style.dim("monitor \(commit.cause.rawValue): ") + commit.changed.joined(separator: ", ") + style.dim(reached)], [])
        case .gc(let removed):
            return ([removed.isEmpty ? "gc: nothing to remove" : "gc removed \(removed.count) record\(removed.count == 1 ? "" : "s"): "
                     + removed.joined(separator: ", ")], [])
        case .stats(let statistics):
            let rows = Self.statisticsRows(statistics)
            if tables { return (TableView(style: style).lines(header: ["statistic", "value"], rows: rows.map { [$0.label, "\($0.value)"] }), []) }
            return (rows.map { "\($0.label): \($0.value)" }, [])
        case .state(let service, let state, let detail):
            return (["state \(service): \(state)" + (detail.map { " (\($0))" } ?? "")], [])
        case .expect(let ok, let message, let location):
            return ok ? ([], []) : ([], [style.failure("expectation failed") + (location.map { " at \($0)" } ?? "") + ": " + message])
        case .error(let message, let location, let source):
            return ([], [style.failure("error: ") + (location.map { "\($0): " } ?? "") + message] + (source?.caret ?? []))
        case .warning(let message):
            return ([], ["warning: " + message])
        case .plugins(let plugins):
            return (plugins.flatMap { plugin in [
                "\(plugin.name) \(plugin.version)  \(plugin.path)",
                "  services: " + plugin.manifest.services.map { "\($0.name) (\($0.domain))" }.joined(separator: ", "),
                "  operations: " + plugin.manifest.operations.keys.sorted().joined(separator: ", "),
                "  commands: " + plugin.manifest.commands.map(\.name).joined(separator: ", "),
            ] }, [])
        case .ok:
            return ([], [])
        case .info(_, _, let lines):
            return (lines, [])
        }
    }

    private func heading(_ title: String, _ detail: String) -> [String] { [style.heading(title) + " " + detail] }

    private func data(_ data: CacheValue?) -> [String] {
        guard case .object(let object)? = data else { return noData }
        return tables ? TableView(style: style).lines(ofData: object) : TreeView(style: style).lines(of: object)
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
            return TableView(style: style).lines(header: ["", "path", "value"], rows: rows)
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

    /// `.stats` rows, in the order they print: the JSON field, the label people read, the value.
    static func statisticsRows(_ statistics: CacheStatistics) -> [(field: String, label: String, value: Int)] {
        [("records", "records", statistics.records), ("fields", "fields", statistics.fields), ("watchers", "watchers", statistics.watchers),
         ("layers", "optimistic layers", statistics.layers), ("bytes", "bytes", statistics.bytes), ("hits", "hits", statistics.hits),
         ("misses", "misses", statistics.misses), ("recordKeys", "record keys", statistics.recordKeys),
         ("fieldKeys", "field keys", statistics.fieldKeys)]
    }

    /// A GraphQL error's message, with its path when it has one.
    static func errorText(_ error: CacheValue) -> String {
        guard case .string(let message)? = error["message"] else { return JSON.string(error) }
        guard case .list(let path)? = error["path"], !path.isEmpty else { return message }
        let steps = path.map { step in if case .string(let name) = step { name } else { JSON.string(step) } }
        return message + " (at " + steps.joined(separator: ".") + ")"
    }
}
