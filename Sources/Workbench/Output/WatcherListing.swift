import NormCache
import NormClient

/// One active watcher as `.watches` lists it, taken when the command ran (a watcher's
/// emission count goes on changing after).
///
/// ```swift
/// WatcherListing(watch)   // id 1, TripList, {}, cache-first, refetch cache-first, 2 emissions, trips
/// ```
struct WatcherListing {
    let id: Int
    let operation: String?
    let variables: CacheObject
    let policy: FetchPolicy
    /// What a change from elsewhere does (`.watch … refetch=POLICY`).
    let refetchPolicy: FetchPolicy
    let emissions: Int
    /// The endpoint's name, `none` without one.
    let endpoint: String

    init(_ watch: ClientWatch) {
        id = watch.id
        operation = watch.operation.name
        variables = watch.variables
        policy = watch.policy
        refetchPolicy = watch.refetchPolicy
        emissions = watch.emissions
        endpoint = watch.transport?.name ?? "none"
    }
}
