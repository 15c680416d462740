/// Where a query's result may come from: Apollo Client's five policies, under their
/// Apollo Client names, with Apollo iOS 1.x's names accepted as aliases.
///
/// ```swift
/// FetchPolicy(name: "cache-first")                // .cacheFirst
/// FetchPolicy(name: "returnCacheDataDontFetch")   // .cacheOnly
/// FetchPolicy.cacheAndNetwork.name                // "cache-and-network"
/// ```
public enum FetchPolicy: String, Sendable, CaseIterable {
    /// A cache hit returns; a miss goes to the network and the result is written.
    case cacheFirst = "cache-first"
    /// Never the network; a miss is an error that names the missing fields.
    case cacheOnly = "cache-only"
    /// Always the network; the result is written.
    case networkOnly = "network-only"
    /// Always the network; nothing is written.
    case noCache = "no-cache"
    /// A cache hit at once, then the network's result (written).
    case cacheAndNetwork = "cache-and-network"

    /// The Apollo Client name, e.g. `cache-first`.
    public var name: String { rawValue }

    /// The Apollo iOS 1.x name, e.g. `returnCacheDataElseFetch`.
    public var apolloIOSName: String {
        switch self {
        case .cacheFirst: "returnCacheDataElseFetch"
        case .cacheOnly: "returnCacheDataDontFetch"
        case .networkOnly: "fetchIgnoringCacheData"
        case .noCache: "fetchIgnoringCacheCompletely"
        case .cacheAndNetwork: "returnCacheDataAndFetch"
        }
    }

    /// The policy of either name; nil for an unknown one.
    public init?(name: String) {
        guard let policy = Self.allCases.first(where: { $0.name == name || $0.apolloIOSName == name }) else { return nil }
        self = policy
    }

    /// Every accepted name, for messages and completion.
    public static var names: [String] { allCases.map(\.name) + allCases.map(\.apolloIOSName) }

    /// Whether a request may be sent: every policy but cache-only.
    var mayUseNetwork: Bool { self != .cacheOnly }
    /// Whether a fetch under this policy sends a request, given whether the cache could
    /// answer whole: the one place where a policy decides, for fetches and watchers alike.
    func sendsRequest(cacheAnswered complete: Bool) -> Bool {
        switch self {
        case .cacheOnly: false
        case .cacheFirst: !complete
        case .networkOnly, .noCache, .cacheAndNetwork: true
        }
    }
    /// Whether a result may come from the cache.
    var readsCache: Bool { self == .cacheFirst || self == .cacheOnly || self == .cacheAndNetwork }
    /// Whether network results are written to the cache.
    var writesCache: Bool { self != .noCache }
}
