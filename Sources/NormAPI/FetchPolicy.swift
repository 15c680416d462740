/// Where a query's result may come from: Apollo Client's five policies and Apollo iOS
/// 2.x's network-first, under Apollo Client's spelling, with Apollo iOS's 1.x and 2.x
/// names accepted as aliases. One type for an app's client and a plugin's host calls alike
/// (NormPluginKit sends its name); what each policy does is NormClient's to decide
/// (`applied(to:)`, `sendsRequest`).
///
/// ```swift
/// FetchPolicy(name: "cache-first")                // .cacheFirst
/// FetchPolicy(name: "returnCacheDataDontFetch")   // .cacheOnly (Apollo iOS 1.x)
/// FetchPolicy(name: "networkFirst")               // .networkFirst (Apollo iOS 2.x)
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
    /// The network (the result is written); when no response comes, the cache's answer
    /// if it is whole (Apollo iOS 2.x's `networkFirst`; Apollo Client has none).
    case networkFirst = "network-first"

    /// The Apollo Client name, e.g. `cache-first`.
    public var name: String { rawValue }

    /// The Apollo iOS 1.x name (`CachePolicy`), e.g. `returnCacheDataElseFetch`; nil for
    /// network-first, which 1.x does not have.
    public var apolloIOS1Name: String? {
        switch self {
        case .cacheFirst: "returnCacheDataElseFetch"
        case .cacheOnly: "returnCacheDataDontFetch"
        case .networkOnly: "fetchIgnoringCacheData"
        case .noCache: "fetchIgnoringCacheCompletely"
        case .cacheAndNetwork: "returnCacheDataAndFetch"
        case .networkFirst: nil
        }
    }

    /// The Apollo iOS 2.x name (`CachePolicy`), e.g. `cacheFirst`; nil for no-cache, which
    /// 2.x spells as network-only with `writeResultsToCache` off.
    public var apolloIOS2Name: String? {
        switch self {
        case .cacheFirst: "cacheFirst"
        case .cacheOnly: "cacheOnly"
        case .networkOnly: "networkOnly"
        case .noCache: nil
        case .cacheAndNetwork: "cacheAndNetwork"
        case .networkFirst: "networkFirst"
        }
    }

    /// The policy of any of its names; nil for an unknown one.
    public init?(name: String) {
        guard let policy = Self.allCases.first(where: { $0.names.contains(name) }) else { return nil }
        self = policy
    }

    /// This policy's names: Apollo Client's spelling, then Apollo iOS 1.x's and 2.x's.
    public var names: [String] { [name, apolloIOS1Name, apolloIOS2Name].compactMap { $0 } }

    /// Every accepted name, for messages and completion.
    public static var names: [String] { allCases.flatMap(\.names) }
}
