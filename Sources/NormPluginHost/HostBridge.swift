import NormPluginABI
import Foundation
import NormCache

/// The host functions of the ABI (`nc_host_api`) for one plugin: each C entry point reads
/// its JSON request, hands it to the ``PluginHost`` on behalf of that plugin, and answers
/// through the plugin's reply function. The calls that answer later (run, watch, refetch)
/// each run in a task that the plugin's `cancel` reaches by the call's reply context.
///
/// A plugin may keep its `nc_host_api` pointer past its destroy (a thread it forgot), so
/// the table and this bridge are never freed. Once the plugin is closed (its destroy
/// begins, or its load failed), every call is refused, naming the plugin and the function
/// (a reply `ok = 0`, and a warning in the log), calls in flight are cancelled, and
/// their replies are dropped: the plugin's reply functions may be gone.
final class HostBridge: @unchecked Sendable {
    weak var host: PluginHost?
    /// Set once the plugin has loaded; until then calls are answered with an error.
    weak var plugin: LoadedPlugin?
    /// The table handed to the plugin; its `host` pointer leads back to this bridge.
    private(set) var api: UnsafeMutablePointer<nc_host_api>!
    private let lock = NSLock()
    /// The calls in flight, by number: the reply context each was given, and its task.
    private var calls: [Int: (context: UnsafeMutableRawPointer?, task: Task<Void, Never>)] = [:]
    private var callCount = 0
    /// The plugin's name once it is closed (`nc_plugin_init`'s path before it had one).
    private var closedName: String?

    init(host: PluginHost) {
        self.host = host
        api = makeAPI()
    }

    /// A table of host functions whose `host` pointer leads back to this bridge, which it
    /// keeps alive for the rest of the process.
    private func makeAPI() -> UnsafeMutablePointer<nc_host_api> {
        let api = UnsafeMutablePointer<nc_host_api>.allocate(capacity: 1)
        api.initialize(to: nc_host_api(
            abi_version: UInt32(NC_PLUGIN_ABI_VERSION), host: Unmanaged.passRetained(self).toOpaque(),
            run: { host, request, reply, context in
                HostBridge.respond(host, "run", request, reply, context) { host, plugin, request in try await host.run(request, for: plugin) }
            },
            watch: { host, request, reply, context in
                HostBridge.respond(host, "watch", request, reply, context) { host, plugin, request in try await host.watch(request, for: plugin) }
            },
            refetch: { host, request, reply, context in
                HostBridge.respond(host, "refetch", request, reply, context) { host, plugin, request in try await host.refetch(request, for: plugin) }
            },
            read_record: { host, request, reply, context in
                HostBridge.respondNow(host, "read_record", request, reply, context) { host, request in try host.readRecord(request) }
            },
            write_record: { host, request, reply, context in
                HostBridge.respondNow(host, "write_record", request, reply, context) { host, request in try host.writeRecord(request) }
            },
            evict: { host, request, reply, context in
                HostBridge.respondNow(host, "evict", request, reply, context) { host, request in try host.evict(request) }
            },
            log: { host, level, message in
                guard let bridge = HostBridge.open(host, "log"), let plugin = bridge.plugin, let message else { return }
                bridge.host?.log(level, String(cString: message), from: plugin.name)
            },
            emit_state: { host, service, state, detail in
                guard let bridge = HostBridge.open(host, "emit_state"), let service, let state else { return }
                bridge.host?.emitState(service: String(cString: service), state: String(cString: state),
                                       detail: detail.map { String(cString: $0) })
            },
            cancel: { host, context in
                HostBridge.open(host, "cancel")?.cancel(context)
            },
            entity_key: { host, request, reply, context in
                HostBridge.respondNow(host, "entity_key", request, reply, context) { host, request in try host.entityKey(request) }
            }
        ))
        return api
    }

    /// Refuses the plugin's calls from now on and cancels those in flight: its destroy is
    /// about to run, or its load failed (`name` is then the library's path).
    func close(pluginName name: String) {
        let tasks = lock.withLock {
            closedName = name
            return calls.values.map(\.task)
        }
        for task in tasks { task.cancel() }
    }

