import Foundation
import NormCache

/// Every emission of every watcher in the session, in order, for `.expect watch` and
/// `.expect emissions`; written from the tasks that deliver emissions.
///
/// ```swift
/// log.append(emission, of: 1)
/// log.emissions(of: 1)?.last?.cause   // .write
/// ```
final class WatchLog: @unchecked Sendable {
    private let lock = NSLock()
    private var emissions: [Int: [WatchEmission]] = [:]

    func append(_ emission: WatchEmission, of watcher: Int) {
        lock.withLock { emissions[watcher, default: []].append(emission) }
    }

    /// nil for a watcher that has not emitted.
    func emissions(of watcher: Int) -> [WatchEmission]? { lock.withLock { emissions[watcher] } }
}
