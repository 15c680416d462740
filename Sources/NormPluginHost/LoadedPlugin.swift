import NormPluginABI
import Foundation
import Synchronization
import NormCache
import NormClient
import NormEnvironment

/// A loaded plugin: what its manifest declares, its in-process endpoint, and its service
/// commands. Made by ``PluginHost/load(_:)``; everything goes through the C ABI.
///
/// ```swift
/// let trips = try host.load(".build/debug/libnormcache_trips.so")
/// trips.name                        // "trips"
/// trips.manifest.commands.map(\.name)   // ["trips.list", "trips.open", …]
/// try await client.fetch(tripList, from: trips.endpoint)
/// ```
package final class LoadedPlugin: Service, @unchecked Sendable {
    package let name: String
    package let version: String
    /// The file it was loaded from.
    package let path: String
    package let manifest: PluginManifest
    /// What the manifest's schema and type policies tell the cache about this plugin's
    /// responses (and only this plugin's).
    package let schemaKnowledge: SchemaKnowledge
    /// The plugin's in-process GraphQL server, as a transport.
    package var endpoint: PluginEndpoint { PluginEndpoint(plugin: self) }

    /// dlopen's handle: the same for every path that names one library file.
    let handle: UnsafeMutableRawPointer
    private let table: nc_plugin
    /// The host functions handed to the plugin, and what answers them.
    private let bridge: HostBridge
    /// The calls made into the plugin that have not returned yet.
    private let callsInside = CReply.Calls()
    /// The subscriptions running in the plugin, stopped before its destroy.
    private let subscriptions = Mutex<[ObjectIdentifier: PluginSubscription]>([:])

    init(path: String, handle: UnsafeMutableRawPointer, table: nc_plugin, bridge: HostBridge) throws(PluginLoadError.Reason) {
        func text(_ pointer: UnsafePointer<CChar>?, _ what: String) throws(PluginLoadError.Reason) -> String {
            guard let pointer else { throw .initFailed("it left its \(what) unset") }
            return String(cString: pointer)
        }
        name = try text(table.name, "name")
        version = try text(table.version, "version")
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) else {
            throw .initFailed("its name \"\(name)\" must be letters, digits, _ or -")
        }
        manifest = try PluginManifest(json: try text(table.manifest, "manifest"))
        schemaKnowledge = try manifest.schemaKnowledge()
        guard table.execute != nil, table.command != nil, table.lifecycle != nil else {
            throw .initFailed("it left execute, command or lifecycle unset")
        }
        guard (table.subscribe == nil) == (table.unsubscribe == nil) else {
            throw .initFailed("it sets one of subscribe and unsubscribe: a plugin with subscriptions sets both, one without neither")
        }
        self.path = path
        self.handle = handle
        self.table = table
        self.bridge = bridge
    }

    /// The plugin is a service of the host's environment under its own name.
    package var domain: String { name }

    /// Sends a lifecycle event to the plugin, which passes it to each of its services. The
    /// plugin may block until its services have handled it, so it runs on a thread of its
    /// own, for at most the host's ``PluginHost/callTimeout``: a plugin that takes longer
    /// is warned of in the log and left behind, and the session goes on.
    package func handle(_ event: LifecycleEvent) async {
        var json = CacheObject()
        json["event"] = .string(event.name)
        if case .login(let user) = event { json["user"] = .string(user) }
        let text = JSON.string(.object(json))
        nonisolated(unsafe) let (lifecycle, context) = (table.lifecycle, table.context)
        let timeout = bridge.host?.callTimeout ?? PluginHost.defaultCallTimeout
        switch await CReply.call(returning: { text.withCString { lifecycle?(context, $0) } }, timeout: timeout, inside: callsInside) {
        case .timedOut: PluginHost.warn(timedOut("the \(event.name) event") + "; the session goes on without it", through: bridge.host)
        default: break
        }
    }

    /// Runs a GraphQL request on the plugin's in-process server; its reply, checked to be a
    /// response object, is handed over as the JSON text it came as.
    func execute(_ request: GraphQLRequest) async throws(TransportError) -> TransportResponse {
        switch await call(table.execute!, request.body) {
        case .ok(let response) where response.isObject: return TransportResponse(json: response)
        case .ok(let other): throw .plugin("\(name) replied with \(other.kindDescription), not a GraphQL response object")
        case .failed(let message): throw .plugin("\(name): \(message)")
        case .malformed(let problem): throw .plugin(malformed(problem))
        case .cancelled: throw .cancelled
        case .timedOut: throw .plugin(timedOut("the request"))
        }
    }

    /// Starts a GraphQL subscription on the plugin's in-process server and returns once the
    /// plugin listens, for at most the host's ``PluginHost/callTimeout``; its events follow
    /// until the plugin ends it, and cancelling the stream unsubscribes.
    func subscribe(_ request: GraphQLRequest) async throws(TransportError) -> AsyncThrowingStream<SubscriptionEvent, any Error> {
        guard let subscribe = table.subscribe, let unsubscribe = table.unsubscribe else {
            throw .plugin("\(name) has no subscriptions (its nc_plugin leaves subscribe unset)")
        }
        nonisolated(unsafe) let context = table.context
        let subscription = PluginSubscription(pluginName: name, unsubscribe: { unsubscribe(context, $0) }) { [weak self] ended in
            _ = self?.subscriptions.withLock { $0.removeValue(forKey: ObjectIdentifier(ended)) }
        }
        subscriptions.withLock { $0[ObjectIdentifier(subscription)] = subscription }
        let text = JSON.string(request.body)
        let timeout = bridge.host?.callTimeout ?? PluginHost.defaultCallTimeout
        let outcome = await CReply.call(returning: {
            text.withCString { subscribe(context, $0, PluginSubscription.receive, subscription.eventContext) }
            subscription.started()
        }, timeout: timeout, inside: callsInside)
        switch outcome {
        case .ok: return subscription.events
        case .cancelled:
            subscription.abandon()
            throw .cancelled
        default:
            subscription.abandon()
            throw .plugin(timedOut("the subscription"))
        }
    }

    /// Runs one of the plugin's service commands and returns the lines it printed.
    func run(command: String, arguments: [String]) async throws(CommandFailure) -> [String] {
        let request: CacheValue = ["command": .string(command), "arguments": .list(arguments.map { .string($0) })]
        switch await call(table.command!, request) {
        case .ok(let reply):
            guard case .list(let lines)? = reply.member("output") else { return [] }
            return lines.map { line in if case .string(let text) = line { text } else { JSON.string(line) } }
        case .failed(let message): throw CommandFailure(message: message)
        case .malformed(let problem): throw CommandFailure(message: "\(command): " + malformed(problem))
        case .cancelled: throw CommandFailure(message: "\(command) was cancelled")
        case .timedOut: throw CommandFailure(message: timedOut(command))
        }
    }

    /// Calls one of the plugin's functions, for at most the host's ``PluginHost/callTimeout``.
    private func call(_ function: CReply.Function, _ request: CacheValue) async -> CReply.Outcome {
        let timeout = bridge.host?.callTimeout ?? PluginHost.defaultCallTimeout
        return await CReply.call(function, context: table.context, request: request, timeout: timeout, inside: callsInside)
    }

    private func malformed(_ problem: String) -> String { "\(name) replied with malformed JSON: \(problem)" }

    private func timedOut(_ what: String) -> String {
        let seconds = (bridge.host?.callTimeout ?? PluginHost.defaultCallTimeout).timeInterval
        return "\(name) did not answer \(what) within \(seconds.formatted()) s (timed out; --timeout or .timeout sets how long to wait)"
    }

    /// Calls the plugin's destroy and closes the library; from then on the host refuses
    /// the plugin's calls. A plugin still inside a call (one that hangs) is not destroyed:
    /// its destroy would free what that call is using.
    func unload() {
        bridge.close(pluginName: name)
        for subscription in subscriptions.withLock({ Array($0.values) }) {
            subscription.end(throwing: .subscription("\(name) was unloaded"))
        }
        let stuck = callsInside.inside
        if stuck == 0 { table.destroy?(table.context) } else {
            PluginHost.warn("\(name) is not destroyed: \(stuck) call\(stuck == 1 ? " is" : "s are") still running in it", through: bridge.host)
        }
        dlclose(handle)
    }
}

