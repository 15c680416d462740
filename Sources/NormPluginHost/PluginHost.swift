import NormPluginABI
import Foundation
import Logging
import NormCache
import NormClient
import NormEnvironment

/// Loads plugins with dlopen, routes their service commands, and answers their host calls
/// through the C ABI: operations, watchers and refetches through the ``Client`` against
/// the plugin's own endpoint (a watcher's events go where the client sends every
/// watcher's), records, logging and state events. It does nothing else.
///
/// A plugin that fails to load is refused with a ``PluginLoadError`` that says why (missing
/// file, a directory, unreadable, not a shared library, a library dlopen refuses, no
/// `nc_plugin_init`, ABI version mismatch, a name already loaded, its init failing, a
/// world-writable file); the host goes on without it.
///
/// ```swift
/// let host = PluginHost(client: client, environment: environment) { service, state, _ in print(service, state) }
/// let failures = host.load(PluginSearch())   // NORMCACHE_PLUGINS, beside the executable, ../lib/normcache/plugins
/// try await host.run(command: "trips.rename", arguments: ["2", "Porto"])
/// ```
package final class PluginHost: @unchecked Sendable {
    /// Where a service's view state reaches the user: `(service, state, detail)`.
    package typealias StateSink = @Sendable (_ service: String, _ state: String, _ detail: String?) -> Void

    package let client: Client
    package let environment: Environment
    private let states: StateSink
    private let lock = NSLock()
    private var loaded: [LoadedPlugin] = []
    private var searchedDirectories: [String] = []
    private var timeout = PluginHost.defaultCallTimeout

    /// A minute, as an HTTP endpoint's default timeout.
    package static let defaultCallTimeout = Duration.seconds(60)

    /// How long a call into a plugin (a request to its endpoint, a service command) may
    /// take: then the host stops waiting and the call fails with an error that names the
    /// plugin. Ctrl-C stops the wait sooner. The plugin is not told (the ABI has no way
    /// to); its late reply is dropped.
    package var callTimeout: Duration {
        get { lock.withLock { timeout } }
        set { lock.withLock { timeout = newValue } }
    }

    package init(client: Client, environment: Environment, states: @escaping StateSink) {
        self.client = client
        self.environment = environment
        self.states = states
    }

    /// The loaded plugins, in load order.
    package var plugins: [LoadedPlugin] { lock.withLock { loaded } }

    package func plugin(named name: String) -> LoadedPlugin? { plugins.first { $0.name == name } }

    /// The plugin that declares `command` (e.g. `trips.rename`), and the command.
    package func command(named name: String) -> (plugin: LoadedPlugin, command: PluginManifest.Command)? {
        for plugin in plugins {
            if let command = plugin.manifest.commands.first(where: { $0.name == name }) { return (plugin, command) }
        }
        return nil
    }

    // MARK: loading

    /// The directories looked in for plugins, in order, each once: a search's and each
    /// `loadDirectory`'s, whether or not they held any.
    package var searched: [String] { lock.withLock { searchedDirectories } }

    /// Loads the plugins `search` finds, the first `libnormcache_NAME.so` of each NAME.
    /// Returns the failures (a directory of `NORMCACHE_PLUGINS` that cannot be listed is
    /// one); the others loaded.
    @discardableResult
    package func load(_ search: PluginSearch) -> [PluginLoadError] {
        noteSearched(search.directories)
        let (libraries, failures) = search.libraries()
        return failures + load(libraries)
    }

    /// Loads every plugin library in `directory`: the files named `libnormcache_*.so`
    /// (`.dylib` on Darwin: ``librarySuffix``), or with `everySharedLibrary`, every
    /// `*.so`. Returns the failures; the others loaded.
    @discardableResult
    package func loadDirectory(_ directory: String, everySharedLibrary: Bool = false) -> [PluginLoadError] {
        noteSearched([directory])
        do { return load(try Self.libraryNames(in: directory, everySharedLibrary: everySharedLibrary).map { directory + "/" + $0 }) } catch {
            return [error]
        }
    }

    /// Loads the libraries at `paths`, in order; returns the failures.
    private func load(_ paths: [String]) -> [PluginLoadError] {
        var failures: [PluginLoadError] = []
        for path in paths {
            do { try load(path) } catch { failures.append(error) }
        }
        return failures
    }

    /// Remembers that `directories` were looked in (``searched``).
    private func noteSearched(_ directories: [String]) {
        lock.withLock { searchedDirectories += directories.filter { !searchedDirectories.contains($0) } }
    }

    /// The names of the plugin libraries in `directory`, sorted: `libnormcache_*.so`, or
    /// with `everySharedLibrary` every `*.so` (``librarySuffix``); or why it cannot be listed.
    static func libraryNames(in directory: String, everySharedLibrary: Bool = false) throws(PluginLoadError) -> [String] {
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: directory) } catch {
            let reason: PluginLoadError.Reason
            switch fileStatus(directory) {
            case .failure(let problem): reason = problem
            case .success(let info) where info.st_mode & S_IFMT != S_IFDIR: reason = .notADirectory
            case .success: reason = .unreadable(directoryError(directory))
            }
            throw PluginLoadError(path: directory, reason: reason)
        }
        return names.filter { $0.hasSuffix(librarySuffix) && (everySharedLibrary || $0.hasPrefix("libnormcache_")) }.sorted()
    }

    /// Loads the plugin library at `path`.
    @discardableResult
    package func load(_ path: String) throws(PluginLoadError) -> LoadedPlugin {
        do { return try open(path) } catch { throw PluginLoadError(path: path, reason: error) }
    }

    private func open(_ path: String) throws(PluginLoadError.Reason) -> LoadedPlugin {
        let info = try Self.fileStatus(path).get()
        guard info.st_mode & S_IFMT == S_IFREG else { throw .notARegularFile(Self.kind(of: info.st_mode)) }
        guard info.st_mode & S_IWOTH == 0 else { throw .worldWritable }
        // RTLD_NODELETE (glibc's and Darwin's alike): a Swift library registers type metadata
        // and conformances with the runtime, which must stay mapped after dlclose or later
        // casts read freed memory.
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) else {
            let detail = dlerror().map { Self.shortened(String(cString: $0), path: path) } ?? "dlopen failed"
            switch Self.startsLikeLibrary(path) {
            case .success(true): throw .libraryRefused(detail)
            case .success(false): throw .notSharedLibrary(detail)
            case .failure(let unreadable): throw unreadable
            }
        }
        // The library this host loaded already (by this path, a link or a hard link):
        // refused before its init runs, which would start a second copy of its services.
        if let other = lock.withLock({ loaded.first { $0.handle == handle } }) {
            dlclose(handle)
            throw .alreadyLoaded(name: other.name, path: other.path)
        }
        guard let symbol = dlsym(handle, NC_PLUGIN_INIT_SYMBOL) else {
            dlclose(handle)
            throw .noEntryPoint
        }
        let initialize = unsafeBitCast(symbol, to: nc_plugin_init_fn.self)
        let bridge = HostBridge(host: self)
        func discard() {
            bridge.close(pluginName: path)
            dlclose(handle)
        }
        var table = nc_plugin()
        var message = [CChar](repeating: 0, count: 1024)
        let status = initialize(bridge.api, &table, &message, message.count)
        guard status == 0 else {
            discard()
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw .initFailed(text.isEmpty ? "it returned \(status) without a message" : text)
        }
        guard table.abi_version == UInt32(NC_PLUGIN_ABI_VERSION) else {
            discard()
            throw .abiMismatch(plugin: table.abi_version, host: UInt32(NC_PLUGIN_ABI_VERSION))
        }
        let plugin: LoadedPlugin
        do throws(PluginLoadError.Reason) {
            plugin = try LoadedPlugin(path: path, handle: handle, table: table, bridge: bridge)
        } catch {
            table.destroy?(table.context)
            discard()
            throw error
        }
        let duplicate = lock.withLock { () -> LoadedPlugin? in
            if let other = loaded.first(where: { $0.name == plugin.name }) { return other }
            loaded.append(plugin)
            return nil
        }
        if let duplicate {
            plugin.unload()
            throw .alreadyLoaded(name: duplicate.name, path: duplicate.path)
        }
        bridge.plugin = plugin
        try? environment.register(plugin)
        return plugin
    }

    /// `stat` of `path`, or why there is nothing to load there.
    private static func fileStatus(_ path: String) -> Result<stat, PluginLoadError.Reason> {
        var info = stat()
        guard stat(path, &info) != 0 else { return .success(info) }
        let code = errno
        return .failure(code == ENOENT || code == ENOTDIR ? .missing : .unreadable(String(cString: strerror(code))))
    }

    /// How a message names the type of a file that is not a regular file: `a directory`, ….
    private static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "a directory"
        case S_IFIFO: "a named pipe"
        case S_IFSOCK: "a socket"
        case S_IFCHR, S_IFBLK: "a device"
        default: "a special file"
        }
    }

    /// Why a directory that exists cannot be listed, in the system's words.
    private static func directoryError(_ directory: String) -> String {
        guard let listing = opendir(directory) else { return String(cString: strerror(errno)) }
        closedir(listing)
        return "it could not be listed"
    }

    /// dlerror's text without the path, which the error message names already.
    private static func shortened(_ message: String, path: String) -> String {
        message.replacingOccurrences(of: path + ": ", with: "")
    }

    // MARK: commands

    /// Runs a service command, then refetches the operations its manifest lists after it.
    /// Returns the lines the command printed.
    package func run(command name: String, arguments: [String]) async throws(CommandFailure) -> [String] {
        guard let (plugin, command) = command(named: name) else { throw CommandFailure(message: "no service command \"\(name)\"") }
        let output = try await plugin.run(command: name, arguments: arguments)
        for operation in command.refetch { try await refetch(operationNamed: operation, of: plugin) }
        return output
    }

    /// Refetches every watcher of the plugin's operation `name`; with none, fetches the
    /// operation once (network-only) when it takes no variables, so the cache is current.
    @discardableResult
    func refetch(operationNamed name: String, of plugin: LoadedPlugin) async throws(CommandFailure) -> [Int] {
        let watches = client.activeWatches.filter { $0.operation.name == name && $0.transport?.name == plugin.name }
        do {
            for watch in watches { try await watch.refetch() }
            if watches.isEmpty {
                let operation = try operation(named: name, of: plugin)
                if operation.variables.isEmpty { try await client.fetch(operation, policy: .networkOnly, from: plugin.endpoint, cause: .refetch) }
            }
        } catch { throw CommandFailure(message: "refetching \(name): \(error)") }
        return watches.map(\.id)
    }

    /// The compiled named operation of a plugin (its document may hold fragments).
    package func operation(named name: String, of plugin: LoadedPlugin) throws(CommandFailure) -> CompiledOperation {
        guard let document = plugin.manifest.operations[name] else {
            throw CommandFailure(message: "\(plugin.name) has no operation \"\(name)\"")
        }
        do { return try client.cache.operation(document, name: name) } catch {
            throw CommandFailure(message: "\(plugin.name)'s operation \(name): \(error)")
        }
    }

    // MARK: host functions (called through HostBridge)

    /// The operation, variables and policy of a `run` or `watch` request.
    private func request(_ request: CacheValue, for plugin: LoadedPlugin, defaultPolicy: FetchPolicy)
        throws -> (CompiledOperation, CacheObject, FetchPolicy)
    {
        let operation: CompiledOperation
        switch (request["operation"], request["query"]) {
        case (.string(let name)?, _): operation = try self.operation(named: name, of: plugin)
        case (_, .string(let document)?): operation = try client.cache.operation(document)
        default: throw CommandFailure(message: "a request needs \"operation\" (a name) or \"query\" (a document)")
        }
        var variables = CacheObject()
        if case .object(let given)? = request["variables"] { variables = given }
        var policy = defaultPolicy
        if case .string(let name)? = request["policy"] {
            guard let named = FetchPolicy(name: name) else { throw CommandFailure(message: "unknown fetch policy \"\(name)\"") }
            policy = named
        }
        return (operation, variables, policy)
    }

    func run(_ request: CacheValue, for plugin: LoadedPlugin) async throws -> CacheValue {
        let (operation, variables, policy) = try self.request(request, for: plugin, defaultPolicy: .cacheFirst)
        var optimistic: CacheObject?
        if case .object(let data)? = request["optimistic"] { optimistic = data }
        let result = try await client.fetch(operation, variables: variables, policy: policy, optimistic: optimistic, from: plugin.endpoint)
        var reply = CacheObject()
        reply["data"] = result.data ?? .null
        reply["errors"] = .list(result.errors)
        reply["source"] = .string(result.source.rawValue)
        reply["missing"] = .list(result.missing.map { .string($0) })
        return .object(reply)
    }

    func watch(_ request: CacheValue, for plugin: LoadedPlugin) async throws -> CacheValue {
        let (operation, variables, policy) = try self.request(request, for: plugin, defaultPolicy: .cacheFirst)
        let watch = try client.watch(operation, variables: variables, policy: policy, from: plugin.endpoint)
        return ["id": CacheValue(watch.id)]
    }

    func refetch(_ request: CacheValue, for plugin: LoadedPlugin) async throws -> CacheValue {
        var refetched: [Int] = []
        switch (request["watch"], request["operation"]) {
        case (.int(let id)?, _):
            guard let watch = client.watch(id: Int(id)) else { throw CommandFailure(message: "no watcher \(id)") }
            try await watch.refetch()
            refetched = [watch.id]
        case (_, .string(let name)?):
            refetched = try await refetch(operationNamed: name, of: plugin)
        default: throw CommandFailure(message: "a refetch needs \"watch\" (an id) or \"operation\" (a name)")
        }
        return ["refetched": .list(refetched.map { CacheValue($0) })]
    }

    func readRecord(_ request: CacheValue) throws -> CacheValue {
        let key = try Self.string(request, "key")
        return ["record": client.cache.record(key).map { .object($0) } ?? .null]
    }

    func writeRecord(_ request: CacheValue) throws -> CacheValue {
        let key = try Self.string(request, "key")
        guard case .object(let fields)? = request["fields"] else { throw CommandFailure(message: "a write needs \"fields\": an object") }
        let changes = try client.cache.write(record: key, fields: fields)
        return ["changed": .list(changes.keys.map { .string($0) })]
    }

    func evict(_ request: CacheValue) throws -> CacheValue {
        let key = try Self.string(request, "key")
        var field: String?
        if case .string(let name)? = request["field"] { field = name }
        return ["removed": .list(try client.cache.evict(key, field: field).map { .string($0) })]
    }

    /// `{"type": "PURL", "values": ["ana@example.org", "cv"]}` → `{"key": "PURL:ana@example.org+cv"}`,
    /// by the key builder the cache's own keys come from.
    func entityKey(_ request: CacheValue) throws -> CacheValue {
        let type = try Self.string(request, "type")
        guard case .list(let items)? = request["values"], !items.isEmpty else {
            throw CommandFailure(message: "the request needs \"values\": a list of one string or more")
        }
        let values = try items.map { item in
            guard case .string(let text) = item else {
                throw CommandFailure(message: "each of \"values\" is a string, not \(item.kindDescription)")
            }
            return text
        }
        return ["key": .string(try KeyBuilder().entityKey(type: type, values: values))]
    }

    private static func string(_ request: CacheValue, _ member: String) throws -> String {
        guard case .string(let text)? = request[member] else { throw CommandFailure(message: "the request needs \"\(member)\": a string") }
        return text
    }

    /// Logs `message` through the environment's logger, labelled with the plugin's name.
    func log(_ level: Logger.Level, _ message: String, from plugin: String) {
        let logger = (try? environment.get(Logger.self)) ?? Logger(label: "normcache")
        logger.log(level: level, "\(message)", metadata: ["plugin": "\(plugin)"])
    }

    /// `nc_host_api.log`: a plugin's message, at the swift-log level of its `nc_log_level`.
    func log(_ level: nc_log_level, _ message: String, from plugin: String) {
        let levels: [Logger.Level] = [.trace, .debug, .info, .notice, .warning, .error, .critical]
        log(levels[min(Int(level.rawValue), levels.count - 1)], message, from: plugin)
    }

    /// A warning about a plugin that misbehaves, through `host`'s logger while there is
    /// one (a plugin may outlive its host).
    static func warn(_ message: String, through host: PluginHost?) {
        guard let host else { return Logger(label: "normcache").warning("\(message)") }
        let logger = (try? host.environment.get(Logger.self)) ?? Logger(label: "normcache")
        logger.warning("\(message)")
    }

    func emitState(service: String, state: String, detail: String?) {
        states(service, state, detail)
    }

    /// Unloads every plugin (destroy, then dlclose).
    package func unloadAll() {
        let plugins = lock.withLock { defer { loaded = [] }; return loaded }
        environment.unregister(domains: Set(plugins.map(\.name)))
        for plugin in plugins { plugin.unload() }
    }
}
