import Foundation
import NormAPI
import NormCache

/// Runs GraphQL operations against transports through the normalized cache, the way
/// Apollo's client does: under a fetch policy, with identical queries in flight sent
/// once, mutations (and their optimistic responses) written under `MUTATION_ROOT`, and
/// watchers that refetch.
///
/// Every request goes through ``network``, so simulated conditions (offline, latency,
/// injected failures) apply to all endpoints alike, and every request is logged there.
///
/// Like Apollo iOS's `ApolloClient(networkTransport:store:)`, a client is made with the
/// ``endpoint`` its operations go to; `from:` sends one operation elsewhere, and a
/// cache-only one needs neither.
///
/// ```swift
/// let client = Client(cache: NormalizedCache(), endpoint: trips)
/// let tripList = try client.cache.operation("query TripList { trips { id name } }")
/// let first = try await client.fetch(tripList)                  // source .network
/// let again = try await client.fetch(tripList)                  // source .cache
/// let other = try await client.fetch(tripList, from: staging)   // another endpoint
/// let watch = try client.watch(tripList) { watch, event in print(watch.id, event) }
/// ```
public final class Client: @unchecked Sendable {
    public let network: SimulatedNetwork
    /// The cache operations read and write; see ``replaceCache(with:)``.
    public var cache: NormalizedCache { lock.withLock { _cache } }

    private let lock = NSLock()
    private var _cache: NormalizedCache
    private var inFlight: [String: SharedRequest] = [:]
    private var background: [Int: Task<Void, Never>] = [:]
    private var watches: [Int: ClientWatch] = [:]
    /// Where watchers' events wait for their callbacks, off the thread that wrote.
    let events = WatchEventQueue()
    private var _watchEvents: (@Sendable (ClientWatch, ClientWatch.Event) -> Void)?
    private var _endpoint: (any Transport)?
    private var _subscriptionEndpoint: (any SubscriptionTransport)?
    private var counter = 0

    public init(cache: NormalizedCache = NormalizedCache(), network: SimulatedNetwork = SimulatedNetwork(),
                endpoint: (any Transport)? = nil) {
        _cache = cache
        _typePolicies = cache.typePolicies
        _endpoint = endpoint
        self.network = network
    }

    /// Where an operation goes when its call names no transport (`from:`); nil: every
    /// call that needs the network names one, or fails with ``ClientError/noEndpoint(_:cached:)``.
    /// A watcher keeps the endpoint it started with.
    public var endpoint: (any Transport)? {
        get { lock.withLock { _endpoint } }
        set { lock.withLock { _endpoint = newValue } }
    }

    /// Where subscriptions go when a call names no transport: a ``WebSocketTransport`` to the
    /// endpoint's server, as Apollo iOS's `SplitNetworkTransport` pairs one with its HTTP
    /// transport; nil: subscriptions need a transport named.
    public var subscriptionEndpoint: (any SubscriptionTransport)? {
        get { lock.withLock { _subscriptionEndpoint } }
        set { lock.withLock { _subscriptionEndpoint = newValue } }
    }

    /// The type policies the app configures in code (Apollo iOS's `cacheKeyInfo`, the
    /// workbench's `.keyfields`), for every endpoint: the client applies them to its cache
    /// and to every cache it is put over. (Each endpoint's own policies come with its
    /// ``Transport/schemaKnowledge``.)
    public var typePolicies: TypePolicies {
        get { lock.withLock { _typePolicies } }
        set {
            let cache = lock.withLock {
                _typePolicies = newValue
                return _cache
            }
            cache.typePolicies = newValue
        }
    }
    private var _typePolicies: TypePolicies

    /// Whose answers the app gets where Apollo iOS and Apollo Client differ (``Semantics``,
    /// Apollo iOS's by default): the engine's rules and the client's watchers (what a
    /// watcher hears of removed records, what a cache-only watcher does when the cache
    /// cannot answer) follow it (docs/engine.md, "Apollo iOS and Apollo Client"). It is
    /// kept in one place, the cache's ``NormalizedCache/semantics``, and
    /// ``replaceCache(with:)`` carries it over to the next cache.
    ///
    /// ```swift
    /// client.semantics = .apolloClient   // a list leaves out an evicted trip; watchers hear a clear
    /// ```
    public var semantics: Semantics {
        get { cache.semantics }
        set { cache.semantics = newValue }
    }

