import Synchronization
import Foundation
import NormCache
import NormClient
import NormPluginHost
import NormEnvironment

/// What the session does through the client: operations, watchers, service commands,
/// plugins, endpoints and lifecycle events.
extension Session {
    // MARK: operations

    /// Runs a GraphQL document against the current endpoint with the session's policy
    /// and `.vars`, and prints its result (a cache answer first under cache-and-network).
    func runOperation(_ document: String, name: String? = nil) throws {
        try run(try compile(document, name: name), variables: nil)
    }

    /// Runs `operation` with `given` variables (a command's JSON), else the `.vars` it
    /// declares (``variables(_:for:)``); the client checks them before anything is sent.
    func run(_ operation: CompiledOperation, variables given: CacheObject?) throws {
        let variables = variables(given, for: operation)
        let endpoint = try currentEndpoint(for: operation)
        let (client, policy, partial, printer) = (self.client, settings.policy, settings.returnsPartialData, self.printer)
        let optimistic = settings.optimistic
        settings.optimistic = nil
        // What the cache answered, and why it missed what it did, as it was when the
        // policy decided (before the response is written): for `.why`.
        let read = Mutex<(answered: Bool?, misses: [MissExplanation])>((nil, []))
        let explain: @Sendable () -> Void = { read.withLock { $0 = (false, (try? client.explainMisses(of: operation, variables: variables, from: endpoint)) ?? []) } }
        defer {
            let (answered, misses) = read.withLock { $0 }
            lastOperation = OperationRun(operation: operation, policy: policy, cacheAnswered: answered ?? (lastResult?.source == .cache ? lastResult!.complete : nil),
                                         misses: misses)
        }
        do {
            lastResult = try wait {
                try await client.fetch(operation, variables: variables, policy: policy, returnPartialData: partial, optimistic: optimistic,
                                       from: endpoint, generated: nil,
                                       onCacheMiss: { _ in explain() },
                                       onCacheResult: { result in
                                           if result.complete { read.withLock { $0.answered = true } }
                                           printer.emit(.result(result))
                                       },
                                       onPart: { printer.emit(.result($0)) })
            }
        } catch {
            // A failure says what the cache answered, so `.expect missing` can name what was missing.
            lastResult = (error as? ClientError)?.cachedResult
            if let cached = lastResult, !cached.complete, read.withLock({ $0.answered }) == nil { explain() }
            throw error
        }
        printer.emit(.result(lastResult!))
    }

    /// `.why` alone: why the last operation's result came from where it did (the policy,
    /// and whether the cache answered whole), and each field the cache lacked with its
    /// reason and nearest data, as it was when the policy decided.
    func explainLastOperation() throws {
        guard let run = lastOperation else {
            throw CommandError("no operation has run yet: .why explains the last one (.why ID explains watcher ID)")
        }
        printer.emit(.whyOperation(run, result: lastResult))
    }

    /// `.run NAME [JSON] --write DATA`: writes `data` into the cache as the local cache
    /// mutation `operation`'s data, with `given` variables (else the `.vars` it declares),
    /// then prints what it reads from the cache. Nothing is sent; data that does not fit
    /// its selection is refused naming the path, and nothing is written.
    func write(_ data: CacheObject, through operation: CompiledOperation, variables given: CacheObject?) throws {
        guard operation.isLocalCacheMutation else {
            throw CommandError("--write is for a local cache mutation (@apollo_client_ios_localCacheMutation); "
                               + "the \(operation.kind.rawValue) \(operation.name ?? "") goes to the server (.write KEY JSON sets a record's fields)")
        }
        let variables = variables(given, for: operation)
        let endpoint = try currentEndpoint(for: operation)
        do { try client.write(data: data, for: operation, variables: variables, from: endpoint) } catch {
            // The engine words a misfit for a server's response; this data is the user's.
            guard case .cache(.response(let misfit)) = error else { throw error }
            throw CommandError("the data does not fit the operation at \(misfit.path): \(misfit.message)")
        }
        lastResult = try client.cachedResult(of: operation, variables: variables, from: endpoint)
        let misses = lastResult!.complete ? [] : try client.explainMisses(of: operation, variables: variables, from: endpoint)
        lastOperation = OperationRun(operation: operation, policy: .cacheOnly, cacheAnswered: lastResult!.complete, misses: misses)
        printer.emit(.result(lastResult!))
    }

