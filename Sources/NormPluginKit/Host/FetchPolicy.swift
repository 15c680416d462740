/// Where the host's client looks for an operation's data: the names of Apollo's fetch
/// policies, and any other name the host knows.
///
/// ```swift
/// try await host.run(.operation("RenameTrip"), variables: ["id": "2", "name": "Porto"], policy: .networkOnly)
/// ```
public struct FetchPolicy: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral name: String) { self.init(rawValue: name) }

    /// The cache when it has every field, the network otherwise (the host's default).
    public static let cacheFirst: FetchPolicy = "cache-first"
    /// The cache only; missing fields are reported, never fetched.
    public static let cacheOnly: FetchPolicy = "cache-only"
    /// The network, and the result written to the cache.
    public static let networkOnly: FetchPolicy = "network-only"
    /// The network, and nothing written to the cache.
    public static let noCache: FetchPolicy = "no-cache"
    /// The cache at once, then the network.
    public static let cacheAndNetwork: FetchPolicy = "cache-and-network"
}
