/// Where the app keeps files: the cache directory of `--cache-dir`, if any. Services find
/// it in the environment.
///
/// ```swift
/// let files = try environment.get(CacheFiles.self)
/// files.directory   // "/tmp/caches", or nil for the in-memory default
/// ```
package struct CacheFiles: Sendable {
    package let directory: String?
}
