import Foundation
import NormCache
import NormClient
import NormProject

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
            var object: CacheObject = ["event": "result", "op": name(result.operationName), "source": .string(result.source.rawValue),
                                       "data": result.data ?? .null, "errors": .list(result.errors), "missing": strings(result.missing),
                                       "complete": .bool(result.complete), "stale": strings(result.stale), "redirects": strings(result.redirects)]
            if !result.pending.isEmpty { object["pending"] = strings(result.pending) }
            if let hasNext = result.hasNext { object["hasNext"] = .bool(hasNext) }
            return object
        case .watch(let id, let operation, let number, let emission, _):
            return ["event": "watch", "id": CacheValue(id), "op": name(operation), "emission": CacheValue(number),
                    "cause": .string(emission.cause.rawValue), "data": emission.result.data ?? .null,
                    "changed": strings(emission.changed), "missing": strings(emission.result.missing), "stale": strings(emission.result.stale)]
        case .watchFailure(let id, let message):
            return ["event": "error", "message": .string("watch \(id): fetch failed: \(message)"), "watch": CacheValue(id), "line": .null]
        case .watchIncomplete(let id, let operation, let cause, let missing):
            return ["event": "incomplete", "id": CacheValue(id), "op": name(operation), "cause": .string(cause.rawValue), "missing": strings(missing)]
        case .watchUnheard(let id, let operation, let cause, let changed):
            return ["event": "unheard", "id": CacheValue(id), "op": name(operation), "cause": .string(cause.rawValue), "changed": strings(changed)]
        case .pager(let pager):
            return CacheObject(members: [("event", "pager")] + pager.json.members)
        case .record(let key, let record, let ages, let now):
            var object: CacheObject = ["event": "record", "key": .string(key), "record": record.map(CacheValue.object) ?? .null]
            if record != nil {
                object["ages"] = .object(CacheObject(members: ages.map { age -> (String, CacheValue) in
                    let received: CacheValue = age.received.map { seconds(now.timeIntervalSince($0)) } ?? .null
                    let maxAge: CacheValue = age.maxAge.map(seconds) ?? .null
                    return (age.field, .object(["age": received, "maxAge": maxAge, "stale": .bool(age.stale)]))
                }))
            }
            return object
        case .keys(let keys):
            return ["event": "keys", "keys": strings(keys)]
        case .refs(let key, let from):
            return ["event": "refs", "key": .string(key), "from": strings(from)]
        case .graph(let key, let watcher, let depth, let dot, let file):
            var object: CacheObject = ["event": "graph", "key": name(key), "watcher": watcher.map { CacheValue($0) } ?? .null,
                                       "depth": CacheValue(depth), "dot": .string(dot)]
            if let file { object["file"] = .string(file) }
            return object
        case .network(let request):
            return ["event": "network", "endpoint": .string(request.endpoint), "op": name(request.operation),
                    "status": .string(request.status), "ms": CacheValue(request.milliseconds), "message": name(request.message)]
        case .write(let commit):
            return ["event": "write", "cause": .string(commit.cause.rawValue), "keys": strings(commit.changed),
                    "watchers": .list(commit.watchers.map { CacheValue($0) }), "unreached": .list(commit.unreached.map { CacheValue($0.id) })]
        case .follow(let file, let change):
            let fields = change.changed.filter(\.wasRead).map { record in
                (record.key, CacheValue.object(CacheObject(members: record.fields.map { ($0.field, .list([$0.old ?? .null, $0.new ?? .null])) })))
            }
            return ["event": "follow", "file": .string(file), "changed": strings(change.changed.map(\.key)), "removed": strings(change.removed),
                    "fields": .object(CacheObject(members: fields)), "commit": change.commit.map { CacheValue($0) } ?? .null]
        case .following(let file):
            return ["event": "following", "file": name(file)]
        case .gc(let removed):
            return ["event": "gc", "removed": strings(removed)]
        case .danglingRemoved(let removed):
            return ["event": "gc", "removed": strings(removed.records), "references": strings(removed.fields)]
        case .staleRemoved(let fields):
            return ["event": "gc", "removed": [], "stale": strings(fields)]
        case .maxAges(let own, let endpoint, let endpointName, let maxStale):
            func rules(_ ages: MaxAges) -> CacheValue {
                .object(CacheObject(members: ages.rules.sorted { $0.key < $1.key }.map { coordinate, rule in
                    switch rule {
                    case .seconds(let value): (coordinate, seconds(value))
                    case .inherit: (coordinate, "inherit")
                    }
                }))
            }
            return ["event": "maxage", "rules": rules(own), "default": own.defaultMaxAge.map(seconds) ?? .null,
                    "endpoint": name(endpointName), "endpointRules": rules(endpoint),
                    "endpointDefault": endpoint.defaultMaxAge.map(seconds) ?? .null, "maxStale": seconds(maxStale)]
        case .history(let key, _, let changes, _):
            return ["event": "history", "key": .string(key), "changes": .list(changes.map { change in
                ["commit": CacheValue(change.commit), "at": .string(HistoryText.time(change.at)), "cause": .string(change.cause.rawValue),
                 "origin": name(change.origin), "field": .string(change.field), "old": change.old ?? .null, "new": change.new ?? .null]
            })]
        case .clock(let clock):
            let offset: CacheValue = if case .real(let seconds) = clock.setting { CacheValue(seconds) } else { .null }
            return ["event": "clock", "now": .string(HistoryText.time(clock.now())),
                    "real": .bool(clock.setting == .real(offset: 0)), "offset": offset]
        case .whyWatcher(let why):
            return ["event": "why", "id": CacheValue(why.watcher), "op": name(why.operation), "emissions": CacheValue(why.emissions),
                    "emittedAfter": CacheValue(why.emittedAfter), "forgotten": CacheValue(why.forgotten),
                    "commits": .list(why.commits.map { commit in
                        ["commit": CacheValue(commit.number), "at": .string(HistoryText.time(commit.at)), "cause": .string(commit.cause.rawValue),
                         "origin": name(commit.origin), "changed": strings(commit.changed.map(\.description)), "reached": .bool(commit.reached),
                         "code": .string(commit.reason.code.rawValue), "reason": .string(commit.reason.text), "hint": name(commit.reason.hint)]
                    })]
        case .whyOperation(let run, let result):
            let decision = run.decision
            return ["event": "why", "op": name(run.operation.name), "policy": .string(run.policy.applied(to: run.operation).name),
                    "source": name(result?.source.rawValue), "requested": .bool(decision.requested), "reason": .string(decision.reason),
                    "pending": strings(result?.pending ?? []),
                    "missing": .list(run.misses.map { miss in
                        ["field": .string(miss.field), "code": .string(miss.reason.code.rawValue), "reason": .string(miss.reason.text),
                         "nearest": strings(miss.nearest), "hint": name(miss.reason.hint)]
                    })]
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
        case .plugins(let plugins, let searched):
            return ["event": "plugins", "searched": strings(searched), "plugins": .list(plugins.map { plugin in .object([
                "name": .string(plugin.name), "version": .string(plugin.version), "path": .string(plugin.path),
                "services": .list(plugin.manifest.services.map { .object(["name": .string($0.name), "domain": .string($0.domain)]) }),
                "operations": strings(plugin.manifest.operations.keys.sorted()),
                "commands": strings(plugin.manifest.commands.map(\.name)),
            ]) })]
        case .ok(let command):
            return ["event": "ok", "command": .string(command)]
        case .cache(let description, let records, _):
            return ["event": "cache", "cache": .string(description), "records": CacheValue(records)]
        case .echo(let line):
            return ["event": "echo", "line": .string(line)]
        case .timer(let milliseconds):
            return ["event": "timer", "ms": .double(milliseconds)]
        case .stopped(let watchers):
            return ["event": "stopped", "watchers": .list(watchers.map { CacheValue($0) })]
        case .loggedOut(let deleted):
            return ["event": "logout", "deleted": name(deleted)]
        case .help(let commands):
            return ["event": "help", "commands": .list(commands.map(summary))]
        case .commandHelp(let command):
            return ["event": "help", "commands": .list([summary(command)])]
        case .mode(let mode):
            return ["event": "mode", "mode": .string(mode.rawValue)]
        case .version(let version):
            return ["event": "version", "version": .string(version)]
        case .policy(let policy):
            return ["event": "policy", "policy": .string(policy.name)]
        case .semantics(let semantics):
            return ["event": "semantics", "semantics": .string(semantics.name)]
        case .variables(let variables):
            return ["event": "vars", "variables": .object(variables)]
        case .timeout(let milliseconds):
            return ["event": "timeout", "ms": CacheValue(milliseconds)]
        case .watchLogLimit(let limit):
            return ["event": "watchlog", "limit": CacheValue(limit)]
        case .shell(let command, let status, let output):
            return ["event": "shell", "command": .string(command), "status": .int(Int64(status)), "output": .string(output)]
        case .pluginLoaded(let plugin):
            return ["event": "loaded", "name": .string(plugin.name), "version": .string(plugin.version), "path": .string(plugin.path)]
        case .pluginOperations(let operations):
            return ["event": "ops", "operations": .object(CacheObject(members: operations.map { ($0.name, .string($0.document)) }))]
        case .pluginCommands(let commands):
            return ["event": "commands", "commands": .list(commands.map { command in .object([
                "name": .string(command.name), "usage": .string(command.usage), "help": .string(command.help),
                "refetch": strings(command.refetch),
            ]) })]
        case .serviceOutput(let command, let lines):
            return ["event": "output", "command": .string(command), "lines": strings(lines)]
        case .project(let project, _):
            guard let project else { return ["event": "project", "project": .null] }
            return ["event": "project", "project": .object([
                "directory": .string(project.directory),
                "schemaFiles": strings(project.schemaFiles),
                "operationFiles": strings(project.operationFiles),
                "operations": strings(project.operations.map(\.name)),
                "fragments": strings(project.fragments.map(\.name)),
                "typePolicies": strings(project.schemaKnowledge.typePolicies.types),
            ])]
        case .projectOperations(let definitions):
            return ["event": "ops", "operations": .list(definitions.map { definition in
                ["name": .string(definition.name), "kind": .string(definition.kind.rawValue), "file": .string(definition.file),
                 "line": CacheValue(definition.line)]
            })]
        case .schema(let sdl):
            return ["event": "schema", "sdl": .string(sdl)]
        case .watching(let id, let operation):
            return ["event": "watching", "id": CacheValue(id), "op": name(operation)]
        case .subscribed(let id, let operation, let url, let subprotocol):
            return ["event": "subscribed", "id": CacheValue(id), "op": name(operation), "url": .string(url), "protocol": name(subprotocol)]
        case .subscriptionEvent(let id, let operation, let number, let result):
            return ["event": "subscription", "id": CacheValue(id), "op": name(operation), "n": CacheValue(number),
                    "data": result.data ?? .null, "errors": .list(result.errors)]
        case .subscriptionEnded(let id, let operation, let events, let reason, let failed):
            return ["event": "unsubscribed", "id": CacheValue(id), "op": name(operation), "events": CacheValue(events),
                    "reason": .string(reason), "failed": .bool(failed)]
        case .subscriptions(let running):
            return ["event": "subscriptions", "subscriptions": .list(running.map { running in
                ["id": CacheValue(running.id), "op": name(running.operation), "variables": .object(running.subscription.variables),
                 "events": CacheValue(running.events), "url": .string(running.transport.name)]
            })]
        case .paging(let id, let operation, let list):
            return ["event": "paging", "id": CacheValue(id), "op": name(operation), "list": .string(list)]
        case .more(let id, let direction, let variables, let reason):
            return ["event": "more", "id": CacheValue(id), "direction": .string(direction.rawValue), "sent": .bool(reason == nil), "variables": variables.map(CacheValue.object) ?? .null,
                    "reason": reason.map(CacheValue.string) ?? .null]
        case .watches(let watches):
            return ["event": "watches", "watches": .list(watches.map { watch in .object([
                "id": CacheValue(watch.id), "op": name(watch.operation), "variables": .object(watch.variables),
                "policy": .string(watch.policy.name), "refetch": .string(watch.refetchPolicy.name), "emissions": CacheValue(watch.emissions),
                "endpoint": .string(watch.endpoint),
            ]) })]
        case .typePolicies(let own, let endpoint, _, let defaultKeyFields):
            return ["event": "keyfields", "types": policies(own), "endpoint": policies(endpoint), "default": strings(defaultKeyFields)]
        case .evicted(let removed):
            return ["event": "evict", "removed": strings(removed)]
        case .snapshot(let snapshot):
            return ["event": "dump", "snapshot": snapshot]
        case .exported(let file, let records):
            return ["event": "export", "file": .string(file), "records": CacheValue(records)]
        case .imported(let file, let records):
            return ["event": "import", "file": .string(file), "records": CacheValue(records)]
        case .integrityChecked(let file):
            return ["event": "check", "file": .string(file), "ok": true]
        case .diff(let a, let b, let diff):
            // A field one record lacks is null on that side.
            let changed = diff.changed.map { change -> (String, CacheValue) in
                (change.key, .object(CacheObject(members: change.fields.map { ($0.field, [$0.old ?? .null, $0.new ?? .null]) })))
            }
            return ["event": "diff", "a": .string(a), "b": .string(b), "onlyA": strings(diff.onlyA), "onlyB": strings(diff.onlyB),
                    "changed": .object(CacheObject(members: changed))]
        }
    }

    /// A command as `.help` reports it.
    private static func summary(_ command: DotCommand) -> CacheValue {
        .object(["name": .string("." + command.name), "usage": .string(command.usage), "help": .string(command.help),
                 "aliases": .list(command.aliases.map { .string("." + $0) })])
    }

    /// Type policies by type: the key fields, or null for a type never normalized.
    private static func policies(_ policies: [(type: String, policy: TypePolicies.Policy)]) -> CacheValue {
        .object(CacheObject(members: policies.map { type, policy in
            switch policy {
            case .keyFields(let fields, _): (type, strings(fields))
            case .notNormalized: (type, .null)
            }
        }))
    }

    private static func name(_ text: String?) -> CacheValue { text.map(CacheValue.string) ?? .null }
    /// Seconds as a whole number when they are one (`300`, not `300.0`).
    private static func seconds(_ value: Double) -> CacheValue {
        value.rounded() == value && abs(value) < 1e15 ? CacheValue(Int(value)) : CacheValue(value)
    }
    private static func strings(_ items: [String]) -> CacheValue { .list(items.map(CacheValue.string)) }
    private static func line(_ location: SourceLocation?) -> CacheValue { location.map { CacheValue($0.line) } ?? .null }
}