/// A service command that failed, with the plugin's message.
package struct CommandFailure: Error, Equatable, CustomStringConvertible {
    package let message: String
    package var description: String { message }
}

/// A plugin's in-process GraphQL server as a ``Transport``; its schema is the manifest's. It
/// runs the plugin's subscriptions too (a plugin without any refuses them, naming itself).
///
/// ```swift
/// let response = try await trips.endpoint.send(GraphQLRequest(document: "{ trips { id } }"))
/// let events = try await trips.endpoint.subscribe(GraphQLRequest(document: "subscription { tripRenamed { id name } }"))
/// ```
package struct PluginEndpoint: Transport, SubscriptionTransport {
    package let plugin: LoadedPlugin

    package var name: String { plugin.name }

    package func send(_ request: GraphQLRequest) async throws(TransportError) -> CacheValue {
        try await response(to: request).value
    }

    /// The plugin's reply as the JSON text it came as, which the client writes into the
    /// cache from its bytes.
    package func response(to request: GraphQLRequest) async throws(TransportError) -> TransportResponse {
        try await plugin.execute(request)
    }

    package func subscribe(_ request: GraphQLRequest) async throws(TransportError) -> AsyncThrowingStream<SubscriptionEvent, any Error> {
        try await plugin.subscribe(request)
    }

    package func schema() async throws(TransportError) -> String { plugin.manifest.schema }

    package var schemaKnowledge: SchemaKnowledge? { plugin.schemaKnowledge }
}