    /// The variables `operation` runs with: `given` (a command's JSON, all of it: a name
    /// the operation does not declare is refused), else the session's `.vars` that it
    /// declares (`.vars` are for every next operation, and each takes its own).
    func variables(_ given: CacheObject?, for operation: CompiledOperation) -> CacheObject {
        given ?? CacheObject(members: settings.variables.members.filter { name, _ in operation.variables.contains { $0.name == name } })
    }

    /// `.vars JSON`: the session's variables from now on, each first checked against the
    /// named operations `.run` offers (the project's on its endpoint, else the current
    /// plugin's), with the endpoint's schema: a value that every one of them declaring its
    /// name refuses is refused now, with the first one's reason, and `.vars` stay as they
    /// were. A name none of them declares is kept: an operation typed later may declare it.
    func setVariables(_ given: CacheObject) throws {
        let operations = operationNames.compactMap { try? operation(named: $0) }
        for (name, value) in given.members {
            let declaring = operations.filter { $0.variables.contains { $0.name == name } }
            let refusals = declaring.compactMap { operation -> String? in
                do { _ = try client.cache.coerceVariable(name, value, for: operation, schema: endpoint?.schemaKnowledge) } catch {
                    return "\(error), as \(operation.name ?? "an operation") declares it"
                }
                return nil
            }
            if !declaring.isEmpty, refusals.count == declaring.count { throw CommandError(refusals[0] + " (.vars unchanged)") }
        }
        settings.variables = given
    }

    /// The endpoint `operation` goes to under the session's policy. When none is set and
    /// the operation never reaches the network (``FetchPolicy/needsEndpoint(for:)``: a
    /// cache-only read, a local cache mutation), ``NoEndpoint`` stands in; without an
    /// operation (`.schema`) one must be set.
    func currentEndpoint(for operation: CompiledOperation? = nil) throws -> any Transport {
        if let endpoint { return endpoint }
        if let operation, !settings.policy.needsEndpoint(for: operation) { return NoEndpoint() }
        throw CommandError(NoEndpoint.message)
    }

    /// The plugin whose server is the current endpoint.
    func currentPlugin() throws -> LoadedPlugin {
        guard let plugin = (endpoint as? PluginEndpoint)?.plugin else {
            throw CommandError("the endpoint is not a plugin's: .use PLUGIN first (.plugins lists them)")
        }
        return plugin
    }

    /// An operation given as a document, or as the name of one of the project's (on its
    /// endpoint) or the current plugin's; a document is validated first, as ``compile(_:)`` does.
    func operation(named nameOrDocument: String) throws -> CompiledOperation {
        if GraphQLInput.starts(nameOrDocument[...]) { return try compile(nameOrDocument) }
        if app.onProjectEndpoint, let project = app.project {
            return try client.cache.operation(try project.document(forOperation: nameOrDocument), name: nameOrDocument)
        }
        return try plugins.operation(named: nameOrDocument, of: try currentPlugin())
    }

    /// The names ``operation(named:)`` takes, sorted: what Tab offers after `.run` and `.watch`.
    var operationNames: [String] {
        if app.onProjectEndpoint, let project = app.project { return project.operations.map(\.name) }
        return (try? currentPlugin())?.manifest.operations.keys.sorted() ?? []
    }

    // MARK: watchers

