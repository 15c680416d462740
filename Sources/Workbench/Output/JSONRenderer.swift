import NormCache
import NormClient

/// Events as one JSON object per line, each with an `"event"` field, for programs
/// (`--json`, `.mode json`); docs/workbench.md lists the fields. References in data and
/// records print as `{"$reference":"K"}`.
///
/// ```swift
/// JSONRenderer.line(.keys(["Trip:1"]))   // {"event":"keys","keys":["Trip:1"]}
/// ```
enum JSONRenderer {
    static func line(_ event: Event) -> String {
        JSON.string(.object(object(event)), references: .apollo)
    }

    static func object(_ event: Event) -> CacheObject {
        switch event {
        case .result(let result):
            return ["event": "result", "op": name(result.operationName), "source": .string(result.source.rawValue),
                    "data": result.data ?? .null, "errors": .list(result.errors), "missing": strings(result.missing),
                    "complete": .bool(result.complete), "redirects": strings(result.redirects)]
        case .watch(let id, let operation, let number, let emission, _):
            return ["event": "watch", "id": CacheValue(id), "op": name(operation), "emission": CacheValue(number),
                    "cause": .string(emission.cause.rawValue), "data": emission.result.data ?? .null,
                    "changed": strings(emission.changed), "missing": strings(emission.result.missing)]
        case .watchFailure(let id, let message):
            return ["event": "error", "message": .string("watch \(id): fetch failed: \(message)"), "watch": CacheValue(id), "line": .null]
        case .watchIncomplete(let id, let operation, let cause, let missing):
            return ["event": "incomplete", "id": CacheValue(id), "op": name(operation), "cause": .string(cause.rawValue), "missing": strings(missing)]
        case .watchUnheard(let id, let operation, let cause, let changed):
            return ["event": "unheard", "id": CacheValue(id), "op": name(operation), "cause": .string(cause.rawValue), "changed": strings(changed)]
        case .record(let key, let record):
            return ["event": "record", "key": .string(key), "record": record.map(CacheValue.object) ?? .null]
        case .keys(let keys):
            return ["event": "keys", "keys": strings(keys)]
        case .refs(let key, let from):
            return ["event": "refs", "key": .string(key), "from": strings(from)]
        case .network(let request):
            return ["event": "network", "endpoint": .string(request.endpoint), "op": name(request.operation),
                    "status": .string(request.status), "ms": CacheValue(request.milliseconds), "message": name(request.message)]
        case .write(let commit):
            return ["event": "write", "cause": .string(commit.cause.rawValue), "keys": strings(commit.changed),
                    "watchers": .list(commit.watchers.map { CacheValue($0) })]
        case .gc(let removed):
            return ["event": "gc", "removed": strings(removed)]
        case .stats(let statistics):
            var object: CacheObject = ["event": "stats"]
            for row in TextRenderer.statisticsRows(statistics) { object[row.field] = CacheValue(row.value) }
            return object
        case .state(let service, let state, let detail):
            return ["event": "state", "service": .string(service), "state": .string(state), "detail": name(detail)]
        case .expect(let ok, let message, let location):
            return ["event": "expect", "ok": .bool(ok), "file": name(location?.file), "line": line(location), "message": .string(message)]
        case .error(let message, let location, let source):
            var object: CacheObject = ["event": "error", "message": .string(message), "file": name(location?.file), "line": line(location)]
            if let source { object["column"] = CacheValue(source.column) }
            return object
        case .warning(let message):
            return ["event": "warning", "message": .string(message)]
        case .plugins(let plugins):
            return ["event": "plugins", "plugins": .list(plugins.map { plugin in .object([
                "name": .string(plugin.name), "version": .string(plugin.version), "path": .string(plugin.path),
                "services": .list(plugin.manifest.services.map { .object(["name": .string($0.name), "domain": .string($0.domain)]) }),
                "operations": strings(plugin.manifest.operations.keys.sorted()),
                "commands": strings(plugin.manifest.commands.map(\.name)),
            ]) })]
        case .ok(let command):
            return ["event": "ok", "command": .string(command)]
        case .info(let event, let fields, _):
            var object: CacheObject = ["event": .string(event)]
            for (key, value) in fields.members { object[key] = value }
            return object
        }
    }

    private static func name(_ text: String?) -> CacheValue { text.map(CacheValue.string) ?? .null }
    private static func strings(_ items: [String]) -> CacheValue { .list(items.map(CacheValue.string)) }
    private static func line(_ location: SourceLocation?) -> CacheValue { location.map { CacheValue($0.line) } ?? .null }
}
