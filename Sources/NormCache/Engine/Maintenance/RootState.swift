/// What the engine knows of roots beyond its records, kept as Apollo Client keeps it:
/// the records an Apollo Client snapshot retained (its `__META.extraRootIds`, the ids
/// `retain()` kept), which garbage collection keeps with everything they reach; and the
/// root records evicted down to no field, which the record table no longer holds but
/// Apollo Client keeps as `{"__typename":"Query"}`, and so ``NormalizedCache/extract()`` does.
///
/// ```swift
/// try cache.restore(try JSON.parse(#"{"Book:1":{"title":"A"},"__META":{"extraRootIds":["Book:1"]}}"#))
/// try cache.gc()              // [] — Book:1 is retained
/// cache.extract()["__META"]   // {"extraRootIds":["Book:1"]}
/// ```
struct RootState: Equatable {
    /// Record keys retained as roots of garbage collection, besides the three roots.
    var retained: Set<String> = []
    /// Ids of root records (`QUERY_ROOT`, …) whose last field was evicted.
    var emptied: Set<UInt32> = []
}
