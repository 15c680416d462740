import Foundation
#if canImport(MachO)
import MachO
#endif

/// Where the running executable is: its file, symbolic links resolved, and the folder that
/// holds it. The one place that asks the system: `/proc/self/exe` on Linux,
/// `_NSGetExecutablePath` on Darwin, either made real by `realpath`.
///
/// ```swift
/// ExecutableLocation.path        // "/opt/normcache/bin/normcache", though run as /usr/local/bin/normcache
/// ExecutableLocation.directory   // "/opt/normcache/bin"
/// ```
package enum ExecutableLocation {
    /// The executable's file, symbolic links resolved (`argv[0]`, made real, should the
    /// system not say).
    package static let path: String = realPath(systemPath() ?? CommandLine.arguments[0])

    /// The folder that holds the executable.
    package static var directory: String { (path as NSString).deletingLastPathComponent }

    /// The path the system gives for the executable, perhaps through symbolic links.
    private static func systemPath() -> String? {
        #if os(Linux)
        return "/proc/self/exe"
        #else
        var size: UInt32 = 0
        _ = _NSGetExecutablePath(nil, &size)   // -1, with the size it needs
        var buffer = [CChar](repeating: 0, count: Int(size))
        guard _NSGetExecutablePath(&buffer, &size) == 0 else { return nil }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        #endif
    }

    /// `path` with every symbolic link resolved, or as it is when it cannot be.
    private static func realPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
