import Foundation

/// The commit a kept change came from: its number in the session, when it ended, why
/// (``ChangeCause``) and what started it (`origin`: the operation and its variables,
/// `write Trip:1`, `evict Trip:1.name`, `gc`, an optimistic layer…). One per commit,
/// shared by every change it made.
///
/// ```swift
/// let stamp = HistoryStamp(number: 12, at: Date(), cause: .write, origin: .operation("TripList", variables: ["first": 10]))
/// stamp.origin?.description   // TripList {"first":10}
/// ```
final class HistoryStamp {
    /// What started a commit, kept as the engine was handed it and written out only when asked.
    enum Origin: CustomStringConvertible {
        /// A response to this operation, with its variables.
        case operation(String, variables: CacheObject)
        /// A call of the cache's own (`write`, `evict`, `gc`, `clear`, `import`, `layer`), on a record or layer.
        case command(String, target: String?)

        var description: String {
            switch self {
            case .operation(let name, let variables):
                variables.isEmpty ? name : name + " " + JSON.string(.object(variables), references: .apollo)
            case .command(let name, let target):
                target.map { name + " " + $0 } ?? name
            }
        }
    }

    let number: Int
    let at: Date
    let cause: ChangeCause
    let origin: Origin?

    init(number: Int, at: Date, cause: ChangeCause, origin: Origin?) {
        self.number = number
        self.at = at
        self.cause = cause
        self.origin = origin
    }
}
