import NormCache

/// `.follow on|off` and `normcache inspect --follow`: following the cache file the session
/// is over while another process (the app) writes it (``Following``).
extension Session {
    /// Starts following the file the cache is over (already following: nothing to do),
    /// with a first look that reloads what the cache read and the file no longer holds as
    /// it was (written while nothing followed it). Refused over memory, and over a user's store under `--cache-dir`, which this
    /// session writes and no other process should: a file opened with `normcache inspect`
    /// (read-only) or `.open` is followed.
    func startFollowing() throws {
        if following?.isActive == true { return }
        guard let store = scope.store else {
            throw CommandError("the cache is in memory: there is no file to follow (normcache inspect --follow FILE, or .open FILE first)")
        }
        if let user = scope.user {
            throw CommandError("the cache is \(user)'s store \(store.path) under --cache-dir, which this session writes: "
                               + ".follow follows a file another process writes (normcache inspect --follow FILE, or .open FILE)")
        }
        following = try Following(cache: scope.cache, printer: printer)
    }

    /// Stops following, if it was.
    func stopFollowing() {
        following?.stop()
        following = nil
    }

    /// `.follow` alone: the file followed, if any.
    func showFollowing() {
        printer.emit(.following(file: following.flatMap { $0.isActive ? $0.file : nil }))
    }
}
