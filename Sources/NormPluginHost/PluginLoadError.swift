/// Why a plugin did not load; the message names the file and what was wrong with it, and
/// the session goes on without the plugin.
///
/// ```swift
/// do { try host.load("/tmp/libnope.so") } catch { print(error) }
/// // plugin /tmp/libnope.so: no such file
/// ```
package struct PluginLoadError: Error, Equatable, CustomStringConvertible {
    package enum Reason: Error, Equatable, CustomStringConvertible {
        case missing
        /// The path names something other than a regular file: `a directory`, `a socket`, ….
        case notARegularFile(String)
        /// The path given as the plugin directory is not a directory.
        case notADirectory
        /// The file is there but cannot be read (the system's reason).
        case unreadable(String)
        /// The file is not this platform's object file: not an ELF object on Linux, not a
        /// Mach-O object on Darwin (dlopen's reason).
        case notSharedLibrary(String)
        /// An object file that dlopen refused: an undefined symbol, a missing dependency,
        /// another architecture (dlopen's reason).
        case libraryRefused(String)
        case noEntryPoint
        case abiMismatch(plugin: UInt32, host: UInt32)
        case alreadyLoaded(name: String, path: String)
        case initFailed(String)
        case worldWritable
        case badManifest(String)

        package var description: String {
            switch self {
            case .missing: "no such file"
            case .notARegularFile(let kind): "\(kind), not a plugin library"
            case .notADirectory: "not a directory"
            case .unreadable(let reason): "cannot be read (\(reason))"
            case .notSharedLibrary(let detail): "not a shared library: not \(PluginHost.objectKind) (\(detail))"
            case .libraryRefused(let detail): "a shared library that cannot be loaded: \(detail)"
            case .noEntryPoint: "not a normcache plugin: it does not export nc_plugin_init"
            case .abiMismatch(let plugin, let host):
                "built for plugin ABI version \(plugin), but this normcache speaks version \(host); rebuild the plugin"
            case .alreadyLoaded(let name, let path): "a plugin named \"\(name)\" is loaded already (from \(path))"
            case .initFailed(let message): "nc_plugin_init failed: \(message)"
            case .worldWritable: "refused: the file is world-writable, so anyone could replace its code (chmod o-w it)"
            case .badManifest(let message): "bad manifest: \(message)"
            }
        }
    }

    package let path: String
    package let reason: Reason

    package var description: String { "plugin \(path): \(reason)" }
}
