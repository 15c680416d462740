import CCore
import Foundation

/// Every operation compiled in this process, by its document's XXH3 hash: a document is
/// compiled once however many caches use it (a test suite or a benchmark makes many
/// caches), and an ``Operation`` stays alive for the process, so each cache can key what
/// it derives from one (its field ids) by the operation's identity.
///
/// ```swift
/// let a = try CompiledOperations.operation("{ hero { name } }", name: nil)
/// let b = try CompiledOperations.operation("{ hero { name } }", name: nil)
/// a === b   // true: compiled once
/// ```
enum CompiledOperations {
    /// Plans by document hash, each under the name it was asked for (nil: the document's
    /// only operation), so a document of several operations asked for without a name
    /// still fails however often its named ones were compiled. Guarded by `lock`: an
    /// `NSLock`, not a `Mutex`, because ThreadSanitizer (`make tsan`) understands pthread
    /// locks but not Mutex's futex.
    nonisolated(unsafe) private static var compiled: [UInt64: [Entry]] = [:]
    private typealias Entry = (name: String?, operation: Operation)
    private static let lock = NSLock()

    /// The compiled plan of `document` (its operation `name` if it holds several).
    static func operation(_ document: String, name: String?) throws(OperationError) -> Operation {
        let hash = document.withUTF8Bytes { nc_hash64($0, $1) }
        // Asked for by name, the document's only operation compiled without one serves too.
        func cached(_ operations: [UInt64: [Entry]]) -> Operation? {
            operations[hash]?.first {
                ($0.name == name || (name != nil && $0.operation.name == name)) && $0.operation.source == document
            }?.operation
        }
        if let operation = lock.withLock({ cached(compiled) }) { return operation }
        let operation = try OperationCompiler.compile(document, name: name)
        return lock.withLock {
            if let earlier = cached(compiled) { return earlier }  // compiled meanwhile by another thread
            compiled[hash, default: []].append((name, operation))
            return operation
        }
    }
}
