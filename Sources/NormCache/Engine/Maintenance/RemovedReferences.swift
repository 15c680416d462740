/// What ``NormalizedCache/removeDanglingReferences()`` removed: the record fields that
/// held references to records the cache no longer has, and the records that were left
/// empty and went with them.
///
/// ```swift
/// try cache.evict("User:0")                 // Repository:0.stargazers still lists User:0
/// let removed = try cache.removeDanglingReferences()
/// removed.fields                            // ["Repository:0.stargazers"]
/// removed.records                           // []
/// ```
public struct RemovedReferences: Equatable, Sendable {
    /// Record-field keys (`Repository:0.stargazers`) whose references to absent records
    /// were removed: a list that lost items, or a field that went, sorted.
    public let fields: [String]
    /// Keys of the records removed because nothing but their `__typename`, or nothing at
    /// all, was left of them, sorted.
    public let records: [String]

    public init(fields: [String] = [], records: [String] = []) {
        self.fields = fields
        self.records = records
    }

    /// Whether nothing was removed.
    public var isEmpty: Bool { fields.isEmpty && records.isEmpty }
}
