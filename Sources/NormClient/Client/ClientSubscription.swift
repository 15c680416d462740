import NormCache

/// A running subscription (``Client/subscribe(_:variables:over:)``): an `AsyncSequence` of
/// its events, each already written into the cache, and the transport's notices. It runs
/// until the server ends it, ``cancel()`` stops it, or the subscription and its iterators
/// are released; leaving a `for` loop over it alone does not stop it.
///
/// ```swift
/// let subscription = try await client.subscribe(renamed)
/// for try await update in subscription {
///     switch update {
///     case .result(let result): print(result.data ?? .null)
///     case .interrupted(let notice), .resumed(let notice): print(notice)
///     }
/// }
/// subscription.cancel()   // stopped at the server
/// ```
public final class ClientSubscription: AsyncSequence, Sendable {
    public typealias Element = SubscriptionUpdate
    public let operation: CompiledOperation
    /// The variables it was started with, coerced to their declared types.
    public let variables: CacheObject
    private let updates: AsyncThrowingStream<SubscriptionUpdate, any Error>
    private let writing: Task<Void, Never>

    init(operation: CompiledOperation, variables: CacheObject, updates: AsyncThrowingStream<SubscriptionUpdate, any Error>, writing: Task<Void, Never>) {
        self.operation = operation
        self.variables = variables
        self.updates = updates
        self.writing = writing
    }

    /// Stops the subscription at the server; the sequence ends.
    public func cancel() { writing.cancel() }

    public func makeAsyncIterator() -> AsyncThrowingStream<SubscriptionUpdate, any Error>.Iterator { updates.makeAsyncIterator() }
}

/// What a ``ClientSubscription`` yields.
///
/// ```swift
/// if case .result(let result) = update { result.data?["tripRenamed"]?["name"] }
/// ```
public enum SubscriptionUpdate: Sendable {
    /// An event, written into the cache: its data and errors.
    case result(ClientResult)
    /// The connection dropped; the transport reconnects, as the notice says.
    case interrupted(String)
    /// Reconnected and subscribed again.
    case resumed(String)
}
