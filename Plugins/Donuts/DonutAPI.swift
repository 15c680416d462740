import NormPluginKit

/// The donut endpoint as the services call it: a generated operation of the manifest run
/// through the host's client (its cache, fetch policies and simulated network), answering
/// the operation's data, or throwing its first GraphQL error or the transport's failure. It
/// lives in the plugin's environment.
///
/// ```swift
/// let api = try environment.get(DonutAPI.self)
/// let menu = try await api.fetch(MenuQuery())                          // cache-first
/// let paid = try await api.perform(PayOrderMutation(id: "1"))          // the network
/// paid.payOrder.paid   // true
/// ```
struct DonutAPI: Sendable {
    private let host: Host

    init(host: Host) { self.host = host }

    func fetch<Query: GraphQLQuery>(_ query: Query, policy: FetchPolicy = .cacheFirst) async throws -> Query.Data {
        try await host.fetch(query, policy: policy).get()
    }

    func perform<Mutation: GraphQLMutation>(_ mutation: Mutation) async throws -> Mutation.Data {
        try await host.perform(mutation)
    }
}
