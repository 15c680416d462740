import NormPluginKit

/// The donut endpoint as the services call it: a named operation of the manifest run
/// through the host's client (its cache, fetch policies and simulated network), answering
/// the operation's data, or throwing its first GraphQL error or the transport's failure. It
/// lives in the plugin's environment.
///
/// ```swift
/// let api = try environment.get(DonutAPI.self)
/// let menu = try await api.run("Menu")                                  // cache-first
/// let paid = try await api.run("PayOrder", variables: ["id": "1"])     // a mutation: the network
/// paid["payOrder", "paid"]   // true
/// ```
struct DonutAPI: Sendable {
    private let host: Host

    init(host: Host) { self.host = host }

    func run(_ operation: String, variables: Map = [:], policy: FetchPolicy = .cacheFirst) async throws -> Map {
        try await host.data(.operation(operation), variables: variables, policy: policy)
    }
}
