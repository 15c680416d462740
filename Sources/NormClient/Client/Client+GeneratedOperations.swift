import NormAPI
import NormCache

/// The typed API: generated operations (`normcache codegen`) in, their generated `Data`
/// out, over the same fetch policies, cache and watchers as the untyped API.
///
/// ```swift
/// let client = Client(cache: NormalizedCache(), endpoint: trips)
/// let detail = try await client.fetch(TripDetailQuery(id: "2"), policy: .cacheFirst)
/// detail.data?.trip?.fragments.tripHeader.name
/// let renamed = try await client.perform(RenameTripMutation(id: "2", name: "Faro"),
///                                        optimistic: .init(renameTrip: .init(id: "2", name: "Faro")))
/// for await update in try client.watch(TripListQuery()) {
///     print(update.cause, update.data?.trips.count ?? 0)
/// }
/// ```
extension Client {
    /// Runs `query` as ``fetch(_:variables:policy:optimistic:from:cause:onCacheResult:)``
    /// does (against `transport`, else the client's ``endpoint``), and decodes its data.
    public func fetch<Query: GraphQLQuery>(_ query: Query, policy: FetchPolicy = .cacheFirst,
                                           from transport: (any Transport)? = nil) async throws(ClientError) -> OperationResult<Query.Data> {
        let operation = try compiled(Query.self), coerced = try variables(of: query, for: operation, from: transport)
        return try OperationResult(try await fetch(operation, variables: coerced, policy: policy, from: transport), variables: coerced)
    }

    /// Sends `mutation`; `optimistic` is the data it is expected to return, which the cache
    /// shows until the server answers (and takes back if it fails).
    public func perform<Mutation: GraphQLMutation>(_ mutation: Mutation, optimistic: Mutation.Data? = nil,
                                                   from transport: (any Transport)? = nil) async throws(ClientError) -> OperationResult<Mutation.Data> {
        var optimisticData: CacheObject?
        if let optimistic, case .object(let object) = CacheValue(optimistic.jsonValue) { optimisticData = object }
        let operation = try compiled(Mutation.self), coerced = try variables(of: mutation, for: operation, from: transport)
        return try OperationResult(try await fetch(operation, variables: coerced, policy: .networkOnly, optimistic: optimisticData, from: transport),
                                   variables: coerced)
    }

    /// Watches `query`: an `AsyncSequence` of its data as the cache changes, each with its
    /// cause (``TypedWatch``).
    public func watch<Query: GraphQLQuery>(_ query: Query, policy: FetchPolicy = .cacheFirst,
                                           from transport: (any Transport)? = nil) throws(ClientError) -> TypedWatch<Query> {
        let (updates, continuation) = AsyncStream<WatchUpdate<Query.Data>>.makeStream()
        let watch = try watch(compiled(Query.self), variables: variables(of: query), policy: policy, from: transport) { watch, event in
            if let update = WatchUpdate<Query.Data>(event, variables: watch.variables) { continuation.yield(update) }
        }
        return TypedWatch(watch: watch, updates: updates, continuation: continuation)
    }

    /// The generated operation's document, compiled once (the cache keeps compiled plans).
    func compiled<Generated: GraphQLOperation>(_ type: Generated.Type) throws(ClientError) -> CompiledOperation {
        do { return try cache.operation(Generated.operationDocument, name: Generated.operationName) } catch { throw .cache(error) }
    }

    private func variables(of operation: some GraphQLOperation) -> CacheObject {
        if case .object(let variables) = CacheValue(operation.__variables) { return variables }
        return CacheObject()
    }

    /// `generated`'s variables as the cache and the server take them (coerced, defaults
    /// applied): what its data's `@include` / `@skip` are decided by.
    private func variables(of generated: some GraphQLOperation, for operation: CompiledOperation,
                           from transport: (any Transport)?) throws(ClientError) -> CacheObject {
        try coerceVariables(variables(of: generated), for: operation, from: transport)
    }
}