    /// Puts the client over another cache (another user's, another file), with the
    /// client's type policies and semantics, and stops every watcher of the old one,
    /// returning their ids.
    @discardableResult
    public func replaceCache(with cache: NormalizedCache) -> [Int] {
        let stopped = activeWatches
        for watch in stopped { watch.cancel() }
        lock.withLock {
            cache.typePolicies = _typePolicies
            cache.semantics = _cache.semantics
            _cache = cache
        }
        return stopped.map(\.id)
    }

    // MARK: operations

    /// Runs `operation` and returns its final result. Queries follow `policy`; mutations
    /// always go to the network (`no-cache` keeps their result out of the cache), with
    /// `optimistic` data, if given, visible in the cache until the server answers or the
    /// mutation fails. `cause` is what watchers hear for the write.
    ///
    /// With `cache-and-network`, the cache's answer (when whole) goes to `onCacheResult`
    /// first. A cache-only miss throws ``ClientError/cacheMiss(_:)``. With
    /// `returnPartialData` (Apollo Client's option), an incomplete cache answer is data too,
    /// a null in each field it misses with an error at its path
    /// (``NormalizedCache/readPartialData(_:variables:schema:)``): cache-only returns it
    /// instead of throwing, and a policy that then sends hands it to `onCacheResult` first. The variables are
    /// coerced to their declared types before anything runs (``coerceVariables(_:for:from:)``):
    /// the cache and the server see the same values.
    ///
    /// The operation goes to `transport`, or else to the client's ``endpoint``; one that
    /// must reach the network with neither throws ``ClientError/noEndpoint(_:cached:)``.
    @discardableResult
    public func fetch(_ operation: CompiledOperation, variables: CacheObject = CacheObject(), policy: FetchPolicy = .cacheFirst,
                      returnPartialData: Bool = false, optimistic: CacheObject? = nil, from transport: (any Transport)? = nil,
                      cause: ChangeCause = .write, onCacheResult: (ClientResult) -> Void = { _ in }) async throws(ClientError) -> ClientResult {
        try await fetch(operation, variables: variables, policy: policy, returnPartialData: returnPartialData, optimistic: optimistic,
                        from: transport, generated: nil, cause: cause, onCacheResult: onCacheResult)
    }

    /// ``fetch(_:variables:policy:returnPartialData:optimistic:from:cause:onCacheResult:)`` of an operation of
    /// the generated schema `generated` (nil: none), which its reads and writes know
    /// (``knowledge(over:generated:)``). `onCacheMiss` hears an incomplete cache read that
    /// sends the query, before the request goes out, or that returns partial data: the
    /// cache is as it was when the policy decided (the workbench's `.why` explains the
    /// misses then). `onPart` hears each result of an answer in parts (`@defer`) but the
    /// last, which is returned: each has ``ClientResult/hasNext`` true.
    package func fetch(_ operation: CompiledOperation, variables: CacheObject, policy: FetchPolicy, returnPartialData: Bool = false,
                       optimistic: CacheObject? = nil,
                       from transport: (any Transport)?, generated: (any SchemaMetadata.Type)?, cause: ChangeCause = .write,
                       onCacheMiss: (ClientResult) -> Void = { _ in },
                       onCacheResult: (ClientResult) -> Void = { _ in },
                       onPart: (ClientResult) -> Void = { _ in }) async throws(ClientError) -> ClientResult {
        let transport = transport ?? endpoint
        let schema = knowledge(over: transport, generated: generated)
        let variables = try coerceVariables(variables, for: operation, schema: schema)
        let policy = policy.applied(to: operation)
        var cached: ClientResult?
        if policy.readsCache {
            let result = try cachedResult(of: operation, variables: variables, schema: schema)
            guard policy.sendsRequest(cacheAnswered: result.complete) else {
                guard result.complete else {
                    guard returnPartialData else { throw .cacheMiss(result) }
                    onCacheMiss(result)
                    return try partialResult(of: operation, variables: variables, schema: schema)
                }
                return result
            }
            if result.complete {
                onCacheResult(result)   // cache-and-network: the cache's answer first
            } else {
                onCacheMiss(result)
                if returnPartialData { onCacheResult(try partialResult(of: operation, variables: variables, schema: schema)) }
            }
            cached = result
        }
        guard let transport else { throw .noEndpoint(operation.title, cached: cached) }
        do {
            return try await fetchFromNetwork(operation, variables: variables, writing: policy.writesCache,
                                              optimistic: optimistic, from: transport, schema: schema, cause: cause, onPart: onPart)
        } catch {
            // A query that got no answer says what the cache holds for it (the fields that
            // sent it to the network), read now if the policy did not read it before.
            guard operation.kind == .query, case .transport(let failure, nil) = error else { throw error }
            let answer = cached ?? (try? cachedResult(of: operation, variables: variables, schema: schema))
            if policy.fallsBackToCache, let answer, answer.complete { return answer }
            throw .transport(failure, cached: answer)
        }
    }

