import NormPluginABI
import Foundation
import NormPluginKit
import TestSupport
import Testing

/// A plugin as the host sees it after `nc_plugin_init`: the filled `nc_plugin`, called
/// through its function pointers, each reply checked to come exactly once.
struct LoadedPlugin {
    typealias Initialize = (UnsafePointer<nc_host_api>?, UnsafeMutablePointer<nc_plugin>?, UnsafeMutablePointer<CChar>?, Int) -> Int32

    let plugin: nc_plugin

    /// Runs `initialize` against `host`; throws the message the plugin wrote when it fails.
    init(host: FakeHost, abiVersion: UInt32 = UInt32(NC_PLUGIN_ABI_VERSION), initialize: Initialize) throws {
        var api = host.api(abiVersion: abiVersion)
        var plugin = nc_plugin()
        var error = [CChar](repeating: 0, count: 256)
        let status = initialize(&api, &plugin, &error, error.count)
        guard status == 0 else { throw PluginError(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)) }
        #expect(plugin.abi_version == UInt32(NC_PLUGIN_ABI_VERSION))
        self.plugin = plugin
    }

    /// Starts the bundled plugin `name` as the host does: `libnormcache_NAME.so` (`.dylib`
    /// on Darwin), built beside the tests, opened with dlopen and initialized through its
    /// `nc_plugin_init`. A new instance each time, with data of its own.
    static func bundled(_ name: String, host: FakeHost) throws -> LoadedPlugin {
        #if os(Linux)
        let suffix = ".so"
        #else
        let suffix = ".dylib"
        #endif
        let library = BuildProducts.directory + "/libnormcache_\(name)" + suffix
        let handle = try #require(dlopen(library, RTLD_NOW | RTLD_LOCAL), "\(String(cString: dlerror()))")
        let symbol = try #require(dlsym(handle, NC_PLUGIN_INIT_SYMBOL))
        let initialize = unsafeBitCast(symbol, to: nc_plugin_init_fn.self)
        return try LoadedPlugin(host: host) { initialize($0, $1, $2, $3) }
    }

    /// The manifest's operation `name`: its document, as the host runs it.
    func operation(_ name: String) throws -> String {
        let manifest = try JSONSerialization.jsonObject(with: Data(manifest.utf8)) as? [String: Any]
        return try #require((manifest?["operations"] as? [String: String])?[name])
    }

    /// Runs `document` with `variables` (JSON) on the plugin's server; its reply's JSON.
    func query(_ document: String, _ variables: String = "{}") async throws -> String {
        let document = try JSONSerialization.data(withJSONObject: document, options: .fragmentsAllowed)
        let reply = try await execute(#"{"query": \#(String(decoding: document, as: UTF8.self)), "variables": \#(variables)}"#)
        #expect(reply.ok)
        return reply.json
    }

    var name: String { String(cString: plugin.name) }
    var version: String { String(cString: plugin.version) }
    var manifest: String { String(cString: plugin.manifest) }

    func execute(_ request: String) async throws -> ReplyProbe.Reply {
        try await ReplyProbe.call { plugin.execute(plugin.context, request, ReplyProbe.callback, $0) }
    }

    func command(_ name: String, _ arguments: String...) async throws -> ReplyProbe.Reply {
        let request = try JSONSerialization.data(withJSONObject: ["command": name, "arguments": arguments])
        return try await ReplyProbe.call { context in
            String(decoding: request, as: UTF8.self).withCString { plugin.command(plugin.context, $0, ReplyProbe.callback, context) }
        }
    }

    /// Sends a lifecycle event; returns once the plugin has handled it. The plugin blocks
    /// until then (the ABI lets it), so the call runs on a thread of its own.
    func lifecycle(_ event: String) async {
        await onThread { plugin.lifecycle(plugin.context, event) }
    }

    func destroy() {
        plugin.destroy(plugin.context)
    }
}

/// Collects the replies a plugin gives to one request.
final class ReplyProbe: @unchecked Sendable {
    typealias Reply = (ok: Bool, json: String)

    private let lock = NSLock()
    private var replies: [Reply] = []

    static let callback: nc_reply_fn = { context, ok, json in
        let probe = Unmanaged<ReplyProbe>.fromOpaque(context!).takeUnretainedValue()
        probe.lock.withLock { probe.replies.append((ok != 0, String(cString: json!))) }
    }

    /// Calls `send` with a reply context, waits for the reply, and a little longer to see
    /// that no second one comes.
    static func call(_ send: (UnsafeMutableRawPointer) -> Void) async throws -> Reply {
        let probe = ReplyProbe()
        // Retained for good: a reply that comes after the deadline (a starved machine) must
        // find its probe, not freed memory that takes the whole test run down.
        send(Unmanaged.passRetained(probe).toOpaque())
        // Generous, since it only ends a wait for a reply that never comes: the tests that
        // hold a thread for long (SQLite damage, deep nesting) run on Swift Testing's
        // cooperative threads, two on a 2-core machine, and while they do neither this poll
        // nor the plugin's reply gets a thread; a loaded CI machine starved both for 99 s.
        let deadline = ContinuousClock.now + .seconds(600)
        while probe.lock.withLock({ probe.replies.isEmpty }) && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(2))
        }
        try await Task.sleep(for: .milliseconds(20))
        let replies = probe.lock.withLock { probe.replies }
        try #require(replies.count == 1, "\(replies.count) replies: \(replies)")
        return replies[0]
    }
}
