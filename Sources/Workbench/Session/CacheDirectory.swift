import Foundation

/// The `--cache-dir` directory, made when it is missing: it and each missing parent are
/// created with mode 0700 (owner only), since it holds the users' cached data. A
/// directory that exists is used as it is, its mode untouched. Only a directory that
/// cannot be made is refused, with the reason.
///
/// ```swift
/// try CacheDirectory.make("/tmp/new/caches")   // /tmp/new and /tmp/new/caches, both 0700
/// try CacheDirectory.make("/etc/hosts/caches") // throws: /etc/hosts is a file, not a directory
/// ```
enum CacheDirectory {
    static func make(_ path: String) throws(CommandError) {
        guard !path.isEmpty else { throw CommandError("--cache-dir is empty: name a directory") }
        do { try makeMissing(path) } catch {
            throw CommandError("cannot create the cache directory \(path): \(error.message)")
        }
    }

    /// Makes `path` after its missing parents; a path that exists must be a directory.
    private static func makeMissing(_ path: String) throws(CommandError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw CommandError("\(path) is a file, not a directory") }
            return
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path { try makeMissing(parent) }
        guard mkdir(path, 0o700) == 0 else {
            let reason = errno
            // Made meanwhile by another process: fine, if it is a directory.
            if reason == EEXIST, FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue { return }
            throw CommandError(reason == EEXIST ? "\(path) exists but is not a directory" : "\(path): \(String(cString: strerror(reason)))")
        }
        chmod(path, 0o700)   // exactly 0700, whatever the umask
    }
}
