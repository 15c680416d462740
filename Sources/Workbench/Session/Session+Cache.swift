import Foundation
import NormCache
import NormClient

/// What the cache commands need beyond one engine call: who refers to a record, the
/// type policies, Apollo Client snapshots in and out, and near misses for a mistyped key.
extension Session {
    /// `Trip:1.destination`, `QUERY_ROOT.trips`: every record field whose value refers to `key`.
    func referringFields(to key: String) -> [String] {
        let cache = client.cache
        return cache.referrers(of: key).flatMap { referrer -> [String] in
            guard let record = cache.record(referrer) else { return [] }
            return record.members.compactMap { field, value in
                var refers = false
                value.forEachReference { refers = refers || $0 == key }
                return refers ? referrer + "." + field : nil
            }
        }
    }

    /// `.history KEY[.FIELD] N`: the last `count` changes the cache kept of a record, or of
    /// one field of it (`target` split at its last dot whose field the cache knows, as
    /// `Trip:1.name`; else taken whole as a record key).
    func showHistory(of target: String, last count: Int) throws {
        let cache = client.cache
        var end = target.endIndex
        while let dot = target[..<end].lastIndex(of: ".") {
            let key = String(target[..<dot]), field = String(target[target.index(after: dot)...])
            if let changes = cache.history(of: key, field: field, last: count) {
                return printer.emit(.history(key: key, field: field, changes: changes, limit: cache.historyLimit))
            }
            end = dot
        }
        guard let changes = cache.history(of: target, last: count) else {
            throw CommandError("the cache never held \"\(target)\"" + closeKeys(to: target))
        }
        printer.emit(.history(key: target, field: nil, changes: changes, limit: cache.historyLimit))
    }

    /// `; did you mean Trip:2?` for a key the cache does not hold, when one is close: among
    /// the keys sharing the longest prefix with it (every key of a cache of up to 5,000).
    func closeKeys(to key: String) -> String {
        DidYouMean(key, among: DidYouMean.neighbours(of: key, inSorted: client.cache.keys())).hint
    }

    /// `.graph KEY|ID [DEPTH] [FILE]`: the ``RecordGraph`` around record `subject`, or of the
    /// records watcher `subject` (a number) depends on, printed, or written to FILE as
    /// DOT (`.dot`) or rendered by Graphviz's `dot` (`.svg`, `.png`). `arguments` are
    /// DEPTH and FILE, either or both (a lone word that is a number is DEPTH). Nothing is
    /// written when an argument is wrong.
    func graph(of subject: String, arguments: [String]) throws {
        let file = arguments.count == 2 || (arguments.count == 1 && Int(arguments[0]) == nil) ? arguments.last : nil
        let word = arguments.count == 2 || file == nil ? arguments.first : nil
        let format = file.map { URL(fileURLWithPath: $0).pathExtension.lowercased() }
        if let file, let format, !["dot", "svg", "png"].contains(format) {
            throw CommandError("\(file): .graph writes a FILE ending .dot, .svg or .png (and DEPTH is a whole number, 0 or more)")
        }
        let start: [String], watcher = Int(subject)
        if let watcher {
            guard let keys = client.cache.dependencies(ofWatcher: watcher) else { throw CommandError("no watcher \"\(subject)\" (.watches lists them)") }
            start = keys
        } else {
            guard try client.cache.inspect(subject) != nil else { throw CommandError("no record \"\(subject)\"" + closeKeys(to: subject)) }
            start = [subject]
        }
        let depth = try word.map { word throws(CommandError) in try CountArgument.parse(word, command: ".graph", name: "DEPTH") } ?? (watcher == nil ? 1 : 0)
        let dot = RecordGraph(around: start, depth: depth, record: client.cache.record).dot
        if let file, let format {
            if format == "dot" {
                do { try Data((dot + "\n").utf8).write(to: URL(fileURLWithPath: file)) } catch {
                    throw CommandError("\(file): cannot be written (\(error.localizedDescription))")
                }
            } else {
                try Self.renderGraph(dot, as: format, to: file)
            }
        }
        printer.emit(.graph(key: watcher == nil ? subject : nil, watcher: watcher, depth: depth, dot: dot, file: file))
    }

