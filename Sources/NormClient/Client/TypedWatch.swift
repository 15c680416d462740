import NormAPI
import NormCache

/// A watched generated query: an `AsyncSequence` of ``WatchUpdate``s, one per emission of
/// the ``ClientWatch`` underneath (its data decoded, with its cause), and one for each
/// fetch that failed or read that came back incomplete. Ending the loop, or ``cancel()``,
/// stops the watcher. Updates are buffered until read.
///
/// ```swift
/// let watch = try client.watch(TripDetailQuery(id: "2"), from: trips)
/// for await update in watch {
///     guard let trip = update.data?.trip else { continue }
///     print(update.cause, trip.name)        // initial Porto, then write Faro, ...
/// }
/// ```
public final class TypedWatch<Query: GraphQLQuery>: AsyncSequence, Sendable {
    public typealias Element = WatchUpdate<Query.Data>

    /// The untyped watcher: its id, variables, `refetch()` and `setVariables(_:)`.
    public let watch: ClientWatch
    private let updates: AsyncStream<Element>
    private let continuation: AsyncStream<Element>.Continuation

    init(watch: ClientWatch, updates: AsyncStream<Element>, continuation: AsyncStream<Element>.Continuation) {
        self.watch = watch
        self.updates = updates
        self.continuation = continuation
        continuation.onTermination = { _ in watch.cancel() }
    }

    /// Stops the watcher and ends the sequence.
    public func cancel() {
        watch.cancel()
        continuation.finish()
    }

    public func makeAsyncIterator() -> AsyncStream<Element>.Iterator { updates.makeAsyncIterator() }
}

/// One thing a typed watcher reports: new data with its cause, a read the cache could not
/// complete (a cache-only watcher keeps its last data), or a failed fetch.
///
/// ```swift
/// switch update {
/// case .data(let data, let cause, _): show(data, because: cause)
/// case .incomplete(let missing): log("cannot answer: \(missing)")
/// case .failure(let error): log(error)
/// }
/// ```
public enum WatchUpdate<Data: SelectionSet>: Sendable {
    /// An emission: the data, why it changed, and the record fields whose change caused it.
    case data(Data, cause: ChangeCause, changed: [String])
    /// The cache cannot answer any more; these record fields are missing.
    case incomplete(missing: [String])
    /// A fetch failed, or the data did not fit the generated type (``ClientError/decoding(_:)``).
    case failure(ClientError)

    /// The data of a `.data` update.
    public var data: Data? {
        if case .data(let data, _, _) = self { return data }
        return nil
    }

    /// The cause of a `.data` update.
    public var cause: ChangeCause? {
        if case .data(_, let cause, _) = self { return cause }
        return nil
    }

    /// The update an app sees for `event` of a watcher with `variables` (which its data's
    /// `@include` / `@skip` are decided by); nil for a change its watcher does not hear
    /// (``ClientWatch/Event/unheard(_:)``).
    init?(_ event: ClientWatch.Event, variables: CacheObject) {
        switch event {
        case .emission(_, let emission):
            guard let value = emission.result.data else {
                self = .incomplete(missing: emission.result.missing)
                return
            }
            do { self = .data(try Data(response: value, under: variables), cause: emission.cause, changed: emission.changed) } catch {
                // Partial data whose nulls the generated types do not allow: what is missing, as without it.
                self = emission.result.complete ? .failure(.decoding(error)) : .incomplete(missing: emission.result.missing)
            }
        case .incomplete(let emission): self = .incomplete(missing: emission.result.missing)
        case .failure(let error): self = .failure(error)
        case .unheard: return nil
        }
    }
}
