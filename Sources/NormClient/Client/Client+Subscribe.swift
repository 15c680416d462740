import NormAPI
import NormCache

/// Subscriptions: each event the server sends is written into the cache under
/// `SUBSCRIPTION_ROOT` (and the entities it holds) in one commit with cause `subscription`,
/// so watchers of those records emit, and then handed to the caller.
///
/// ```swift
/// client.subscriptionEndpoint = WebSocketTransport(url: webSocketURL, connector: URLSessionWebSocketConnector())
/// let renamed = try client.cache.operation("subscription Renamed { tripRenamed { id name } }")
/// for try await update in try await client.subscribe(renamed) {
///     if case .result(let result) = update { print(result.data ?? .null) }
/// }
/// for try await event in try await client.subscribe(TripRenamedSubscription()) {   // typed
///     print(event.data?.tripRenamed.name ?? "")
/// }
/// ```
extension Client {
    /// Starts subscription `operation` over `transport`, else ``subscriptionEndpoint``, and
    /// returns once the server has acknowledged the connection. Its ``ClientSubscription``
    /// yields each event once it is written (a result, whose errors are the event's), and
    /// the transport's notices of a dropped connection; it ends when the server completes
    /// the subscription, throws when the server or the connection ends it with an error,
    /// and is stopped at the server by ``ClientSubscription/cancel()``, or once it and its
    /// iterators are released.
    public func subscribe(_ operation: CompiledOperation, variables: CacheObject = CacheObject(),
                          over transport: (any SubscriptionTransport)? = nil) async throws(ClientError) -> ClientSubscription {
        try await subscribe(operation, variables: variables, over: transport, generated: nil)
    }

    /// Starts the generated `subscription`, as ``subscribe(_:variables:over:)``; its events
    /// decode to `Subscription.Data` (the transport's notices of a dropped connection are
    /// not among them).
    public func subscribe<Subscription: GraphQLSubscription>(_ subscription: Subscription, over transport: (any SubscriptionTransport)? = nil)
        async throws(ClientError) -> AsyncThrowingStream<OperationResult<Subscription.Data>, any Error> {
        let operation = try compiled(Subscription.self)
        let variables = if case .object(let given) = CacheValue(subscription.__variables) { given } else { CacheObject() }
        let coerced = try coerceVariables(variables, for: operation, from: nil)
        let updates = try await subscribe(operation, variables: coerced, over: transport, generated: Subscription.Schema.self)
        let (results, continuation) = AsyncThrowingStream<OperationResult<Subscription.Data>, any Error>.makeStream()
        let forwarding = Task {
            do {
                for try await update in updates {
                    if case .result(let result) = update { continuation.yield(try OperationResult(result, variables: coerced)) }
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in
            forwarding.cancel()
            updates.cancel()
        }
        return results
    }

    private func subscribe(_ operation: CompiledOperation, variables: CacheObject, over transport: (any SubscriptionTransport)?,
                           generated: (any SchemaMetadata.Type)?) async throws(ClientError) -> ClientSubscription {
        guard operation.kind == .subscription else {
            throw .invalid("\(operation.name ?? "the operation") is a \(operation.kind.rawValue), not a subscription (.subscribe runs subscriptions)")
        }
        guard let transport = transport ?? subscriptionEndpoint else {
            throw .noEndpoint("no endpoint for subscriptions: set the client's subscriptionEndpoint (a WebSocketTransport) or name one")
        }
        // A transport that is an endpoint too (a plugin's, HTTP's multipart) knows its own schema.
        let schema = knowledge(over: transport as? any Transport ?? endpoint, generated: generated)
        let coerced = try coerceVariables(variables, for: operation, schema: schema)
        let request = GraphQLRequest(document: operation.networkDocument, operationName: operation.name, variables: coerced)
        let events: AsyncThrowingStream<SubscriptionEvent, any Error>
        do { events = try await network.subscribe(request, over: transport) } catch { throw .transport(error) }
        let (updates, continuation) = AsyncThrowingStream<SubscriptionUpdate, any Error>.makeStream()
        let writing = Task {
            do {
                for try await event in events {
                    switch event {
                    case .next(let response):
                        do throws(CacheError) {
                            try response.write(into: cache, for: operation, variables: coerced, schema: schema, cause: .subscription)
                        } catch {
                            throw ClientError.cache(error)
                        }
                        continuation.yield(.result(ClientResult(operation: operation, response: response)))
                    case .interrupted(let notice): continuation.yield(.interrupted(notice))
                    case .resumed(let notice): continuation.yield(.resumed(notice))
                    }
                }
                continuation.finish()
            } catch let error as TransportError {
                continuation.finish(throwing: ClientError.transport(error))
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in writing.cancel() }
        return ClientSubscription(operation: operation, variables: coerced, updates: updates, writing: writing)
    }
}
