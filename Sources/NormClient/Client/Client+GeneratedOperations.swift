import NormAPI
import NormCache

/// The typed API: generated operations (`normcache codegen`) in, their generated `Data`
/// out, over the same fetch policies, cache and watchers as the untyped API. Each runs
/// with what its generated schema says (`Query.Schema`: key fields, field policies,
/// possible types) over what the transport knows (``knowledge(over:generated:)``).
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
/// try client.update(LocalTripsLocalCacheMutation()) { data in   // read, changed, written back; nothing sent
///     data.trips[0].name = "Faro"
/// }
/// ```
extension Client {
    /// Runs `query` as ``fetch(_:variables:policy:returnPartialData:optimistic:from:cause:onCacheResult:)``
    /// does (against `transport`, else the client's ``endpoint``), and decodes its data.
    /// With `returnPartialData`, an incomplete cache answer decodes when `Query.Data` allows
    /// a null in each field it misses, and otherwise has no data and its ``OperationResult/missing``.
    public func fetch<Query: GraphQLQuery>(_ query: Query, policy: FetchPolicy = .cacheFirst, returnPartialData: Bool = false,
                                           from transport: (any Transport)? = nil) async throws(ClientError) -> OperationResult<Query.Data> {
        let operation = try compiled(Query.self), coerced = try variables(of: query, for: operation, from: transport)
        return try OperationResult(try await fetch(operation, variables: coerced, policy: policy, returnPartialData: returnPartialData,
                                                   from: transport, generated: Query.Schema.self),
                                   variables: coerced)
    }

    /// Sends `mutation`; `optimistic` is the data it is expected to return, which the cache
    /// shows until the server answers (and takes back if it fails).
    public func perform<Mutation: GraphQLMutation>(_ mutation: Mutation, optimistic: Mutation.Data? = nil,
                                                   from transport: (any Transport)? = nil) async throws(ClientError) -> OperationResult<Mutation.Data> {
        var optimisticData: CacheObject?
        if let optimistic, case .object(let object) = CacheValue(optimistic.jsonValue) { optimisticData = object }
        let operation = try compiled(Mutation.self), coerced = try variables(of: mutation, for: operation, from: transport)
        return try OperationResult(try await fetch(operation, variables: coerced, policy: .networkOnly, optimistic: optimisticData,
                                                   from: transport, generated: Mutation.Schema.self),
                                   variables: coerced)
    }

    /// Watches `query`: an `AsyncSequence` of its data as the cache changes, each with its
    /// cause (``TypedWatch``); `refetchPolicy` says what a change from elsewhere does
    /// (``watch(_:variables:policy:refetchPolicy:returnPartialData:from:onEvent:)``).
    public func watch<Query: GraphQLQuery>(_ query: Query, policy: FetchPolicy = .cacheFirst, refetchPolicy: FetchPolicy? = nil,
                                           returnPartialData: Bool = false,
                                           from transport: (any Transport)? = nil) throws(ClientError) -> TypedWatch<Query> {
        let (updates, continuation) = AsyncStream<WatchUpdate<Query.Data>>.makeStream()
        let watch = try watch(compiled(Query.self), variables: variables(of: query), policy: policy, refetchPolicy: refetchPolicy,
                              returnPartialData: returnPartialData, from: transport,
                              generated: Query.Schema.self) { watch, event in
            if let update = WatchUpdate<Query.Data>(event, variables: watch.variables) { continuation.yield(update) }
        }
        return TypedWatch(watch: watch, updates: updates, continuation: continuation)
    }

    /// Applies a local cache mutation, as Apollo iOS's `ReadWriteTransaction.update(_:_:)`
    /// does: reads its data from the cache, lets `body` change it, and writes it back, in
    /// one commit that watchers hear as any write (cause `write`); nothing is sent. The
    /// cache is read and written with the knowledge of `transport`, else the ``endpoint``.
    ///
    /// A field the cache lacks reads as nil where its type is optional, and stays absent
    /// unless `body` sets it; a required one is ``ClientError/cacheMiss(_:)`` naming the
    /// missing record fields. When `body` throws, or anything fails, nothing is written.
    ///
    /// ```swift
    /// try client.update(LocalTripsLocalCacheMutation()) { data in
    ///     data.trips[0].name = "Faro"
    ///     data.trips.removeLast()      // QUERY_ROOT.trips(first:5) no longer lists it
    /// }
    /// ```
    public func update<Mutation: LocalCacheMutation>(_ mutation: Mutation, from transport: (any Transport)? = nil,
                                                     _ body: (inout Mutation.Data) throws -> Void) throws {
        let operation = try compiled(Mutation.self)
        let transport = transport ?? endpoint
        let variables = try coerceVariables(variables(of: mutation), for: operation, from: transport)
        let schema = transport?.schemaKnowledge
        do {
            try cache.transaction { cache in
                let read = try cache.read(operation, variables: variables, schema: schema, partial: true)
                let found = read.data ?? .object(CacheObject())
                var data: Mutation.Data
                do throws(ResponseDecodingError) { data = try Mutation.Data(response: found) } catch {
                    throw read.complete ? ClientError.decoding(error)
                                        : .cacheMiss(ClientResult(operation: operation, source: .cache, data: nil, missing: read.missing))
                }
                try body(&data)
                // Partial: a field the data leaves out (absent from the cache and still nil,
                // or only in a type case's copy) keeps what the cache has.
                guard case .object(let written) = CacheValue(data.jsonValue).leavingOutNulls(absentFrom: found) else { return }
                try cache.write(data: written, for: operation, variables: variables, schema: schema, partial: true)
            }
        } catch let error as CacheError {
            throw ClientError.cache(error)
        }
    }

    /// Writes `data` as `mutation`'s data without reading first, as Apollo iOS's
    /// `ReadWriteTransaction.write(data:for:)` does: for data the cache does not hold yet,
    /// built with the generated initializers. One commit, nothing sent; data that does not
    /// fit the selection is refused as ``write(data:for:variables:from:)`` refuses it.
    ///
    /// ```swift
    /// try client.write(data: .init(allAnimals: []), for: AllAnimalsLocalCacheMutation())
    /// ```
    public func write<Mutation: LocalCacheMutation>(data: Mutation.Data, for mutation: Mutation,
                                                    from transport: (any Transport)? = nil) throws(ClientError) {
        guard case .object(let object) = CacheValue(data.jsonValue) else { return }
        try write(data: object, for: try compiled(Mutation.self), variables: variables(of: mutation), from: transport)
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

extension CacheValue {
    /// This value (data to write) without the nulls whose members `read` (the data as
    /// read) does not have: a field the cache lacked that nobody set stays absent, rather
    /// than becoming a null the cache never held. Objects are compared member by member,
    /// lists item by item.
    func leavingOutNulls(absentFrom read: CacheValue) -> CacheValue {
        switch (self, read) {
        case (.object(let object), .object(let readObject)):
            return .object(CacheObject(members: object.members.compactMap { key, value -> (String, CacheValue)? in
                guard let readValue = readObject[key] else { return value == .null ? nil : (key, value) }
                return (key, value.leavingOutNulls(absentFrom: readValue))
            }))
        case (.list(let items), .list(let readItems)):
            return .list(items.enumerated().map { index, item in index < readItems.count ? item.leavingOutNulls(absentFrom: readItems[index]) : item })
        default:
            return self
        }
    }
}