    /// What the cache answers for `operation`, at once: the data when complete, the
    /// missing fields otherwise (what cache-only does, without a task), read with the
    /// knowledge of the endpoint the operation runs against.
    public func cachedResult(of operation: CompiledOperation, variables: CacheObject = CacheObject(),
                             from transport: (any Transport)? = nil) throws(ClientError) -> ClientResult {
        try cachedResult(of: operation, variables: variables, schema: knowledge(over: transport, generated: nil))
    }

    /// What the cache holds of `operation`, nulls in the holes (``NormalizedCache/readPartialData(_:variables:schema:)``).
    private func partialResult(of operation: CompiledOperation, variables: CacheObject, schema: SchemaKnowledge?) throws(ClientError) -> ClientResult {
        do { return ClientResult(operation: operation, read: try cache.readPartialData(operation, variables: variables, schema: schema)) }
        catch { throw .cache(error) }
    }

    /// Why each field the cache lacks for `operation` is missing, and the nearest data it
    /// holds (``NormalizedCache/explainMisses(of:variables:schema:)``), read with the
    /// knowledge of the endpoint the operation runs against.
    package func explainMisses(of operation: CompiledOperation, variables: CacheObject,
                               from transport: (any Transport)?) throws(ClientError) -> [MissExplanation] {
        do { return try cache.explainMisses(of: operation, variables: variables, schema: knowledge(over: transport ?? endpoint, generated: nil)) }
        catch { throw .cache(error) }
    }

    private func cachedResult(of operation: CompiledOperation, variables: CacheObject, schema: SchemaKnowledge?) throws(ClientError) -> ClientResult {
        do { return ClientResult(operation: operation, read: try cache.read(operation, variables: variables, schema: schema)) } catch { throw .cache(error) }
    }

    /// Writes `data` into the cache as `operation`'s data, with the knowledge of the
    /// endpoint it runs against, in one commit that watchers hear (cause `write`); nothing
    /// is sent. It is how the workbench's `.run NAME --write DATA` applies a local cache
    /// mutation (``update(_:from:_:)`` is the typed way). Data that does not fit the
    /// selection (a field missing, a value the schema's type refuses) is refused naming
    /// its path, and nothing is written.
    ///
    /// ```swift
    /// let local = try client.cache.operation("query LocalTrips @apollo_client_ios_localCacheMutation { trips { id name } }")
    /// try client.write(data: ["trips": [["__typename": "Trip", "id": "2", "name": "Faro"]]], for: local)
    /// ```
    public func write(data: CacheObject, for operation: CompiledOperation, variables: CacheObject = CacheObject(),
                      from transport: (any Transport)? = nil) throws(ClientError) {
        let transport = transport ?? endpoint
        let variables = try coerceVariables(variables, for: operation, from: transport)
        do { try cache.write(data: data, for: operation, variables: variables, schema: transport?.schemaKnowledge) } catch { throw .cache(error) }
    }

    /// `variables` coerced to `operation`'s declared types, as the cache does it
    /// (``NormalizedCache/coerceVariables(_:for:schema:)``); ``ClientError/cache(_:)`` with
    /// ``CacheError/variable(_:)`` names a variable its type refuses, or a required one missing.
    public func coerceVariables(_ variables: CacheObject, for operation: CompiledOperation,
                                from transport: (any Transport)? = nil) throws(ClientError) -> CacheObject {
        try coerceVariables(variables, for: operation, schema: knowledge(over: transport, generated: nil))
    }

