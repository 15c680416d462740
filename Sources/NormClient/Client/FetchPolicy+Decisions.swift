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
}
