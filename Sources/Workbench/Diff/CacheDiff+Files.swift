import NormCache

extension CacheDiff {
    /// Runs `body` over a cache over the file at `path`, one side of a diff: opened
    /// read-only, as `normcache inspect` opens a file (never written, nothing made beside
    /// it), then checked with SQLite's integrity check whatever its size, since a diff
    /// reads every record anyway and a damaged key index would leave records out unseen.
    /// Returns what `body` returns and the warnings of the file (the damage the check
    /// found, rows skipped); throws, naming the file, for one that does not exist, is not
    /// SQLite or not an Apollo iOS cache, and, naming the record too, for a record that
    /// cannot be read.
    ///
    /// ```swift
    /// let (diff, warnings) = try CacheDiff.reading("device.sqlite", busyTimeout: 5000) { try CacheDiff(cache, $0) }
    /// ```
    static func reading<Result>(_ path: String, busyTimeout: Int,
                                _ body: (NormalizedCache) throws -> Result) throws -> (result: Result, warnings: [String]) {
        let (store, cache) = try CacheScope.cache(over: path, mode: .readOnly, busyTimeout: busyTimeout)
        defer { store.close() }
        try store.checkIntegrity()
        let result = try body(cache)
        return (result, store.warnings + cache.takeWarnings())
    }
}
