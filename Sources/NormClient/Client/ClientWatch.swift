import Foundation
import NormAPI
import NormCache

/// A watched query: the cache pushes each change that alters its result, and the watch
/// fetches from its transport as its policy says. Made by ``Client/watch(_:variables:policy:from:onEvent:)``.
///
/// A watch never hands its view `null` because a field it selects went missing. An
/// incomplete read is not shown while a fetch that will fill it is under way, so a
/// cache-first watcher on an empty cache emits once, with the network's data. When a
/// change leaves the cache unable to answer (a friend without a `name`, a record evicted)
/// a watch that may fetch refetches (cause `refetch`), as Apollo iOS's
/// `refetchOnFailedUpdates` does; a cache-only watch keeps its last complete data and
/// reports what is missing (``Event/incomplete(_:)``).
///
/// Under Apollo iOS's semantics (the client's ``Client/semantics``, the default) a watch
/// hears what Apollo iOS's `GraphQLQueryWatcher` hears: records removed (evict, clear, gc)
/// change nothing it shows (``Event/unheard(_:)``), and a cache-only watch whose first
/// read misses fails (``Event/failure(_:)``, ``ClientError/cacheMiss(_:)``) and hears no
/// change until it fetches (``refetch()``, ``setVariables(_:)``). Under Apollo Client's it
/// hears every change, and a cache-only miss is ``Event/incomplete(_:)``.
///
/// Events reach the callback on the client's event queue, in order, after the write that
/// caused them has returned (``Client/watch(_:variables:policy:from:onEvent:)``).
///
/// ```swift
/// let watch = try client.watch(tripDetail, variables: ["id": "1"], from: trips) { watch, event in
///     if case .emission(let number, let emission) = event { print(number, emission.cause) }
/// }
/// try await watch.refetch()              // network-only; watchers hear cause "refetch"
/// watch.setVariables(["id": "2"])        // the fetch for id 1, if still running, is cancelled
/// watch.cancel()
/// ```
public final class ClientWatch: @unchecked Sendable {
    /// What a watch reports.
    public enum Event: Sendable {
        /// The `number`th emission shown (1 = the first).
        case emission(number: Int, WatchEmission)
        /// The cache cannot answer the watch (the emission's `missing` says which fields)
        /// and a cache-only watch does not fetch: its view keeps the last complete data.
        case incomplete(WatchEmission)
        /// A fetch of the watch failed, or its response carried GraphQL errors; under Apollo
        /// iOS's semantics, also a cache-only watch's first read that missed.
        case failure(ClientError)
        /// A change reached the watch's read (the emission says which), but under Apollo
        /// iOS's semantics its watcher would not hear it: records were removed (Apollo iOS's
        /// `removeObject` and `clearCache` tell no watcher), or a cache-only watch has had
        /// no answer yet. Its view keeps what it shows; nothing is fetched.
        case unheard(WatchEmission)
    }

    public let operation: CompiledOperation
    public let policy: FetchPolicy
    /// What a change from elsewhere that reaches its read does (``Client/watch(_:variables:policy:refetchPolicy:returnPartialData:from:onEvent:)``).
    public let refetchPolicy: FetchPolicy
    /// Whether a read the cache cannot answer whole is shown, nulls in its holes (Apollo
    /// Client's `returnPartialData`), before any fetch fills it.
    public let returnsPartialData: Bool
    /// Where its fetches go; nil for a cache-only watch started without one (its
    /// ``refetch()`` goes to the client's ``Client/endpoint``).
    public let transport: (any Transport)?
    /// The generated schema of a typed watch's operation, which its reads and fetches know; nil: none.
    let generated: (any SchemaMetadata.Type)?
    private unowned let client: Client
    private let onEvent: @Sendable (ClientWatch, Event) -> Void

