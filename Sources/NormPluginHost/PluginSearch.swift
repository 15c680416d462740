import Foundation

/// Where the host looks for plugins, in order: each directory of `NORMCACHE_PLUGINS`
/// (colon-separated, as `PATH`), the executable's own directory (where `swift build` puts
/// the bundled plugins), and `../lib/normcache/plugins` from it (where an installation
/// keeps them: PREFIX/bin/normcache, PREFIX/lib/normcache/plugins). A plugin there is a
/// file `libnormcache_NAME.so` (`.dylib` on Darwin); the first directory that holds one
/// of a NAME wins, so `NORMCACHE_PLUGINS` overrides a bundled plugin, and a directory
/// named twice, or by two paths, is searched once.
///
/// ```swift
/// let search = PluginSearch(environment: ["NORMCACHE_PLUGINS": "/opt/plugins"], executableDirectory: "/usr/local/bin")
/// search.directories   // ["/opt/plugins", "/usr/local/bin", "/usr/local/lib/normcache/plugins"]
/// search.libraries().paths   // ["/usr/local/lib/normcache/plugins/libnormcache_feed.so", "/opt/plugins/libnormcache_trips.so"]
/// ```
package struct PluginSearch: Sendable {
    /// The environment variable that names directories to search first.
    package static let variable = "NORMCACHE_PLUGINS"
    /// Where an installation keeps its plugins, from the executable's directory.
    package static let installedPath = "../lib/normcache/plugins"

    /// The directories searched, in order, each once.
    package let directories: [String]
    /// The directories `NORMCACHE_PLUGINS` names: each must be there (the others may not).
    private let named: Set<String>

    package init(environment: [String: String] = ProcessInfo.processInfo.environment,
                 executableDirectory: String = ExecutableLocation.directory) {
        let named = (environment[Self.variable] ?? "").split(separator: ":").map(String.init)
        let installed = URL(fileURLWithPath: executableDirectory).appendingPathComponent(Self.installedPath).standardized.path
        var seen = Set<String>()
        directories = (named + [executableDirectory, installed]).filter { seen.insert(Self.identity(of: $0)).inserted }
        self.named = Set(named)
    }

    /// The plugin libraries found, ordered by file name: for each name, the first
    /// directory's; and why a directory of `NORMCACHE_PLUGINS` could not be listed.
    package func libraries() -> (paths: [String], failures: [PluginLoadError]) {
        var found: [String: String] = [:]   // file name → its path in the first directory that holds it
        var failures: [PluginLoadError] = []
        for directory in directories {
            do {
                for name in try PluginHost.libraryNames(in: directory) where found[name] == nil { found[name] = directory + "/" + name }
            } catch {
                if named.contains(directory) { failures.append(error) }
            }
        }
        return (found.keys.sorted().map { found[$0]! }, failures)
    }

    /// What tells two names of one directory apart from two directories: its absolute
    /// path with symbolic links and `..` resolved.
    private static func identity(of directory: String) -> String {
        URL(fileURLWithPath: directory).resolvingSymlinksInPath().path
    }
}
