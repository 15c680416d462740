/// Reading again what another process changed in the store: the engine owns loading
/// records, so it owns loading them again. A ``StoreFollower`` finds the rows that changed;
/// this brings them in as one commit with cause ``ChangeCause/external``, which watchers
/// hear as any other, the history and `.why` keep, and which is never written back.
extension NormalizedCache {
    /// Reads `rows` again from the store, as one commit with cause ``ChangeCause/external``
    /// (origin `follow FILE`), and returns what changed; nil when nothing did. Only the
    /// records the cache has read are reloaded (a record it never read loads as it is now
    /// when a read reaches it): their fields changed, appeared or went, a record whose row
    /// went is removed, and one whose row appeared where a read had found none is added, so
    /// a watcher that missed it reads it now. A row that no longer reads as a record is left
    /// as the cache had it, and named in ``ExternalChange/unreadable``. Nothing is written
    /// to the store, which holds all of it already.
    ///
    /// ```swift
    /// // another process: UPDATE records SET record = '{"name":"Luke S.",…}' WHERE key = 'Human:1000'
    /// let change = try cache.reload(ChangedRows(changed: ["Human:1000"]), file: path)
    /// change?.changed[0].fields   // [FieldChange(field: "name", old: "Luke", new: "Luke S.")]; watchers emit: external
    /// ```
    package func reload(_ rows: ChangedRows, file: String) throws(CacheError) -> ExternalChange? {
        try reload(file: file) { () throws(CacheError) in rows }
    }

    /// ``reload(_:file:)`` of the rows `find` names, found with the cache's lock held (the
    /// lock guards the store's connection); `announce` hears what changed after the commit,
    /// before its watchers' emissions are delivered.
    func reload(file: String, announcing announce: (ExternalChange) -> Void = { _ in },
                finding find: () throws(CacheError) -> ChangedRows) throws(CacheError) -> ExternalChange? {
        try emitting(announcing: { $0.map(announce) }) { () throws(CacheError) -> (ExternalChange?, [WatchDelivery]) in
            let rows = try find()
            guard !rows.isEmpty else { return (nil, []) }
            let read = try state.readRecords(among: rows.added + rows.changed + rows.removed)
            guard !read.isEmpty else { return (state.unread(rows, read: read), []) }
            var (change, deliveries) = try committed(cause: .external, origin: .command("follow", target: file), writesThrough: false) {
                () throws(CacheError) in try state.reload(rows, read: read)
            }
            if !state.log.lastCommit.isEmpty { change.commit = state.log.number }
            return (change.isEmpty ? nil : change, deliveries)
        }
    }
}
