import Foundation

/// One change the record history kept (``NormalizedCache/history(of:field:last:)``): the
/// commit that made it (its number in the session, when, why and what started it) and
/// the field's value before and after, as reads see it (nil: absent).
///
/// ```swift
/// try cache.write(record: "Trip:1", fields: ["name": "Porto"])
/// let change = try cache.history(of: "Trip:1", field: "name")!.last!
/// change.cause    // .write
/// change.origin   // "write Trip:1"
/// change.new      // "Porto"
/// ```
package struct HistoryChange: Sendable, Equatable {
    package let commit: Int
    package let at: Date
    package let cause: ChangeCause
    package let origin: String?
    /// The field key (`name`, `trips(first:10)`).
    package let field: String
    package let old: CacheValue?
    package let new: CacheValue?
}
