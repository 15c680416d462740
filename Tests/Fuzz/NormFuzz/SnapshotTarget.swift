@testable import NormCache

extension FuzzTarget {
    /// Apollo Client `extract()` JSON restored into a cache. A snapshot it accepts must
    /// come back out of `extract()` as a snapshot that restores to the same records.
    static let snapshot = FuzzTarget(name: "snapshot", feeds: "Apollo Client extract() JSON: restored, extracted, restored again") { bytes in
        guard let snapshot = try? JSON.parse(bytes: bytes, references: .apolloClient) else { return }
        let cache = try! NormalizedCache()
        guard (try? cache.restore(snapshot)) != nil else { return }
        let extracted = cache.extract()
        let again = try! NormalizedCache()
        do { try again.restore(extracted) } catch {
            fatalError("extract() made a snapshot that restore() refuses (\(error)): \(JSON.string(extracted, references: .apolloClient))")
        }
        guard again.extract() == extracted else {
            fatalError("a snapshot did not restore to the records extracted: \(JSON.string(extracted, references: .apolloClient))")
        }
    }
}