    private let lock = NSLock()
    private var cacheWatch: Watch?
    private var _variables: CacheObject
    private var fetchTask: Task<Void, Never>?
    /// Bumped by each fetch started, so only the latest one clears `fetching`.
    private var generation = 0
    private var fetching = false
    /// The cache's commit count when its last fetch ended: an emission that followed a
    /// commit up to it came from that fetch's own write (or before), not from elsewhere.
    private var fetchedThrough = 0
    private var cancelled = false
    private var emitted = 0
    private var lastReadComplete = false
    private var hearing = Hearing.firstRead
    /// The last read the watch was not told of (``Event/unheard(_:)``), until a later one
    /// is: a fetch that changes nothing in the cache still shows it, as Apollo iOS's
    /// watcher shows what its fetch returns.
    private var unheardRead: WatchEmission?
    /// The data of the last emission shown for the current variables: a complete read
    /// that equals it (the cache could not answer for a while, and a refetch brought back
    /// the same data) is not shown again.
    private var shown: CacheValue?

    init(client: Client, operation: CompiledOperation, variables: CacheObject, policy: FetchPolicy, refetchPolicy: FetchPolicy,
         returnsPartialData: Bool, transport: (any Transport)?, generated: (any SchemaMetadata.Type)?,
         onEvent: @escaping @Sendable (ClientWatch, Event) -> Void) {
        self.returnsPartialData = returnsPartialData
        self.client = client
        self.operation = operation
        self._variables = variables
        self.policy = policy
        self.refetchPolicy = refetchPolicy
        self.transport = transport
        self.generated = generated
        self.onEvent = onEvent
    }

    /// The engine's watcher id, shown as the watch's id (known from the first emission on).
    public var id: Int { lock.withLock { engineID } }
    private var engineID = 0
    /// The variables it runs with, coerced to their declared types.
    public var variables: CacheObject { lock.withLock { _variables } }
    /// How many emissions were shown.
    public var emissions: Int { lock.withLock { emitted } }
    /// True while a fetch of this watch is under way.
    public var isFetching: Bool { lock.withLock { fetching } }
    /// The data it showed last, the variables it showed it for, and whether a fetch of it
    /// is under way, at one moment (``Client/nextPage(of:)`` pages on from it).
    var shownPage: (data: CacheValue?, variables: CacheObject, fetching: Bool) { lock.withLock { (shown, _variables, fetching) } }

    func start() throws(ClientError) {
        lock.withLock { fetching = policy.mayUseNetwork }
        let watch: Watch
        do {
            // Partial reads: an incomplete read whose data changed is a new emission, so a
            // change the watch hears while the cache cannot answer it re-reads and misses
            // again (and a cache-first watch refetches), as Apollo iOS's watcher re-reads on
            // every change of a key it depends on. What a view is shown is decided here.
            watch = try client.cache.watch(operation, variables: variables, schema: client.knowledge(over: transport, generated: generated), partial: true) {
                [weak self] in self?.received($0)
            }
        } catch { throw .cache(error) }
        lock.withLock {
            cacheWatch = watch
            engineID = watch.id
        }
        fetchIfPolicySays(cause: .write)
    }

    /// Fetches from the network now (network-only) and returns the result; watchers hear
    /// what changed with cause `refetch`. A fetch of this watch still running is cancelled.
    @discardableResult
    public func refetch() async throws(ClientError) -> ClientResult {
        let generation = beginFetch()
        do {
            let result = try await client.fetch(operation, variables: variables, policy: .networkOnly, from: transport, generated: generated, cause: .refetch)
            endFetch(generation, fetched: true)
            return result
        } catch {
            endFetch(generation, fetched: false)
            throw error
        }
    }

    /// Runs the watch with new variables: it emits their read at once, and fetches for
    /// them as its policy says; a fetch still running for the old variables is cancelled.
    /// Variables its operation's types refuse change nothing (the error names the variable).
    public func setVariables(_ variables: CacheObject) throws(ClientError) {
        let variables = try client.coerceVariables(variables, for: operation, schema: client.knowledge(over: transport, generated: generated))
        guard let watch = lock.withLock({ () -> Watch? in
            _variables = variables
            shown = nil   // the new variables' first answer shows, whatever the old ones showed
            hearing = .firstRead
            fetching = policy.mayUseNetwork
            generation += 1   // the old variables' fetch, cancelled below, must not clear `fetching` as it ends
            return cacheWatch
        }) else { return }
        cancelFetch()
        do { try client.cache.setVariables(of: watch, to: variables) } catch { throw .cache(error) }
        fetchIfPolicySays(cause: .refetch)
    }

