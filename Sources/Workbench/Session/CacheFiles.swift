/// Where the app keeps files: the cache directory of `--cache-dir`, if any. Services find
/// it in the environment.
///
/// ```swift
/// let files = try environment.get(CacheFiles.self)
/// files.directory   // "/tmp/caches", or nil for the in-memory default
/// ```
public struct CacheFiles: Sendable {
    public let directory: String?
}