    /// Starts a watcher of `operation` with `given` variables, else the `.vars` it declares;
    /// `refetchPolicy` says what a change from elsewhere does (``Client/watch(_:variables:policy:refetchPolicy:returnPartialData:from:onEvent:)``).
    func startWatch(_ operation: CompiledOperation, variables given: CacheObject?, refetchPolicy: FetchPolicy?) throws {
        // A watcher whose refetch policy fetches on a change needs an endpoint, whatever its policy.
        let endpoint = refetchPolicy?.mayFetchOnChange == true ? try currentEndpoint() : try currentEndpoint(for: operation)
        let watch = try client.watch(operation, variables: variables(given, for: operation), policy: settings.policy,
                                     refetchPolicy: refetchPolicy, returnPartialData: settings.returnsPartialData, from: endpoint)
        printer.emit(.watching(id: watch.id, operation: operation.name))
    }

    /// The watchers named by `ID` or `all`.
    func watches(_ word: String) throws -> [ClientWatch] {
        if word == "all" { return client.activeWatches }
        guard let id = Int(word), let watch = client.watch(id: id) else {
            throw CommandError("no watcher \"\(word)\" (.watches lists them)")
        }
        return [watch]
    }

    // MARK: service commands

    /// Runs `trips.rename 2 "Porto"`: the plugin's command, then the refetches it declares.
    func runServiceCommand(_ text: Substring) throws {
        let input = try CommandInput(text, synopsis: "SERVICE.COMMAND ARG...")
        let name = input.words[0]
        guard plugins.command(named: name) != nil else {
            let domain = name.prefix { $0 != "." }
            let known = plugins.plugins.flatMap(\.manifest.commands).map(\.name)
            if name.contains("."), known.contains(where: { $0.hasPrefix(domain + ".") }) {
                throw CommandError("no service command \"\(name)\"\(DidYouMean(name, among: known).hint) (.commands lists them)")
            }
            throw CommandError("\(text.preview) is not a command; commands start with \".\" (.help lists them), "
                + "service commands with a domain (.commands lists them), GraphQL with query, mutation or {")
        }
        let plugins = self.plugins
        let arguments = Array(input.words.dropFirst())
        let lines = try wait { try await plugins.run(command: name, arguments: arguments) }
        printer.emit(.serviceOutput(command: name, lines: lines))
    }

    // MARK: lifecycle

    /// Lets the scope switch caches (the app stops the old cache's watchers), then tells
    /// every service of `event`, if there is one. Without `switchScope` (`.foreground`)
    /// the cache, its store and the file followed stay.
    func lifecycle(_ event: LifecycleEvent?, _ switchScope: (() throws -> Void)? = nil) throws {
        if let switchScope {
            // Stopped before the scope closes the store it reads; followed again if the cache stays.
            let followed = following?.isActive == true ? following?.file : nil
            stopFollowing()
            stopSubscriptions()
            let stopped: [Int]
            do { stopped = try app.switchScope(switchScope) } catch {
                if followed != nil { try? startFollowing() }
                throw error
            }
            if let followed { warn("stopped following \(followed): the session's cache moved to another store") }
            if !stopped.isEmpty {
                printer.emit(.stopped(watchers: stopped))
            }
        }
        guard let event else { return }
        let environment = app.environment
        try wait { await environment.broadcast(event) }
    }
}

/// The endpoint of a session that has none, for reads that never leave the cache.
struct NoEndpoint: Transport {
    /// A project's, when the session runs a project with no server (reads of a cache file).
    var schemaKnowledge: SchemaKnowledge? = nil
    var name: String { "none" }
    /// What the session says when an operation must reach the network and none is set.
    static let message = "no endpoint: .use PLUGIN for a plugin's server, or .endpoint URL for an HTTP one"
    func send(_ request: GraphQLRequest) async throws(TransportError) -> CacheValue { throw .unreachable(Self.message) }
    func schema() async throws(TransportError) -> String { throw .unreachable(Self.message) }
}
