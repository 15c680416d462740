import Foundation

/// Where `swift build` put what the tests run besides themselves: the `normcache`
/// executable and the plugin libraries, in the folder of the tests' own code. On Linux
/// that code is the test runner (`/proc/self/exe`); on Darwin the runner is a helper of
/// Xcode's or SwiftPM's, which loads the tests' bundle (`normcachePackageTests.xctest`)
/// from that folder.
///
/// ```swift
/// let normcache = BuildProducts.directory + "/normcache"
/// ```
package enum BuildProducts {
    package static let directory: String = {
        #if os(Linux)
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().path
        #else
        Bundle(for: InTheTestBundle.self).bundleURL.deletingLastPathComponent().path
        #endif
    }()

    #if !os(Linux)
    /// A class of the tests' bundle, which `Bundle(for:)` finds it by.
    private final class InTheTestBundle {}
    #endif
}