    func coerceVariables(_ variables: CacheObject, for operation: CompiledOperation, schema: SchemaKnowledge?) throws(ClientError) -> CacheObject {
        do { return try cache.coerceVariables(variables, for: operation, schema: schema) } catch { throw .cache(error) }
    }

    /// True while a fetch the client started by itself (a watcher's, a refetch) is running,
    /// or a watch event waits for its callback.
    public var isBusy: Bool { lock.withLock { !background.isEmpty } || events.isBusy }

    private func fetchFromNetwork(_ operation: CompiledOperation, variables: CacheObject, writing: Bool, optimistic: CacheObject?,
                                  from transport: any Transport, schema: SchemaKnowledge?, cause: ChangeCause,
                                  onPart: (ClientResult) -> Void) async throws(ClientError) -> ClientResult {
        let request = GraphQLRequest(document: operation.networkDocument, operationName: operation.name, variables: variables)
        let layer = try optimistic.map { data throws(ClientError) in try writeOptimistic(data, for: operation, variables: variables, schema: schema) }
        let response: TransportResponse
        do {
            // A query in parts is read by its one caller: its parts cannot be shared.
            response = try await send(request, over: transport, shared: operation.kind == .query && !operation.defers)
        } catch {
            if let layer { _ = try? cache.rollBackOptimistic(layer) }
            throw .transport(error)
        }
        let result = ClientResult(operation: operation, response: response)
        do {
            switch (layer, writing) {
            case (let layer?, true) where result.data != nil:
                try response.commit(layer: layer, into: cache, for: operation, variables: variables, schema: schema)
            case (let layer?, _):
                try cache.rollBackOptimistic(layer)
            case (nil, true):
                try response.write(into: cache, for: operation, variables: variables, schema: schema, cause: cause)
            case (nil, false):
                break
            }
        } catch {
            if let layer { _ = try? cache.rollBackOptimistic(layer) }
            throw .cache(error)
        }
        return try await laterParts(of: response, result: result, operation, variables: variables, writing: writing, schema: schema,
                                    cause: cause, onPart: onPart)
    }

    /// The rest of an answer in parts (`@defer`), after its first: each later part's
    /// response so far is written as one commit, so watchers hear each part; every result
    /// but the last goes to `onPart`, and the last is returned.
    private func laterParts(of first: TransportResponse, result: ClientResult, _ operation: CompiledOperation, variables: CacheObject,
                            writing: Bool, schema: SchemaKnowledge?, cause: ChangeCause,
                            onPart: (ClientResult) -> Void) async throws(ClientError) -> ClientResult {
        var (response, result) = (first, result)
        while let later = response.later {
            onPart(result)
            do {
                guard let next = try await later.next() else { break }
                response = next
            } catch {
                throw .transport(error)
            }
            result = ClientResult(operation: operation, response: response)
            guard writing else { continue }
            do { try response.write(into: cache, for: operation, variables: variables, schema: schema, cause: cause) }
            catch { throw .cache(error) }
        }
        return result
    }

    private func writeOptimistic(_ data: CacheObject, for operation: CompiledOperation, variables: CacheObject,
                                 schema: SchemaKnowledge?) throws(ClientError) -> String {
        guard operation.kind == .mutation else { throw .invalid("an optimistic response is for a mutation, not a \(operation.kind.rawValue)") }
        let layer = "optimistic \(operation.name ?? "mutation") #\(lock.withLock { counter += 1; return counter })"
        do { try cache.writeOptimistic(layer, data: data, for: operation, variables: variables, schema: schema) } catch { throw .cache(error) }
        return layer
    }

    // MARK: sending, with identical queries in flight sent once

    /// One request in flight and the callers waiting for it. Each waiter can stop waiting on
    /// its own (its task was cancelled); the request is cancelled when the last one stops.
    private final class SharedRequest: @unchecked Sendable {
        var task: Task<Void, Never>?
        var waiters: [Int: CheckedContinuation<TransportResponse, any Error>] = [:]
        /// Callers that joined and have not stopped waiting (counted from the moment they join).
        var joined = 0
        var outcome: Result<TransportResponse, TransportError>?
    }

