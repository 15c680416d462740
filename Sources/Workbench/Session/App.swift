import Foundation
import Logging
import NormCache
import NormClient
import NormPluginHost
import NormEnvironment
import NormProject

/// The app a session runs, wired the way an iOS app wires its Environment: the cache
/// scope (memory, a file, per-user stores), the ``Client`` over that cache, the
/// ``Environment`` of utilities and services, the plugins whose services make up the app,
/// the app's GraphQL project when one is loaded, and the endpoint operations go to.
/// Everything it does is reported through the session's ``Printer`` and recorded in its
/// ``ExpectationLedger``.
///
/// ```swift
/// let app = try App(options: SessionOptions(), printer: printer, ledger: ledger)
/// app.endpoint?.name                 // "donuts": the first plugin loaded
/// try app.switchScope { try app.scope.login("alice") }   // the client moves to alice's store
/// ```
final class App {
    /// The cache the commands work on, and where it persists.
    let scope: CacheScope
    let environment = Environment()
    let client: Client
    let plugins: PluginHost
    /// Where operations typed or run by name go: the project's endpoint when a project is
    /// loaded, else the first plugin loaded, until `.use` or `.endpoint`.
    var endpoint: (any Transport)?
    /// The app's GraphQL project (`--project`, `.project`): its schema knowledge belongs to
    /// its endpoint, and its operations run by name there.
    private(set) var project: Project?
    /// How `.subscribe` opens WebSocket connections (``SessionOptions/webSocketConnector``).
    let webSocketConnector: any WebSocketConnector
    /// Plugins that failed to load, for the session to report.
    let loadFailures: [PluginLoadError]
    /// How long a request to an HTTP endpoint, or a call into a plugin, may take
    /// (`--timeout`, `.timeout`): the HTTP endpoint in use and every plugin follow it, and
    /// so do endpoints given later. Watchers keep the endpoint they started on, and its timeout.
    var timeout: Duration {
        didSet {
            plugins.callTimeout = timeout
            guard var http = endpoint as? HTTPTransport else { return }
            http.timeout = timeout.timeInterval
            endpoint = http
        }
    }

    /// The app over the cache `options` describe, with the plugins they name loaded;
    /// throws when that cache cannot open (a bad file, a lock held too long) or the
    /// endpoint given is no HTTP URL.
    init(options: SessionOptions, printer: Printer, ledger: ExpectationLedger) throws {
        scope = try CacheScope(options: options)
        client = Client(cache: scope.cache)
        client.semantics = options.semantics
        environment.set(client)
        environment.set(client.network)
        var logger = Logger(label: "normcache")
        logger.logLevel = .warning   // plugins' errors and warnings reach standard error; info stays quiet
        environment.set(logger)
        environment.set(CacheFiles(directory: options.cacheDirectory))
        client.network.observe { printer.emit(.network($0)) }
        printer.beforeOutput = { [client] in client.deliverWatchEvents() }
        let watchLog = ledger.watchLog, serviceStates = ledger.serviceStates
        client.watchEvents = { watch, event in
            switch event {
            case .emission(let number, let emission):
                watchLog.append(emission, of: watch.id)
                printer.emit(.watch(id: watch.id, operation: watch.operation.name, number: number, emission: emission, previous: nil))
            case .incomplete(let emission):
                printer.emit(.watchIncomplete(id: watch.id, operation: watch.operation.name, cause: emission.cause, missing: emission.result.missing))
            case .failure(let error):
                printer.emit(.watchFailure(id: watch.id, message: "\(error)"))
            case .unheard(let emission):
                printer.emit(.watchUnheard(id: watch.id, operation: watch.operation.name, cause: emission.cause, changed: emission.changed))
            }
        }
        plugins = PluginHost(client: client, environment: environment) { service, state, detail in
            serviceStates.record(state, of: service)
            printer.emit(.state(service: service, state: state, detail: detail))
        }
        var failures: [PluginLoadError] = []
        if options.loadsBundledPlugins { failures += plugins.load(PluginSearch()) }
        for directory in options.pluginDirectories { failures += plugins.loadDirectory(directory, everySharedLibrary: true) }
        loadFailures = failures
        webSocketConnector = options.webSocketConnector
        timeout = .milliseconds(options.timeout)
        plugins.callTimeout = timeout
        endpoint = try options.endpoint.map { url throws(CommandError) in try HTTPEndpoint.transport(for: url, timeout: .milliseconds(options.timeout)) }
            ?? plugins.plugins.first?.endpoint
        if let directory = options.projectDirectory { use(try Self.project(in: directory)) }
    }

