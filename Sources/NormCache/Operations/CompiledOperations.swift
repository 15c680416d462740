import CCore
import Foundation

/// The operations compiled in this process, by their document's hash (`nc_hash64`): a document is
/// compiled once however many caches use it (a test suite or a benchmark makes many
/// caches), and the ``capacity`` most recently used stay compiled (``OperationMemo``), so
/// a long session that types many documents stays bounded. A cache keys what it derives
/// from an operation (its field ids) by the operation's identity, checked against a weak
/// reference, so a plan compiled again after it went is met as a new one.
///
/// ```swift
/// let a = try CompiledOperations.operation("{ hero { name } }", name: nil)
/// let b = try CompiledOperations.operation("{ hero { name } }", name: nil)
/// a === b   // true: compiled once
/// ```
enum CompiledOperations {
    /// How many plans stay compiled: more than an app's operations (Apollo iOS apps
    /// have tens to a few hundred), few enough that the plans of documents typed
    /// once in a long session are let go.
    static let capacity = 512

    /// Guarded by `lock`: an `NSLock`, not a `Mutex`, because ThreadSanitizer
    /// (`make tsan`) understands pthread locks but not Mutex's futex.
    nonisolated(unsafe) private static var memo = OperationMemo(capacity: capacity)
    private static let lock = NSLock()

    /// The compiled plan of `document` (its operation `name` if it holds several).
    static func operation(_ document: String, name: String?) throws(OperationError) -> CompiledOperation {
        let hash = document.withUTF8Bytes { nc_hash64($0, $1) }
        if let operation = lock.withLock({ memo.find(document, hash: hash, name: name) }) { return operation }
        let operation = try OperationCompiler.compile(document, name: name)
        return lock.withLock {
            // Compiled meanwhile by another thread: one plan serves both.
            if let earlier = memo.find(document, hash: hash, name: name) { return earlier }
            memo.keep(operation, hash: hash, name: name)
            return operation
        }
    }
}
