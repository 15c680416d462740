import NormPluginABI

/// The host a plugin runs in, over the `nc_host_api` it was given: operations run through
/// the host's client (its cache, fetch policies and simulated network) against the plugin's
/// own endpoint; watchers print live in the workbench; records are read and written in the
/// host's cache. Every call waits for the host's reply; a reply with `ok = 0` throws a
/// ``PluginError`` with the host's message. Cancelling the task that waits cancels the
/// call in the host too (the request is logged `cancelled`), and throws `CancellationError`
/// unless the reply came first: SwiftUI's `.task(id:)` costs nothing once superseded. A reply's objects come back as `Map`s read by
/// key: JSON decoding keeps their values, not the order of their keys.
///
/// A plugin finds its host in its ``Environment``:
///
/// ```swift
/// let host = try environment.get(Host.self)
/// let reply = try await host.run(.operation("TripList"), policy: .networkOnly)
/// reply["data", "trips", 0, "name"]                         // "Lisbon"
/// let watcher = try await host.watch(.operation("TripDetail"), variables: ["id": "2"])
/// try await host.writeRecord("Trip:2", fields: ["name": "Porto"])  // ["Trip:2.name"]
/// host.log(.info, "renamed trip 2")
/// ```
public struct Host: @unchecked Sendable {  // the ABI lets host functions be called from any thread
    private let api: nc_host_api

    /// The host whose functions `api` holds (copied); its `host` pointer must stay valid
    /// while the plugin runs.
    public init(_ api: nc_host_api) { self.api = api }

    /// What to run: a named operation of the plugin's manifest, or a GraphQL document.
    ///
    /// ```swift
    /// try await host.run(.operation("TripList"))
    /// try await host.run(.query(#"mutation { deleteTrip(id: "3") }"#), policy: .networkOnly)
    /// ```
    public enum Document: Sendable {
        case operation(String)
        case query(String)
    }

    /// Runs an operation and returns the host's reply:
    /// `{"data": ..., "errors": [...], "source": "cache"|"network", "missing": [...]}`.
    /// GraphQL errors are in the reply; a transport failure (offline, a cancelled request) throws.
    /// `optimistic` is a mutation's expected data, shown until the mutation answers.
    public func run(_ document: Document, variables: Map = [:], policy: FetchPolicy? = nil, optimistic: Map? = nil) async throws -> Map {
        try await call(\.run, "run", request(document, variables: variables, policy: policy, optimistic: optimistic))
    }

    /// Runs an operation and returns its data; its first GraphQL error is thrown, as is a
    /// transport failure.
    public func data(_ document: Document, variables: Map = [:], policy: FetchPolicy? = nil, optimistic: Map? = nil) async throws -> Map {
        try Self.data(of: try await run(document, variables: variables, policy: policy, optimistic: optimistic))
    }

    /// A ``run(_:variables:policy:optimistic:)`` reply's data, or its first GraphQL error thrown.
    public static func data(of reply: Map) throws -> Map {
        if let message = reply["errors", 0, "message"].string { throw PluginError(message) }
        return reply["data"]
    }

    /// Starts a watcher that the workbench shows, and returns its id.
    public func watch(_ document: Document, variables: Map = [:], policy: FetchPolicy? = nil) async throws -> Int {
        let reply: Watcher = try await call(\.watch, "watch", request(document, variables: variables, policy: policy))
        return reply.id
    }

    /// Refetches every watcher of the named operation from the network; returns their ids.
    public func refetch(operation name: String) async throws -> [Int] {
        let reply: Refetched = try await call(\.refetch, "refetch", ["operation": .string(name)])
        return reply.refetched
    }

    /// Refetches one watcher from the network; returns its id.
    public func refetch(watch id: Int) async throws -> [Int] {
        let reply: Refetched = try await call(\.refetch, "refetch", ["watch": .int(id)])
        return reply.refetched
    }

    /// The fields of the record under `key` (`"Trip:1"`), or nil when the cache has none.
    public func readRecord(_ key: String) async throws -> Map? {
        let reply: Record = try await call(\.read_record, "read_record", ["key": .string(key)])
        return reply.record
    }

    /// Writes `fields` into the record under `key` (references as `{"$reference": "Trip:1"}`)
    /// and returns the field keys that changed; watchers hear the change.
    public func writeRecord(_ key: String, fields: Map) async throws -> [String] {
        let reply: Changed = try await call(\.write_record, "write_record", ["key": .string(key), "fields": fields])
        return reply.changed
    }

    /// Removes one field of a record, or the whole record without `field`; returns the
    /// field keys removed.
    public func evict(_ key: String, field: String? = nil) async throws -> [String] {
        var request: Map = ["key": .string(key)]
        if let field { request["field"] = .string(field) }
        let reply: Removed = try await call(\.evict, "evict", request)
        return reply.removed
    }

    /// The key of an entity's record in the host's cache (`"PURL:ana@example.org+cv"`), made
    /// by the host as its cache makes it: a plugin names records with it, never by joining
    /// the values itself (the host escapes `\\` and `+` and normalizes to Unicode NFC).
    /// `type` is the typename (or its policy's key group); `values`, its key fields' values
    /// in the policy's order.
    ///
    /// ```swift
    /// let key = try await host.entityKey(type: "PURL", values: ["ana@example.org", "cv"])
    /// try await host.evict(key)
    /// ```
    public func entityKey(type: String, values: [String]) async throws -> String {
        let reply: Key = try await call(\.entity_key, "entity_key", ["type": .string(type), "values": .array(values.map(Map.string))])
        return reply.key
    }

    /// Logs `message` through the host's logger, labelled with the plugin's name.
    public func log(_ level: LogLevel, _ message: String) {
        api.log?(api.host, level.cValue, message)
    }

    /// Announces the view state of `service` (its domain), shown as a `state` event.
    public func emitState(service: String, state: ViewState, detail: String? = nil) {
        guard let emit = api.emit_state else { return }
        if let detail {
            detail.withCString { emit(api.host, service, state.rawValue, $0) }
        } else {
            emit(api.host, service, state.rawValue, nil)
        }
    }

    private typealias Function = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, nc_reply_fn?, UnsafeMutableRawPointer?) -> Void

    private func call<Reply: Decodable>(_ function: KeyPath<nc_host_api, Function?>, _ name: String, _ request: Map) async throws -> Reply {
        guard let function = api[keyPath: function] else { throw PluginError("the host does not offer \(name)") }
        let text = try CodableJSON.encode(request)
        let reply = try await HostReply.awaiting({ context in
            text.withCString { function(api.host, $0, HostReply.callback, context) }
        }, cancel: { [self] context in api.cancel?(api.host, context) })
        return try CodableJSON.decode(Reply.self, from: reply)
    }

    private func request(_ document: Document, variables: Map, policy: FetchPolicy?, optimistic: Map? = nil) -> Map {
        var request: Map
        switch document {
        case .operation(let name): request = ["operation": .string(name)]
        case .query(let text): request = ["query": .string(text)]
        }
        request["variables"] = variables
        if let policy { request["policy"] = .string(policy.rawValue) }
        if let optimistic { request["optimistic"] = optimistic }
        return request
    }

    private struct Watcher: Decodable { let id: Int }
    private struct Refetched: Decodable { let refetched: [Int] }
    private struct Record: Decodable { let record: Map? }
    private struct Changed: Decodable { let changed: [String] }
    private struct Removed: Decodable { let removed: [String] }
    private struct Key: Decodable { let key: String }
}
