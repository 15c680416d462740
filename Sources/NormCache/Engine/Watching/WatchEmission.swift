/// One emission of a watcher: the current read, why it happened, and which record
/// fields changed to cause it.
public struct WatchEmission: Sendable, Equatable {
    public let watcher: Int
    /// 1 for the first emission.
    public let number: Int
    public let cause: ChangeCause
    public let result: ReadResult
    /// Record-field keys (`Trip:2.name`) whose change caused this emission, sorted.
    public let changed: [String]
}