    /// Stops the watch and any fetch of it; no callback with an event of it starts after this returns.
    public func cancel() {
        lock.withLock { cancelled = true }
        cancelFetch()
        lock.withLock { cacheWatch }?.cancel()
        client.forget(self)
    }

    // MARK: emissions and fetches

    /// What the watch hears of the cache's changes for the current variables.
    private enum Hearing {
        /// Its first read has not come yet.
        case firstRead
        /// Every change its read depends on.
        case changes
        /// Nothing until it fetches: under Apollo iOS's semantics, a cache-only watch whose
        /// first read missed, as Apollo iOS's watcher without dependent keys.
        case nothing
    }

    /// What a watch does with a read of the cache.
    private enum Reaction {
        case show(number: Int)
        /// An incomplete read shown as partial data, nulls in its holes (``returnsPartialData``),
        /// then fetched if `thenRefetch`.
        case showPartial(thenRefetch: Bool)
        /// Show it, and fetch (refetch policy cache-and-network).
        case showThenRefetch(number: Int)
        /// Nothing to show: incomplete while a fetch under way will fill it, or the data shown already.
        case wait
        case refetch
        case reportMissing
        /// A cache-only watch's first read missed (Apollo iOS's semantics).
        case fail
        /// Apollo iOS's watcher would not hear this change.
        case unheard
    }

    private func received(_ emission: WatchEmission) {
        let apolloIOS = client.semantics == .apolloIOS
        let decided = lock.withLock { () -> Reaction in
            engineID = emission.watcher
            lastReadComplete = emission.result.complete
            let first = hearing == .firstRead
            if first { hearing = .changes }
            let deaf = hearing == .nothing
            if apolloIOS, deaf || Self.removes(emission.cause) {
                unheardRead = emission
                // The watch's own fetch writes what its end will show (as Apollo iOS's
                // watcher gets its fetch's result, not the store's notice of it).
                return deaf && fetching ? .wait : .unheard
            }
            unheardRead = nil
            // A change from elsewhere (not its own fetch's write, even delivered after the fetch ended)
            // goes as the refetch policy says.
            let fromElsewhere = !first && !fetching && emission.commit > fetchedThrough
            let refetches = fromElsewhere && refetchPolicy.refetchesOnChange(readComplete: emission.result.complete)
            if fromElsewhere, !refetchPolicy.showsChangedRead { return .refetch }
            if emission.result.complete {
                if emission.result.data == shown { return refetches ? .refetch : .wait }
                shown = emission.result.data
                emitted += 1
                return refetches ? .showThenRefetch(number: emitted) : .show(number: emitted)
            }
            if fetching { return .wait }
            if refetches { return .refetch }
            guard policy == .cacheOnly || !fromElsewhere else { return .reportMissing }
            guard policy == .cacheOnly else { return .refetch }
            // With partial data its first read is an answer, so it goes on hearing changes.
            guard apolloIOS, first, !returnsPartialData else { return .reportMissing }
            hearing = .nothing
            return .fail
        }
        let reaction = returnsPartialData && !emission.result.complete ? partialReaction(decided, emission: emission) : decided
        switch reaction {
        case .showPartial(let thenRefetch):
            // Partial data is the view's answer: what it lacks shows as nulls, not reported apart.
            if let partial = showPartial(emission) { report(.emission(number: partial.number, partial.emission)) }
            if thenRefetch { fetch(cause: .refetch) }
        case .show(let number): report(.emission(number: number, emission))
        case .showThenRefetch(let number):
            report(.emission(number: number, emission))
            fetch(cause: .refetch)
        case .wait: break
        case .refetch: fetch(cause: .refetch)
        case .reportMissing: report(.incomplete(emission))
        case .fail: report(.failure(.cacheMiss(ClientResult(operation: operation, read: emission.result))))
        case .unheard: report(.unheard(emission))
        }
    }

