import NormCache

/// What each fetch policy does: the one place a policy is decided, for the client's
/// fetches and watchers, the workbench and the plugin host alike (the policies and their
/// names are NormAPI's ``FetchPolicy``).
extension FetchPolicy {
    /// Whether a request may be sent: every policy but cache-only.
    var mayUseNetwork: Bool { self != .cacheOnly }
    /// The policy `operation` runs under when asked for this one: a query's is this; a
    /// mutation or subscription goes to the network (`no-cache` keeps its result out of the
    /// cache); a local cache mutation (`@apollo_client_ios_localCacheMutation`) is read from
    /// the cache only, never sent, as Apollo iOS uses one (``Client/update(_:from:_:)`` and
    /// ``Client/write(data:for:variables:from:)`` write one).
    public func applied(to operation: CompiledOperation) -> FetchPolicy {
        if operation.isLocalCacheMutation { return .cacheOnly }
        return operation.kind == .query ? self : (self == .noCache ? .noCache : .networkOnly)
    }
    /// Whether running `operation` under this policy may reach the network, and so needs
    /// an endpoint: every policy but cache-only, as ``applied(to:)`` makes it (a local
    /// cache mutation never does).
    public func needsEndpoint(for operation: CompiledOperation) -> Bool { applied(to: operation).mayUseNetwork }
    /// Whether a fetch under this policy sends a request, given whether the cache could
    /// answer whole: the one place where a policy decides, for fetches and watchers alike.
    func sendsRequest(cacheAnswered complete: Bool) -> Bool {
        switch self {
        case .cacheOnly: false
        case .cacheFirst: !complete
        case .networkOnly, .noCache, .cacheAndNetwork, .networkFirst: true
        }
    }
    /// Whether a query that got no response answers from the cache, when the cache can.
    var fallsBackToCache: Bool { self == .networkFirst }
    /// Whether a result may come from the cache.
    var readsCache: Bool { self == .cacheFirst || self == .cacheOnly || self == .cacheAndNetwork }
    /// Whether network results are written to the cache.
    var writesCache: Bool { self != .noCache }
    /// The policies a watcher's refetch policy may be: what it does when a change from
    /// elsewhere reaches its read (``Client/watch(_:variables:policy:refetchPolicy:returnPartialData:from:onEvent:)``).
    public static let refetchPolicies: [FetchPolicy] = [.cacheFirst, .cacheOnly, .networkOnly, .cacheAndNetwork]
    /// As a watcher's refetch policy: whether some change from elsewhere may make it fetch
    /// (so the watcher needs an endpoint, whatever its own policy).
    package var mayFetchOnChange: Bool { refetchesOnChange(readComplete: false) }
    /// The refetch policy of a watcher with this policy when none is given: cache-only for a
    /// cache-only watcher (it never fetches by itself), cache-first for the others.
    var impliedRefetchPolicy: FetchPolicy { self == .cacheOnly ? .cacheOnly : .cacheFirst }
    /// As a watcher's refetch policy: whether it shows the cache's new read of a change
    /// from elsewhere (network-only waits for the network's answer instead).
    var showsChangedRead: Bool { self != .networkOnly }
    /// As a watcher's refetch policy: whether a change from elsewhere makes it fetch, given
    /// whether the cache's new read is whole: cache-first when it is not (Apollo iOS's
    /// `refetchOnFailedUpdates`), network-only and cache-and-network always, cache-only never
    /// (Apollo Kotlin's `refetchPolicy`).
    func refetchesOnChange(readComplete complete: Bool) -> Bool {
        switch self {
        case .networkOnly, .cacheAndNetwork: true
        case .cacheFirst: !complete
        case .cacheOnly, .noCache, .networkFirst: false
        }
    }

    /// Whether running `operation` under this policy sent a request, and why, in words
    /// (`.why`), given whether the cache's answer was whole (nil: the cache was not read).
    /// Worded from the same decisions as above, so the words cannot disagree with them.
    package func explanation(of operation: CompiledOperation, cacheAnswered complete: Bool?) -> (requested: Bool, reason: String) {
        let policy = applied(to: operation)
        let name = policy.name
        if operation.isLocalCacheMutation { return (false, "a local cache mutation is read from the cache only, never sent") }
        if operation.kind != .query {
            return (true, "a \(operation.kind.rawValue) always goes to the network" + (policy.writesCache ? "" : "; no-cache keeps its result out of the cache"))
        }
        let requested = policy.sendsRequest(cacheAnswered: complete ?? false)
        guard policy.readsCache, let complete else {
            return (requested, "\(name) sends the query without reading the cache"
                    + (policy.fallsBackToCache ? "; the cache answers only when no response comes" : "")
                    + (policy.writesCache ? "" : ", and keeps the response out of it"))
        }
        switch (complete, requested) {
        case (true, false): return (false, "\(name): the cache had every field, so no request was sent")
        case (false, false): return (false, "\(name): the cache lacked fields, and \(name) never sends a request")
        case (true, true): return (true, "\(name): the cache's whole answer came first, then the query was sent all the same")
        case (false, true): return (true, "\(name): the cache lacked fields, so the query was sent")
        }
    }
}
