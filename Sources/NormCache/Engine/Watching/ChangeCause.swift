/// Why records changed, and so why a watcher emits.
///
/// ```swift
/// try cache.evict("Trip:2")   // watchers that read Trip:2 emit with cause .evict
/// ```
public enum ChangeCause: String, Sendable, Equatable {
    case initial, write, refetch, evict, optimistic, rollback, gc, clear
    /// The next page of a paginated field, merged into it (`.more`, `Client.nextPage(of:)`).
    case page
    /// Another process committed to the store the cache is over (a followed cache file:
    /// `normcache inspect --follow`), and the records it changed were read again
    /// (``NormalizedCache/reload(_:file:)``); nothing is written back.
    case external
    /// An event of a GraphQL subscription, written under `SUBSCRIPTION_ROOT` as it arrived
    /// (``Client/subscribe(_:variables:over:)``, `.subscribe`).
    case subscription
}
