/// Whose answers the cache gives where Apollo iOS and Apollo Client answer differently.
///
/// Apollo iOS's are the default: normcache predicts what an iOS app sees. Each difference
/// is listed in docs/engine.md ("Apollo iOS and Apollo Client"); the engine's own rules
/// (a list's reference to a record that is gone, a key field the response lacks) and
/// NormClient's watchers read it from one place, ``NormalizedCache/semantics``.
///
/// ```swift
/// let cache = NormalizedCache()
/// try cache.evict("Trip:2")                   // TripList's trips hold a reference to Trip:2
/// try cache.read(tripList).missing            // ["Trip:2.__typename", "Trip:2.id", "Trip:2.name"]: a miss
/// cache.semantics = .apolloClient
/// try cache.read(tripList).complete           // true: the list leaves Trip:2 out
/// Semantics(rawValue: "apollo-client")        // .apolloClient
/// ```
public enum Semantics: String, Sendable, CaseIterable {
    /// Apollo iOS 2.x's answers (the default).
    case apolloIOS = "apollo-ios"
    /// Apollo Client 3's and 4's answers (InMemoryCache, ObservableQuery).
    case apolloClient = "apollo-client"

    /// The name the workbench and the command line take: `apollo-ios`, `apollo-client`.
    public var name: String { rawValue }
}