    /// What a watcher that returns partial data does with an incomplete read instead of
    /// `decided`: shows it while its fetch is under way or where it would report the miss,
    /// shows it and then fetches where it would refetch, unless its refetch policy fetches
    /// instead of showing a change from elsewhere (network-only); a failure, an unheard
    /// change and the rest stay as decided.
    private func partialReaction(_ decided: Reaction, emission: WatchEmission) -> Reaction {
        switch decided {
        case .wait, .reportMissing: return .showPartial(thenRefetch: false)
        case .refetch:
            let fromElsewhere = lock.withLock { emission.commit > fetchedThrough && !fetching }
            return fromElsewhere && !refetchPolicy.showsChangedRead ? .refetch : .showPartial(thenRefetch: true)
        default: return decided
        }
    }

    /// `emission`'s read again with nulls in its holes, numbered as the next emission shown,
    /// unless its data is what the view shows already.
    private func showPartial(_ emission: WatchEmission) -> (number: Int, emission: WatchEmission)? {
        guard let read = try? client.cache.readPartialData(operation, variables: variables, schema: client.knowledge(over: transport, generated: generated))
        else { return nil }
        return lock.withLock {
            guard read.data != shown else { return nil }
            shown = read.data
            emitted += 1
            return (emitted, emission.replacing(result: read))
        }
    }

    /// Whether a change of this cause removed records: Apollo iOS tells no watcher of those.
    private static func removes(_ cause: ChangeCause) -> Bool {
        cause == .evict || cause == .clear || cause == .gc
    }

    /// Hands `event` to the callback on the client's event queue (``Client/watch(_:variables:policy:from:onEvent:)``),
    /// unless the watch is cancelled by then.
    private func report(_ event: Event) {
        client.events.deliver { [self] in
            guard !lock.withLock({ cancelled }) else { return }
            onEvent(self, event)
        }
    }

    /// Fetches from the network if the policy sends a request for what the cache answered
    /// (``FetchPolicy/sendsRequest(cacheAnswered:)``, as ``Client/fetch`` decides).
    private func fetchIfPolicySays(cause: ChangeCause) {
        if policy.sendsRequest(cacheAnswered: lock.withLock { lastReadComplete }) {
            fetch(cause: cause)
        } else {
            lock.withLock { fetching = false }
        }
    }

    private func fetch(cause: ChangeCause) {
        let generation = beginFetch()
        let (operation, variables, transport, generated) = (self.operation, self.variables, self.transport, self.generated)
        let task = client.track { [weak self, client] in
            do throws(ClientError) {
                let result = try await client.fetch(operation, variables: variables, policy: .networkOnly, from: transport, generated: generated, cause: cause)
                if !result.errors.isEmpty { self?.report(.failure(.graphQLErrors(result.errors))) }
                self?.endFetch(generation, fetched: true)
            } catch {
                if !Task.isCancelled { self?.report(.failure(error)) }
                self?.endFetch(generation, fetched: false)
            }
        }
        lock.withLock { if self.generation == generation { fetchTask = task } }
    }

    private func beginFetch() -> Int {
        cancelFetch()
        return lock.withLock {
            generation += 1
            fetching = true
            return generation
        }
    }

    /// Ends fetch `generation`. One that `fetched` gives the watch what to watch (Apollo
    /// iOS's watcher gets its dependent keys from a fetch's result), and shows the read it
    /// was not told of, when that differs from what it shows.
    private func endFetch(_ generation: Int, fetched: Bool) {
        let through = client.cache.commitCount
        let shows = lock.withLock { () -> (number: Int, emission: WatchEmission)? in
            guard self.generation == generation else { return nil }
            fetching = false
            fetchedThrough = max(fetchedThrough, through)
            fetchTask = nil
            guard fetched else { return nil }
            if hearing == .nothing { hearing = .changes }
            guard let unheard = unheardRead.take(), unheard.result.complete, unheard.result.data != shown else { return nil }
            shown = unheard.result.data
            emitted += 1
            return (emitted, unheard)
        }
        if let shows { report(.emission(number: shows.number, shows.emission)) }
    }

    private func cancelFetch() {
        lock.withLock { () -> Task<Void, Never>? in
            defer { fetchTask = nil }
            return fetchTask
        }?.cancel()
    }
}
