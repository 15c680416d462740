/// How much a cache holds and how its reads went, for `.stats` and monitoring.
///
/// ```swift
/// let statistics = cache.statistics
/// statistics.records    // 12
/// statistics.hits       // complete reads so far; misses are reads that found a field missing
/// statistics.recordKeys // 14: the records' keys and those references still name
/// ```
package struct CacheStatistics: Sendable, Equatable {
    /// Records visible (optimistic layers applied).
    package var records: Int
    /// Record fields visible.
    package var fields: Int
    package var watchers: Int
    /// Optimistic layers not yet committed or rolled back.
    package var layers: Int
    /// The bytes the visible records take as Apollo iOS stores them: each key, and each
    /// record's fields as JSON (references as `{"$reference":K}`).
    package var bytes: Int
    /// ``NormalizedCache/read(_:variables:partial:)`` calls that found every field.
    package var hits: Int
    /// ``NormalizedCache/read(_:variables:partial:)`` calls that found a field missing.
    package var misses: Int
    /// Record keys the engine holds interned: the records', and those that references,
    /// watchers or invalidations still name. ``NormalizedCache/gc(retaining:)`` gives the
    /// others back, so a long session's count follows what it keeps, not what it met.
    package var recordKeys: Int
    /// Field keys held interned (`name`, `trip(id:2)`); these stay for the session.
    package var fieldKeys: Int
    /// Changes the record history keeps, over all records (``NormalizedCache/historyLimit``).
    package var historyChanges: Int
    /// The bytes those changes take, roughly: their entries, not the values they share with the records.
    package var historyBytes: Int
}
