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

    /// `; did you mean Trip:2?` for a key the cache does not hold, when one is close.
    func closeKeys(to key: String) -> String {
        DidYouMean(key, among: client.cache.keys()).hint
    }

    /// `.keyfields` without arguments: each type's policy set with `.keyfields`, then
    /// those the current endpoint's schema declares (a `.keyfields` policy wins).
    func showTypePolicies() {
        func described(_ policies: TypePolicies, from source: String?) -> [(String, CacheValue, String)] {
            policies.types.map { type in
                let origin = source.map { " (from \($0))" } ?? ""
                switch policies[type]! {
                case .keyFields(let fields, let group):
                    let keyed = fields.joined(separator: "+") + (group.map { " (as \($0))" } ?? "")
                    return (type, .list(fields.map(CacheValue.string)), "\(type): \(keyed)\(origin)")
                case .notNormalized:
                    return (type, .null, "\(type): never normalized\(origin)")
                }
            }
        }
        let policies = client.typePolicies
        let own = described(policies, from: nil)
        let endpointPolicies = endpoint?.schemaKnowledge?.typePolicies ?? TypePolicies()
        let endpoints = described(endpointPolicies, from: endpoint?.name).filter { policies[$0.0] == nil }
        let fallback = policies.defaultKeyFields.joined(separator: "+")
        say("keyfields", ["types": .object(CacheObject(members: own.map { ($0.0, $0.1) })),
                          "endpoint": .object(CacheObject(members: endpoints.map { ($0.0, $0.1) })),
                          "default": .list(policies.defaultKeyFields.map(CacheValue.string))],
            lines: (own + endpoints).map(\.2) + ["other types: \(fallback.isEmpty ? "never normalized" : fallback)"])
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

    /// `.dump [FILE]`, `.export FILE`: the cache as an Apollo Client snapshot, a record a line.
    func dump(to path: String?) throws {
        let snapshot = client.cache.extract()
        let text = Self.snapshotText(snapshot)
        guard let path else { return say("dump", ["snapshot": snapshot], lines: text.split(separator: "\n").map(String.init)) }
        do { try Data((text + "\n").utf8).write(to: URL(fileURLWithPath: path)) } catch {
            throw CommandError("\(path): cannot be written (\(error.localizedDescription))")
        }
        let count = snapshot.snapshotRecordCount
        say("export", ["file": .string(path), "records": CacheValue(count)], "wrote \(count) record\(count == 1 ? "" : "s") to \(path)")
    }

    /// `.import FILE`: an Apollo Client snapshot replaces what the cache holds.
    func importSnapshot(from path: String) throws {
        let text = try Self.readScript(path)
        let snapshot: CacheValue
        do { snapshot = try JSON.parse(text) } catch { throw CommandError("\(path): \(error)") }
        do { try client.cache.restore(snapshot) } catch { throw CommandError("\(path): \(error)") }
        let count = snapshot.snapshotRecordCount
        say("import", ["file": .string(path), "records": CacheValue(count)], "imported \(count) record\(count == 1 ? "" : "s") from \(path)")
    }

    /// A snapshot as JSON with one record a line: readable, and still one JSON document.
    static func snapshotText(_ snapshot: CacheValue) -> String {
        guard case .object(let records) = snapshot, !records.isEmpty else { return "{}" }
        let lines = records.members.map { "  " + JSON.string(.string($0)) + ": " + JSON.string($1, references: .none) }
        return "{\n" + lines.joined(separator: ",\n") + "\n}"
    }
}

private extension CacheValue {
    /// The records of a snapshot: its members but `__META`.
    var snapshotRecordCount: Int {
        guard case .object(let object) = self else { return 0 }
        return object.keys.filter { $0 != NormalizedCache.snapshotMetadataKey }.count
    }
}
