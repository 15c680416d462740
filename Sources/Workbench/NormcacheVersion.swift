/// normcache's version, kept here alone: `normcache --version`, `.version`, the REPL's
/// banner and `normcache bench`'s start-up figure all read it, and `make test-cli` checks
/// that CHANGELOG.md's newest entry names it.
///
/// ```swift
/// print("normcache \(NormcacheVersion.current)")   // normcache 0.2.0
/// ```
package enum NormcacheVersion {
    package static let current = "0.2.0"
}
