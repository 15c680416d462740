/// How much a cache holds and how its reads went, for `.stats` and monitoring.
///
/// ```swift
/// let statistics = cache.statistics
/// statistics.records    // 12
/// statistics.hits       // complete reads so far; misses are reads that found a field missing
/// statistics.recordKeys // 14: the records' keys and those references still name
/// ```
public struct CacheStatistics: Sendable, Equatable {
    /// Records visible (optimistic layers applied).
    public var records: Int
    /// Record fields visible.
    public var fields: Int
    public var watchers: Int
    /// Optimistic layers not yet committed or rolled back.
    public var layers: Int
    /// The bytes the visible records take as Apollo iOS stores them: each key, and each
    /// record's fields as JSON (references as `{"$reference":K}`).
    public var bytes: Int
    /// ``NormalizedCache/read(_:variables:partial:)`` calls that found every field.
    public var hits: Int
    /// ``NormalizedCache/read(_:variables:partial:)`` calls that found a field missing.
    public var misses: Int
    /// Record keys the engine holds interned: the records', and those that references,
    /// watchers or invalidations still name. ``NormalizedCache/gc(retaining:)`` gives the
    /// others back, so a long session's count follows what it keeps, not what it met.
    public var recordKeys: Int
    /// Field keys held interned (`name`, `trip(id:2)`); these stay for the session.
    public var fieldKeys: Int
}
