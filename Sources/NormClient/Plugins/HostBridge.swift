import NormPluginABI
import Foundation
import NormCache

/// The host functions of the ABI (`nc_host_api`) for one plugin: each C entry point reads
/// its JSON request, hands it to the ``PluginHost`` on behalf of that plugin, and answers
/// through the plugin's reply function. The calls that answer later (run, watch, refetch)
/// each run in a task that the plugin's `cancel` reaches by the call's reply context.
final class HostBridge: @unchecked Sendable {
    weak var host: PluginHost?
    /// Set once the plugin has loaded; until then calls are answered with an error.
    weak var plugin: Plugin?
    private var retained: Unmanaged<HostBridge>?
    private let lock = NSLock()
    /// The calls in flight, by number: the reply context each was given, and its task.
    private var calls: [Int: (context: UnsafeMutableRawPointer?, task: Task<Void, Never>)] = [:]
    private var callCount = 0

    init(host: PluginHost) { self.host = host }

    /// A table of host functions whose `host` pointer leads back to this bridge.
    func makeAPI() -> UnsafeMutablePointer<nc_host_api> {
        let unmanaged = Unmanaged.passRetained(self)
        retained = unmanaged
        let api = UnsafeMutablePointer<nc_host_api>.allocate(capacity: 1)
        api.initialize(to: nc_host_api(
            abi_version: UInt32(NC_PLUGIN_ABI_VERSION), host: unmanaged.toOpaque(),
            run: { host, request, reply, context in
                HostBridge.respond(host, request, reply, context) { host, plugin, request in try await host.run(request, for: plugin) }
            },
            watch: { host, request, reply, context in
                HostBridge.respond(host, request, reply, context) { host, plugin, request in try await host.watch(request, for: plugin) }
            },
            refetch: { host, request, reply, context in
                HostBridge.respond(host, request, reply, context) { host, plugin, request in try await host.refetch(request, for: plugin) }
            },
            read_record: { host, request, reply, context in
                HostBridge.respondNow(host, request, reply, context) { host, request in try host.readRecord(request) }
            },
            write_record: { host, request, reply, context in
                HostBridge.respondNow(host, request, reply, context) { host, request in try host.writeRecord(request) }
            },
            evict: { host, request, reply, context in
                HostBridge.respondNow(host, request, reply, context) { host, request in try host.evict(request) }
            },
            log: { host, level, message in
                guard let bridge = HostBridge.bridge(host), let plugin = bridge.plugin, let message else { return }
                bridge.host?.log(level, String(cString: message), from: plugin)
            },
            emit_state: { host, service, state, detail in
                guard let bridge = HostBridge.bridge(host), let service, let state else { return }
                bridge.host?.emitState(service: String(cString: service), state: String(cString: state),
                                       detail: detail.map { String(cString: $0) })
            },
            cancel: { host, context in
                HostBridge.bridge(host)?.cancel(context)
            },
            entity_key: { host, request, reply, context in
                HostBridge.respondNow(host, request, reply, context) { host, request in try host.entityKey(request) }
            }
        ))
        return api
    }

    /// Drops the reference the C table held (the plugin is gone).
    func release() {
        retained?.release()
        retained = nil
    }

    private static func bridge(_ pointer: UnsafeMutableRawPointer?) -> HostBridge? {
        pointer.map { Unmanaged<HostBridge>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Parses the request, runs `body` in a task that ``cancel(_:)`` reaches by `context`,
    /// and replies with its value or its error (one that ended cancelled says so).
    private static func respond(_ pointer: UnsafeMutableRawPointer?, _ request: UnsafePointer<CChar>?, _ reply: nc_reply_fn?,
                                _ context: UnsafeMutableRawPointer?,
                                _ body: @escaping @Sendable (PluginHost, Plugin, CacheValue) async throws -> CacheValue) {
        nonisolated(unsafe) let context = context
        guard let bridge = bridge(pointer), let (host, plugin, parsed) = prepare(pointer, request, reply, context) else { return }
        bridge.lock.withLock {
            bridge.callCount += 1
            let call = bridge.callCount
            // Registered before the plugin's call returns; the task forgets itself before it
            // replies, after which the context names no call of this host.
            let task = Task {
                let result = await Result(catching: { try await body(host, plugin, parsed) })
                bridge.lock.withLock { bridge.calls[call] = nil }
                CReply.answer(reply, context, result, cancelled: Task.isCancelled)
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
    private static func respondNow(_ pointer: UnsafeMutableRawPointer?, _ request: UnsafePointer<CChar>?, _ reply: nc_reply_fn?,
                                   _ context: UnsafeMutableRawPointer?, _ body: (PluginHost, CacheValue) throws -> CacheValue) {
        guard let (host, _, parsed) = prepare(pointer, request, reply, context) else { return }
        CReply.answer(reply, context, Result(catching: { try body(host, parsed) }))
    }

    /// The host, the calling plugin and the parsed request; or nil, having replied with the error.
    private static func prepare(_ pointer: UnsafeMutableRawPointer?, _ request: UnsafePointer<CChar>?, _ reply: nc_reply_fn?,
                                _ context: UnsafeMutableRawPointer?) -> (PluginHost, Plugin, CacheValue)? {
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