    private func send(_ request: GraphQLRequest, over transport: any Transport, shared: Bool) async throws(TransportError) -> TransportResponse {
        guard shared else { return try await network.send(request, over: transport) }
        let key = [transport.name, request.operationName ?? "", request.document, JSON.string(.object(request.variables))]
            .joined(separator: "\u{1}")
        let (entry, waiter) = lock.withLock { () -> (SharedRequest, Int) in
            counter += 1
            if let entry = inFlight[key] {
                entry.joined += 1
                return (entry, counter)
            }
            let entry = SharedRequest()
            entry.joined = 1
            inFlight[key] = entry
            let network = self.network
            entry.task = Task {
                let outcome: Result<TransportResponse, TransportError>
                do throws(TransportError) { outcome = .success(try await network.send(request, over: transport)) } catch { outcome = .failure(error) }
                self.finish(entry, key: key, with: outcome)
            }
            return (entry, counter)
        }
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    lock.withLock {
                        if let outcome = entry.outcome { return continuation.resume(with: outcome) }
                        guard !Task.isCancelled else {
                            leave(entry, key: key)
                            return continuation.resume(throwing: TransportError.cancelled)
                        }
                        entry.waiters[waiter] = continuation
                    }
                }
            } onCancel: {
                self.stopWaiting(waiter, for: entry, key: key)
            }
        } catch {
            throw (error as? TransportError) ?? .cancelled
        }
    }

    private func finish(_ entry: SharedRequest, key: String, with outcome: Result<TransportResponse, TransportError>) {
        let waiters = lock.withLock {
            entry.outcome = outcome
            if inFlight[key] === entry { inFlight[key] = nil }
            defer { entry.waiters = [:] }
            return entry.waiters.values
        }
        for waiter in waiters { waiter.resume(with: outcome) }
    }

    private func stopWaiting(_ waiter: Int, for entry: SharedRequest, key: String) {
        let continuation = lock.withLock { () -> CheckedContinuation<TransportResponse, any Error>? in
            guard let continuation = entry.waiters.removeValue(forKey: waiter) else { return nil }
            leave(entry, key: key)
            return continuation
        }
        continuation?.resume(throwing: TransportError.cancelled)
    }

    /// One caller stopped waiting (with the lock held); the last one cancels the request.
    private func leave(_ entry: SharedRequest, key: String) {
        entry.joined -= 1
        guard entry.joined == 0, entry.outcome == nil else { return }
        entry.task?.cancel()
        if inFlight[key] === entry { inFlight[key] = nil }
    }

    // MARK: watchers

    /// Where the events of every watcher started without a callback of its own go (the
    /// workbench prints them): a plugin's watchers, the REPL's. Like a watcher's own
    /// callback, it runs on the client's event queue, never inside the write that caused
    /// the event (see ``watch(_:variables:policy:from:onEvent:)``).
    public var watchEvents: (@Sendable (ClientWatch, ClientWatch.Event) -> Void)? {
        get { lock.withLock { _watchEvents } }
        set { lock.withLock { _watchEvents = newValue } }
    }

    /// Starts a watcher of `operation`: its first emission is the cache's answer, and a
    /// fetch follows as `policy` says (cache-first: when the cache cannot answer). After
    /// that a change from elsewhere that reaches its read is handled as `refetchPolicy`
    /// says (by default cache-only for a cache-only watcher, else cache-first): cache-first
    /// emits the new read when it alters the result and
    /// refetches when the cache can no longer answer; cache-only emits the new read, or
    /// reports what is missing; network-only fetches instead of showing the read;
    /// cache-and-network shows it and fetches. With `returnPartialData` a read the cache
    /// cannot answer whole is shown too, nulls in its holes (``NormalizedCache/readPartialData(_:variables:schema:)``),
    /// and then fetched as the policies say. `onEvent` hears emissions and failed fetches; without one,
    /// ``watchEvents`` does. It fetches from `transport`, or else the client's ``endpoint``;
    /// a cache-only watcher needs neither, any other throws ``ClientError/noEndpoint(_:cached:)``
    /// without one.
    ///
    /// Events reach `onEvent` on a serial queue of the client's, in the order they
    /// happened, after the write that caused them has returned: a slow callback holds up
    /// later events, never a writer. None starts after ``ClientWatch/cancel()`` returns.
    /// ``settle()`` waits until every event so far has been handed over.
    public func watch(_ operation: CompiledOperation, variables: CacheObject = CacheObject(), policy: FetchPolicy = .cacheFirst,
                      refetchPolicy: FetchPolicy? = nil, returnPartialData: Bool = false, from transport: (any Transport)? = nil,
                      onEvent: (@Sendable (ClientWatch, ClientWatch.Event) -> Void)? = nil) throws(ClientError) -> ClientWatch {
        try watch(operation, variables: variables, policy: policy, refetchPolicy: refetchPolicy, returnPartialData: returnPartialData,
                  from: transport, generated: nil, onEvent: onEvent)
    }

    /// ``watch(_:variables:policy:refetchPolicy:returnPartialData:from:onEvent:)`` of an operation of the generated schema
    /// `generated` (nil: none), which its reads and fetches know (``knowledge(over:generated:)``).
    func watch(_ operation: CompiledOperation, variables: CacheObject, policy: FetchPolicy, refetchPolicy: FetchPolicy? = nil,
               returnPartialData: Bool = false, from transport: (any Transport)?, generated: (any SchemaMetadata.Type)?,
               onEvent: (@Sendable (ClientWatch, ClientWatch.Event) -> Void)?) throws(ClientError) -> ClientWatch {
        guard operation.kind == .query else { throw .invalid("only a query can be watched, not a \(operation.kind.rawValue)") }
        guard policy != .noCache else { throw .invalid("a watcher reads the cache, so it cannot use no-cache") }
        let refetchPolicy = refetchPolicy ?? policy.impliedRefetchPolicy
        guard FetchPolicy.refetchPolicies.contains(refetchPolicy) else {
            throw .invalid("a watcher's refetch policy is one of " + FetchPolicy.refetchPolicies.map(\.name).joined(separator: ", ")
                           + ", not \(refetchPolicy.name)")
        }
        let transport = transport ?? endpoint
        if policy.needsEndpoint(for: operation) || refetchPolicy.mayFetchOnChange, transport == nil {
            throw .noEndpoint(operation.title)
        }
        let policy = policy.applied(to: operation)
        let sink = onEvent ?? watchEvents ?? { _, _ in }
        let variables = try coerceVariables(variables, for: operation, schema: knowledge(over: transport, generated: generated))
        let watch = ClientWatch(client: self, operation: operation, variables: variables, policy: policy, refetchPolicy: refetchPolicy,
                                returnsPartialData: returnPartialData, transport: transport, generated: generated, onEvent: sink)
        try watch.start()
        lock.withLock { watches[watch.id] = watch }
        return watch
    }

    /// The active watchers, by id.
    public var activeWatches: [ClientWatch] { lock.withLock { watches.values.sorted { $0.id < $1.id } } }

    /// The watcher with this id.
    public func watch(id: Int) -> ClientWatch? { lock.withLock { watches[id] } }

    func forget(_ watch: ClientWatch) { _ = lock.withLock { watches.removeValue(forKey: watch.id) } }

    // MARK: background work

    /// Runs `body` as a task that ``settle()`` waits for.
    @discardableResult
    func track(_ body: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        lock.withLock {
            counter += 1
            let id = counter
            let task = Task {
                await body()
                self.lock.withLock { _ = self.background.removeValue(forKey: id) }
            }
            background[id] = task
            return task
        }
    }

    /// Hands every watch event so far to its callback before returning (at once when called
    /// from a callback): for a caller whose report of a change must follow its watchers'
    /// reports, as the workbench's output does. It blocks the calling thread while the
    /// callbacks run; ``settle()`` is the way to wait from async code.
    public func deliverWatchEvents() { events.drainNow() }

    /// Waits until every fetch the client started by itself (watchers' fetches and
    /// refetches) has finished, including those started meanwhile, and every watch event
    /// so far has been handed to its callback. A script runs its next command only after
    /// this, so its output does not depend on timing. A watch callback must not call it.
    public func settle() async {
        while true {
            if let task = lock.withLock({ background.values.first }) {
                await task.value
            } else if events.isBusy {
                await events.drain()
            } else {
                return
            }
        }
    }
}

extension CompiledOperation {
    /// How the client's messages name an operation: `query TripList`, `anonymous mutation`.
    var title: String { name.map { "\(kind.rawValue) \($0)" } ?? "anonymous \(kind.rawValue)" }
}