    /// The project in `directory`, or an error that names it and every file, line and column at fault.
    static func project(in directory: String) throws(CommandError) -> Project {
        do { return try Project(directory: directory) } catch {
            throw CommandError("the project \(directory) did not load:\n" + error.problems.map { "  \($0)" }.joined(separator: "\n"))
        }
    }

    /// Makes `project` the app's, and its endpoint the current one: the HTTP endpoint in
    /// use, or none yet (`.endpoint URL` gives it one), either with the project's schema knowledge.
    func use(_ project: Project) {
        self.project = project
        endpoint = projectEndpoint(endpoint as? HTTPTransport)
    }

    /// An HTTP endpoint as the app sends to it: with the project's schema knowledge, if a
    /// project is loaded (its server is the project's). What `.schema` taught of it before is
    /// forgotten, as the endpoint's knowledge is.
    func use(_ http: HTTPTransport) {
        endpoint = project == nil ? http : projectEndpoint(http)
        endpointSchemas[http.name] = nil
    }

    /// The schema that operations typed for the current endpoint are validated against:
    /// the project's on its endpoint, a plugin's manifest SDL (built on first use), an HTTP
    /// endpoint's once `.schema` fetched it. nil when none is known or it does not build;
    /// `warn` hears why, once.
    func validator(warn: (String) -> Void) -> SchemaValidator? {
        if onProjectEndpoint { return project?.validator }
        guard let endpoint else { return nil }
        if let known = endpointSchemas[endpoint.name] { return known }
        guard let plugin = endpoint as? PluginEndpoint, !plugin.plugin.manifest.schema.isEmpty else { return nil }
        return learn(plugin.plugin.manifest.schema, of: endpoint.name, warn: warn)
    }

    /// Validates the operations typed for the endpoint `name` against `sdl` from now on.
    @discardableResult
    func learn(_ sdl: String, of name: String, warn: (String) -> Void) -> SchemaValidator? {
        do {
            let validator = try SchemaValidator(sdl: sdl, source: "the schema of \(name)")
            endpointSchemas[name] = validator
            return validator
        } catch {
            warn("the schema of \(name) does not build, so operations typed for it go unvalidated:\n"
                 + error.problems.map { "  \($0)" }.joined(separator: "\n"))
            endpointSchemas[name] = .some(nil)
            return nil
        }
    }

    /// The schemas of plugin and HTTP endpoints by name (see ``validator(warn:)``); nil
    /// for one whose SDL does not build.
    private var endpointSchemas: [String: SchemaValidator?] = [:]

    /// Whether operations go to the project's endpoint (and so are the project's to name and validate).
    var onProjectEndpoint: Bool { project != nil && !(endpoint is PluginEndpoint) }

    private func projectEndpoint(_ http: HTTPTransport?) -> any Transport {
        guard var http else { return NoEndpoint(schemaKnowledge: project?.schemaKnowledge) }
        http.schemaKnowledge = project?.schemaKnowledge
        return http
    }

    deinit { plugins.unloadAll() }

    /// Lets the scope switch caches (login, logout, `.open`); the client moves to the new
    /// cache, stopping the old cache's watchers, whose ids it returns.
    func switchScope(_ change: () throws -> Void) throws -> [Int] {
        try change()
        guard scope.cache !== client.cache else { return [] }
        return client.replaceCache(with: scope.cache)
    }
}
