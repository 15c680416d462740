import Foundation

/// Follows the cache file a cache is over while another process (an app in the
/// simulator) writes it: each ``poll(announcing:)`` tells whether anything was committed
/// since the last, by `PRAGMA data_version` on the store's own connection (cheap: no row is
/// read); only then it hashes every row (``RowDigests``) to find which records changed,
/// appeared or went, and reloads them as one commit with cause ``ChangeCause/external``
/// (``NormalizedCache/reload(_:file:)``). The file is never written. The first poll
/// compares every record the cache has read with its row, so that following starts from
/// the file as it is (what changed while no one followed it is reloaded then).
///
/// Each poll first checks that the path still names the file the store has open and that
/// its write-ahead log was not deleted or replaced; if not, it throws a ``StoreError``
/// naming the file, and following should stop: the store still reads the file it opened.
/// When to poll is the caller's (the workbench polls every 50 ms on a thread of its own).
/// Polls may come from several threads: they run one at a time.
///
/// ```swift
/// let follower = try StoreFollower(cache: cache)!       // nil: the cache is over no file
/// try follower.poll()                                   // the first look: nil, the cache read the file as it is
/// // the app commits
/// let change = try follower.poll()                      // changed: ["Human:1000"]; watchers emit: external
/// ```
package final class StoreFollower: @unchecked Sendable {
    /// The file followed.
    package let path: String
    private let cache: NormalizedCache
    private let store: SQLiteStore
    /// Held for a whole poll, so that polls run one at a time.
    private let lock = NSLock()
    private var digests = RowDigests()
    /// `PRAGMA data_version` when the rows were last hashed; nil before the first look.
    private var version: Int64?
    private let file: FileIdentity
    /// The write-ahead log's identity, once there is one.
    private var wal: FileIdentity?

    /// A follower of the file `cache` is over, which it looks at first on its first
    /// ``poll(announcing:)``. Nil when the cache is over no cache file (memory); throws
    /// when the store could not tell which file it opened.
    package init?(cache: NormalizedCache) throws {
        guard let store = cache.locked({ cache.state.records.store }) as? SQLiteStore else { return nil }
        self.cache = cache
        self.store = store
        path = store.path
        // The file the store opened, not the one at its path now (an app reinstalled since
        // leaves another file there, which the store does not read).
        guard let file = store.file else { throw StoreError(path: path, message: "does not exist") }
        self.file = file
        wal = FileIdentity.of(path + "-wal")
    }

    /// How many rows the file held at the last look.
    package var rows: Int { lock.withLock { digests.count } }

    /// Looks at the file once: nil when no other connection committed since the last look
    /// (or what it committed changed no row, or, on the first look, no record the cache
    /// read differs from its row); else what changed, reloaded into the cache
    /// (`announce` hears it before the watchers' emissions are delivered). Throws a
    /// ``StoreError`` naming the file when it was deleted, replaced (another inode at its
    /// path) or its write-ahead log was, or when it cannot be read: following should stop.
    package func poll(announcing announce: (ExternalChange) -> Void = { _ in }) throws -> ExternalChange? {
        try lock.withLock { () throws -> ExternalChange? in
            try checkFile()
            let first = version == nil
            guard try first || cache.locked({ Result { try store.dataVersion() } }).get() != version else { return nil }
            var failure: (any Error)?
            do {
                return try cache.reload(file: path, announcing: announce) { () throws(CacheError) -> ChangedRows in
                    do {
                        version = try store.dataVersion()
                        let rows = try digests.scan(store.forEachRow)
                        guard first else { return rows }
                        // Every record read, whether its row is there or not.
                        let state = cache.state, held = state.records.base.ids.map(state.keys.recordKey)
                        return ChangedRows(changed: try state.readRecords(among: digests.keys + held).keys.sorted())
                    } catch {
                        failure = error
                        throw .storage("\(error)")
                    }
                }
            } catch {
                throw failure ?? error
            }
        }
    }

    /// Throws when the path no longer names the file followed, or its write-ahead log was
    /// deleted or replaced since it was first seen.
    private func checkFile() throws(StoreError) {
        guard let now = FileIdentity.of(path) else { throw StoreError(path: path, message: "was deleted") }
        guard now == file else { throw StoreError(path: path, message: "was replaced by another file (another inode at its path)") }
        let log = FileIdentity.of(path + "-wal")
        if let wal, log != wal {
            throw StoreError(path: path, message: "its write-ahead log \(path)-wal was \(log == nil ? "deleted" : "replaced") (a WAL reset)")
        }
        wal = log
    }
}
