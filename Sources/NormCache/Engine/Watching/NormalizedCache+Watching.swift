/// Watching: a watcher re-reads its operation after each commit that changes a field it
/// depends on, and emits when the result differs.
extension NormalizedCache {
    /// Starts a watcher: `onEmission` gets the current read at once, then a new read
    /// each time a change alters it; every read goes by `schema`, the knowledge of the
    /// endpoint the operation runs against. Keep the returned ``Watch``; cancel it to stop.
    public func watch(_ operation: CompiledOperation, variables: CacheObject = CacheObject(), schema: SchemaKnowledge? = nil,
                      partial: Bool = false, onEmission: @escaping @Sendable (WatchEmission) -> Void) throws(CacheError) -> Watch {
        let variables = try coerceVariables(variables, for: operation, schema: schema)
        return try emitting { () throws(CacheError) in
            let watcher = state.watchers.add(operation, variables: variables, schema: schema, partial: partial, callback: onEmission)
            let delivery: WatchDelivery?
            do throws(CacheError) { delivery = try state.watchers.refresh(watcher, cause: .initial, changed: [], commit: state.log.number, state: state) } catch {
                state.watchers.remove(watcher.id)
                throw error
            }
            return (Watch(id: watcher.id, cache: self), delivery.map { [$0] } ?? [])
        }
    }

    /// A watcher as an `AsyncStream` of emissions; the stream's end cancels the watcher.
    public func watch(_ operation: CompiledOperation, variables: CacheObject = CacheObject(), schema: SchemaKnowledge? = nil,
                      partial: Bool = false) throws(CacheError) -> (watch: Watch, emissions: AsyncStream<WatchEmission>) {
        let (stream, continuation) = AsyncStream<WatchEmission>.makeStream()
        let watch = try watch(operation, variables: variables, schema: schema, partial: partial) { continuation.yield($0) }
        continuation.onTermination = { [weak self] _ in self?.cancel(watch.id) }
        return (watch, stream)
    }

    /// Gives a watcher new variables and emits its new read (cause `refetch` until the
    /// client has fetched for them).
    public func setVariables(of watch: Watch, to variables: CacheObject) throws(CacheError) {
        try emitting { () throws(CacheError) in
            guard let watcher = state.watchers.watcher(watch.id) else { throw .invalid("no watcher \(watch.id)") }
            watcher.variables = try state.withSchema(watcher.schema) { () throws(CacheError) in
                try coerced(variables, for: watcher.operation)
            }
            watcher.lastComplete = []   // the old variables' reads say nothing of the new ones'
            let delivery = try state.watchers.refresh(watcher, cause: .refetch, changed: [], commit: state.log.number, state: state)
            return ((), delivery.map { [$0] } ?? [])
        }
    }

    /// Ids of the active watchers, and their emission counts.
    package var watchers: [(id: Int, operation: CompiledOperation, emissions: Int)] {
        locked { state.watchers.ids.compactMap { id in state.watchers.watcher(id).map { (id, $0.operation, $0.emissions) } } }
    }

    /// The keys of the records watcher `id` depends on (those its reads followed, whether
    /// the record exists or not), sorted; `nil` for no such watcher.
    ///
    /// ```swift
    /// cache.dependencies(ofWatcher: 1)   // ["QUERY_ROOT", "Trip:1", "Trip:2"]
    /// ```
    package func dependencies(ofWatcher id: Int) -> [String]? {
        locked {
            state.watchers.watcher(id).map { Set($0.dependencies.map(\.record)).map(state.keys.recordKey).sorted() }
        }
    }

    func cancel(_ id: Int) { locked { state.watchers.remove(id) } }
}
