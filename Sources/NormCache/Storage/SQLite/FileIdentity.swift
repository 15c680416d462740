import Foundation

/// Which file a path names: its device and inode (`stat`'s `st_dev`, `st_ino`). A file
/// written in place keeps them; one deleted, or replaced by another moved or copied to its
/// path, does not. A follower compares them on every look (``StoreFollower``).
///
/// ```swift
/// let before = FileIdentity.of("/tmp/app.sqlite")
/// // mv new.sqlite /tmp/app.sqlite
/// FileIdentity.of("/tmp/app.sqlite") == before   // false: another inode
/// ```
struct FileIdentity: Equatable {
    let device: UInt64
    let inode: UInt64

    /// The identity of the file at `path`; nil when there is none.
    static func of(_ path: String) -> FileIdentity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileIdentity(device: UInt64(truncatingIfNeeded: info.st_dev), inode: UInt64(truncatingIfNeeded: info.st_ino))
    }
}
