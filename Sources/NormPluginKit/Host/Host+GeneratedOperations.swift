import NormAPI

/// The typed API for a plugin's services, as the client's: the plugin's generated
/// operations (their manifest entries made with `NamedOperation(TripListQuery.self)`) in,
/// their generated `Data` out.
///
/// ```swift
/// let list = try await host.fetch(TripListQuery(), policy: .networkOnly)
/// list.data?.trips.map(\.name)
/// let renamed = try await host.perform(RenameTripMutation(id: "2", name: "Faro"),
///                                      optimistic: .init(renameTrip: .init(id: "2", name: "Faro")))
/// let watcher = try await host.watch(TripDetailQuery(id: "2"))     // shown by the workbench
/// ```
extension Host {
    /// Runs `query` through the host (its cache and `policy`) and decodes the data.
    /// GraphQL errors are in the result; a transport failure throws.
    public func fetch<Query: GraphQLQuery>(_ query: Query, policy: FetchPolicy? = nil) async throws -> HostResult<Query.Data> {
        try HostResult(reply: try await run(.operation(Query.operationName), variables: Map(query.__variables), policy: policy),
                       variables: Map(query.__variables))
    }

    /// Sends `mutation` and returns its data, its first GraphQL error thrown. `optimistic`
    /// is what the cache shows until the server answers.
    public func perform<Mutation: GraphQLMutation>(_ mutation: Mutation, optimistic: Mutation.Data? = nil) async throws -> Mutation.Data {
        let reply = try await run(.operation(Mutation.operationName), variables: Map(mutation.__variables), policy: .networkOnly,
                                  optimistic: optimistic.map { Map($0.jsonValue) })
        return try Mutation.Data(response: ReplyData(try Host.data(of: reply)), variables: ReplyData(Map(mutation.__variables)))
    }

    /// Starts a watcher of `query` that the workbench shows; returns its id.
    public func watch<Query: GraphQLQuery>(_ query: Query, policy: FetchPolicy? = nil) async throws -> Int {
        try await watch(.operation(Query.operationName), variables: Map(query.__variables), policy: policy)
    }
}

/// The host's answer to a generated query: the decoded data, where it came from, what the
/// cache lacked, and the GraphQL errors.
///
/// ```swift
/// let result = try await host.fetch(TripDetailQuery(id: "2"), policy: .cacheOnly)
/// result.source       // "cache"
/// result.missing      // ["Trip:2.owner"] when the cache could not answer
/// let trip = try result.get().trip   // the data, or the first GraphQL error thrown
/// ```
public struct HostResult<Data: NormAPI.SelectionSet>: Sendable {
    public let data: Data?
    /// `cache` or `network`.
    public let source: String
    /// Record-field keys the cache read lacked.
    public let missing: [String]
    /// The GraphQL errors' messages.
    public let errors: [String]

    /// The data, or the first GraphQL error thrown (as ``Host/data(_:variables:policy:optimistic:)``
    /// throws it); no data and no error, a read the cache could not answer, throws what it lacked.
    public func get() throws -> Data {
        if let error = errors.first { throw PluginError(error) }
        guard let data else { throw PluginError("no data: the cache lacked \(missing.isEmpty ? "the operation's root" : missing.joined(separator: ", "))") }
        return data
    }

    /// The host's `reply` to an operation with `variables`, which the data's `@include` /
    /// `@skip` are decided by.
    init(reply: Map, variables: Map) throws {
        let data = reply["data"]
        self.data = data.isNull || data.isUndefined ? nil : try Data(response: ReplyData(data), variables: ReplyData(variables))
        source = reply["source"].string ?? ""
        missing = reply["missing"].array?.compactMap(\.string) ?? []
        errors = reply["errors"].array?.compactMap { $0["message"].string } ?? []
    }
}
