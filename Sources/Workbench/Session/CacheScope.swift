import Foundation
import NormCache

/// Where the session's cache lives: in memory (the default), over a cache file
/// (`.open`, `normcache inspect` read-only), or in a user's store `DIR/USER.sqlite`
/// under `--cache-dir` (`.login`, `.logout`). One user's records are never visible to
/// another: switching makes a new cache over the other user's store.
///
/// ```swift
/// let scope = try CacheScope(options: SessionOptions(cacheDirectory: "/tmp/caches", user: "alice"))
/// try scope.login("bob")     // /tmp/caches/bob.sqlite
/// try scope.logout()         // bob's file, -wal and -shm deleted; memory cleared
/// ```
final class CacheScope {
    private(set) var cache: NormalizedCache
    private(set) var store: SQLiteStore?
    private(set) var user: String?
    let options: SessionOptions

    /// Warnings from opening a store (rows skipped, references to missing records).
    private(set) var warnings: [String] = []

    init(options: SessionOptions) throws {
        self.options = options
        cache = NormalizedCache()
        if let file = options.inspectFile {
            try open(file, mode: .readOnly)
        } else if options.cacheDirectory != nil {
            try login(options.user ?? SessionOptions.defaultUser)
        } else if options.user != nil {
            throw CommandError("--user needs --cache-dir: without a cache directory the cache lives in memory only")
        } else {
            user = SessionOptions.defaultUser
        }
    }

    /// What the cache is over, for messages: `memory`, `alice (DIR/alice.sqlite)`.
    var description: String {
        guard let store else { return "memory" }
        let path = store.path + (store.mode == .readOnly ? ", read-only" : "")
        return user.map { "\($0) (\(path))" } ?? path
    }

    /// Puts the cache over the file at `path`, loading what it holds; no user is logged
    /// in over it (`.logout` never deletes a file `.open` named). On failure the current
    /// cache, store and user stay as they were.
    func open(_ path: String, mode: SQLiteStore.Mode) throws {
        let (store, cache) = try Self.cache(over: path, mode: mode, busyTimeout: options.busyTimeout)
        self.store?.close()
        self.store = store
        self.cache = cache
        user = nil
        let unchecked = mode == .readOnly ? Self.checkAtOpen(store) : nil
        warnings = store.warnings + [unchecked].compactMap { $0 } + cache.takeWarnings()
    }

    /// A cache over the file at `path` and the store under it, which is closed again when
    /// the cache cannot open over it: ``open(_:mode:)``'s, and each side of a diff's
    /// (``CacheDiff/reading(_:busyTimeout:_:)``).
    static func cache(over path: String, mode: SQLiteStore.Mode, busyTimeout: Int) throws -> (store: SQLiteStore, cache: NormalizedCache) {
        let store = try SQLiteStore(path: path, mode: mode, busyTimeout: busyTimeout)
        do { return (store, try NormalizedCache(store: store)) } catch {
            store.close()
            throw error
        }
    }

    /// The most a file inspected read-only may hold for `PRAGMA integrity_check` to run
    /// when it opens: the check reads every page (tens of milliseconds for a device's cache
    /// of a few megabytes, seconds for a million records), and opening reads records lazily.
    static let checkedAtOpen: UInt64 = 64 << 20

    /// Runs the integrity check over a file inspected read-only when it is small enough (a
    /// failure lands in the store's warnings); for a larger one, the warning that says how to ask.
    private static func checkAtOpen(_ store: SQLiteStore) -> String? {
        let size = (try? FileManager.default.attributesOfItem(atPath: store.path))?[.size] as? UInt64 ?? 0
        guard size > checkedAtOpen else {
            try? store.checkIntegrity()
            return nil
        }
        return "\(store.path): \(size >> 20) MB, opened without SQLite's integrity check (it reads every page); .check runs it"
    }

    /// Switches to `user`'s store in the cache directory (made if it is missing, see
    /// ``CacheDirectory``); without one, to a new in-memory cache of `user`'s.
    func login(_ user: String) throws {
        try Self.checkUserName(user)
        if let directory = options.cacheDirectory {
            try CacheDirectory.make(directory)
            try open((directory as NSString).appendingPathComponent(user + ".sqlite"), mode: .readWrite)
        } else {
            store?.close()
            store = nil
            cache = NormalizedCache()
        }
        self.user = user
    }

    /// Clears memory and deletes the user's store with its -wal and -shm files, so that
    /// no byte of the user's data stays under the cache directory. Refused, with nothing
    /// changed, while another process has the store open.
    func logout() throws {
        guard user != nil else { throw CommandError("no user is logged in") }
        let path = store?.path
        if let path { try SQLiteStore.checkNotOpenElsewhere(path) }
        store?.close()
        store = nil
        user = nil
        cache = NormalizedCache()
        if let path { try SQLiteStore.removeFiles(at: path) }
    }

    /// A user name is a file name in the cache directory, so it is kept to safe characters.
    static func checkUserName(_ user: String) throws {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_@")
        guard !user.isEmpty, user.count <= 100, !user.hasPrefix("."), user.allSatisfy(allowed.contains) else {
            throw CommandError("user name \"\(user)\" is not allowed: use 1 to 100 letters, digits, '.', '-', '_' or '@', not starting with '.'")
        }
    }
}