    /// Runs Graphviz's `dot -Tsvg|-Tpng -o file` (found in `PATH`) over `dot`.
    private static func renderGraph(_ dot: String, as format: String, to file: String) throws {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        guard let executable = path.split(separator: ":").map({ String($0) + "/dot" }).first(where: FileManager.default.isExecutableFile) else {
            throw CommandError("\(file): rendering .\(format) needs Graphviz's dot, which is not in PATH; install graphviz (make deps does), or write a .dot file")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["-T" + format, "-o", file]
        let input = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        do { try process.run() } catch { throw CommandError("\(file): could not start \(executable): \(error.localizedDescription)") }
        input.fileHandleForWriting.write(Data(dot.utf8))
        try? input.fileHandleForWriting.close()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingWhitespace.description
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CommandError("\(file): dot exited with status \(process.terminationStatus)" + (message.isEmpty ? "" : ": \(message)"))
        }
    }

    /// `.keyfields` without arguments: each type's policy set with `.keyfields`, then
    /// those the current endpoint's schema declares (a `.keyfields` policy wins).
    func showTypePolicies() {
        let policies = client.typePolicies
        let endpointPolicies = endpoint?.schemaKnowledge?.typePolicies ?? TypePolicies()
        printer.emit(.typePolicies(own: policies.types.map { ($0, policies[$0]!) },
                                   endpoint: endpointPolicies.types.filter { policies[$0] == nil }.map { ($0, endpointPolicies[$0]!) },
                                   endpointName: endpoint?.name, defaultKeyFields: policies.defaultKeyFields))
    }

    /// `.maxage` or `.maxstale` alone: the max ages set on the cache, those of the current
    /// endpoint's schema, and the max stale.
    func showMaxAges() {
        let cache = client.cache
        printer.emit(.maxAges(own: cache.maxAges, endpoint: endpoint?.schemaKnowledge?.maxAges ?? MaxAges(),
                              endpointName: endpoint?.name, maxStale: cache.maxStale))
    }

    /// Makes `sdl`, fetched from the HTTP endpoint by introspection, the knowledge that
    /// endpoint's responses are normalized and read with, and the schema its typed
    /// operations are validated against (a plugin's come from its manifest; on the
    /// project's endpoint the project's schema stays). SDL that does not parse is shown all
    /// the same, and changes nothing.
    func learnSchema(_ sdl: String) {
        guard !app.onProjectEndpoint, var http = endpoint as? HTTPTransport, let knowledge = try? SchemaKnowledge(sdl: sdl) else { return }
        http.schemaKnowledge = knowledge
        endpoint = http
        app.learn(sdl, of: http.name, warn: warn)
    }

    /// `.dump [FILE]`, `.export FILE`: the cache as an Apollo Client snapshot, a record a
    /// line, with when each record was received (which `.import` reads back).
    func dump(to path: String?) throws {
        let snapshot = client.cache.extract(receivedTimes: true)
        guard let path else { return printer.emit(.snapshot(snapshot)) }
        do { try Data((SnapshotText.text(of: snapshot) + "\n").utf8).write(to: URL(fileURLWithPath: path)) } catch {
            throw CommandError("\(path): cannot be written (\(error.localizedDescription))")
        }
        printer.emit(.exported(file: path, records: snapshot.snapshotRecordCount))
    }

    /// `.diff FILE [GLOB]`: the current cache (A) against the cache file at `path` (B),
    /// opened read-only; what reading the file warns of follows the diff.
    func diff(against path: String, keys pattern: String?) throws {
        let cache = client.cache
        let (diff, warnings) = try CacheDiff.reading(path, busyTimeout: scope.options.busyTimeout) { try CacheDiff(cache, $0, keys: pattern) }
        printer.emit(.diff(a: scope.description, b: path, diff))
        for warning in warnings { warn(warning) }
    }

    /// `.import FILE`: an Apollo Client snapshot replaces what the cache holds.
    func importSnapshot(from path: String) throws {
        let text = try Self.readScript(path)
        let snapshot: CacheValue
        do { snapshot = try JSON.parse(text) } catch { throw CommandError("\(path): \(error)") }
        do { try client.cache.restore(snapshot) } catch { throw CommandError("\(path): \(error)") }
        printer.emit(.imported(file: path, records: snapshot.snapshotRecordCount))
    }
}

private extension CacheValue {
    /// The records of a snapshot: its members but `__META`.
    var snapshotRecordCount: Int {
        guard case .object(let object) = self else { return 0 }
        return object.keys.filter { $0 != NormalizedCache.snapshotMetadataKey }.count
    }
}
