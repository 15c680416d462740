/// One emission of a watcher: the current read, why it happened, and which record
/// fields changed to cause it.
///
/// ```swift
/// try cache.write(record: "Trip:1", fields: ["name": "Porto"])
/// // emission.number 2, emission.cause .write, emission.changed ["Trip:1.name"]
/// ```
public struct WatchEmission: Sendable, Equatable {
    public let watcher: Int
    /// 1 for the first emission.
    public let number: Int
    public let cause: ChangeCause
    public let result: ReadResult
    /// Record-field keys (`Trip:2.name`) whose change caused this emission, sorted.
    public let changed: [String]
    /// The number of the commit it followed (for a first read or new variables, the last
    /// commit before it): with the cache's ``NormalizedCache/commitCount``, what tells a
    /// watcher's own write from one made elsewhere.
    public let commit: Int

    /// The same emission with another read of the same moment (a partial read that fills
    /// its holes, for a watcher that returns partial data).
    package func replacing(result: ReadResult) -> WatchEmission {
        WatchEmission(watcher: watcher, number: number, cause: cause, result: result, changed: changed, commit: commit)
    }
}