    private static func bridge(_ pointer: UnsafeMutableRawPointer?) -> HostBridge? {
        pointer.map { Unmanaged<HostBridge>.fromOpaque($0).takeUnretainedValue() }
    }

    /// The bridge, or nil when the plugin is closed: then the call is logged as refused.
    private static func open(_ pointer: UnsafeMutableRawPointer?, _ function: String) -> HostBridge? {
        guard let bridge = bridge(pointer) else { return nil }
        return bridge.refusal(function) == nil ? bridge : nil
    }

    /// Why a call of `function` is refused, logged as a warning; nil while the plugin is open.
    private func refusal(_ function: String) -> String? {
        guard let name = lock.withLock({ closedName }) else { return nil }
        let refusal = "\(name) called the host's \(function) after its destroy; the host ignored it"
        PluginHost.warn(refusal, through: host)
        return refusal
    }

    /// Parses the request, runs `body` in a task that ``cancel(_:)`` reaches by `context`,
    /// and replies with its value or its error (one that ended cancelled says so).
    private static func respond(_ pointer: UnsafeMutableRawPointer?, _ function: String, _ request: UnsafePointer<CChar>?,
                                _ reply: nc_reply_fn?, _ context: UnsafeMutableRawPointer?,
                                _ body: @escaping @Sendable (PluginHost, LoadedPlugin, CacheValue) async throws -> CacheValue) {
        nonisolated(unsafe) let context = context
        guard let bridge = bridge(pointer), let (host, plugin, parsed) = prepare(pointer, function, request, reply, context) else { return }
        bridge.lock.withLock {
            bridge.callCount += 1
            let call = bridge.callCount
            // Registered before the plugin's call returns; the task forgets itself before it
            // replies, after which the context names no call of this host.
            let task = Task {
                let result = await Result(catching: { try await body(host, plugin, parsed) })
                let closed = bridge.lock.withLock {
                    bridge.calls[call] = nil
                    return bridge.closedName != nil
                }
                if !closed { CReply.answer(reply, context, result, cancelled: Task.isCancelled) }
            }
            bridge.calls[call] = (context, task)
        }
    }

    /// `nc_host_api.cancel`: cancels the calls in flight that were given `context`.
    private func cancel(_ context: UnsafeMutableRawPointer?) {
        let tasks = lock.withLock { calls.values.filter { $0.context == context }.map(\.task) }
        for task in tasks { task.cancel() }
    }

    /// Parses the request, runs `body` at once, and replies before returning.
    private static func respondNow(_ pointer: UnsafeMutableRawPointer?, _ function: String, _ request: UnsafePointer<CChar>?,
                                   _ reply: nc_reply_fn?, _ context: UnsafeMutableRawPointer?,
                                   _ body: (PluginHost, CacheValue) throws -> CacheValue) {
        guard let (host, _, parsed) = prepare(pointer, function, request, reply, context) else { return }
        CReply.answer(reply, context, Result(catching: { try body(host, parsed) }))
    }

    /// The host, the calling plugin and the parsed request; or nil, having replied with the error.
    private static func prepare(_ pointer: UnsafeMutableRawPointer?, _ function: String, _ request: UnsafePointer<CChar>?,
                                _ reply: nc_reply_fn?, _ context: UnsafeMutableRawPointer?) -> (PluginHost, LoadedPlugin, CacheValue)? {
        if let refusal = bridge(pointer)?.refusal(function) {
            CReply.answer(reply, context, .failure(CommandFailure(message: refusal)))
            return nil
        }
        guard let bridge = bridge(pointer), let host = bridge.host, let plugin = bridge.plugin else {
            CReply.answer(reply, context, .failure(CommandFailure(message: "the host is not ready for calls yet")))
            return nil
        }
        do { return (host, plugin, try JSON.parse(request.map { String(cString: $0) } ?? "")) } catch {
            CReply.answer(reply, context, .failure(CommandFailure(message: "the request is not JSON: \(error)")))
            return nil
        }
    }
}
