/// Giving record keys back to the key interner (issue 26, bounded memory): the id of a
/// key that nothing in the engine names any more is released, and a new key reuses the
/// id and the memory of its bytes. The sweep runs after ``NormalizedCache/gc(retaining:)``.
///
/// ```swift
/// try cache.write(record: "Trip:1", fields: ["name": "Lisbon"])
/// try cache.evict("Trip:1")
/// try cache.gc()   // Trip:1's id goes back: the next new key takes it
/// ```
extension EngineState {
    /// Releases every record-key id that no holder names.
    /// The holders are all the places the engine keeps a record id between commits:
    ///
    /// - the records of the base table and of every optimistic layer, and each
    ///   reference in their values (a reference left dangling by an eviction keeps its
    ///   target's id, so a later write of that key meets it again);
    /// - every watcher's dependencies (a watcher that read a record, or missed it, must
    ///   hear its next write), the invalidated fields, and the emptied roots;
    /// - each reference in the values the record history keeps (``RecordHistory``);
    ///   the commit journal's entries name the records they would hold instead
    ///   (``CommitJournal/nameEntries(naming:keys:)``);
    /// - the loaded marks of a lazily opened store (a released id's mark is cleared, so
    ///   that the key that takes the id next is loaded from the store).
    ///
    /// A commit in progress holds ids in its change set, undo log and staging slots, so
    /// inside a transaction nothing is released. The last commit's change set was for the
    /// monitor, which heard it already; it is let go. Field keys stay interned (operations
    /// keep their static field ids, and snapshots their arguments).
    func releaseUnnamedRecordKeys() {
        guard log.transactionDepth == 0 else { return }
        let bound = keys.recordKeys.count
        var named = [Bool](repeating: false, count: bound)
        func name(_ record: UInt32) { if Int(record) < bound { named[Int(record)] = true } }
        for table in [records.base] + records.layers.map(\.table) {
            for record in table.ids {
                name(record)
                for value in table[record]!.values { value.forEachReference(name) }
            }
        }
        for watcher in watchers.watchers.values { for pair in watcher.dependencies { name(pair.record) } }
        for pair in records.invalidated { name(pair.record) }
        for record in records.roots.emptied { name(record) }
        // The history's references name their records; a record's own changes do not keep
        // its key: they go with it (below), or the next key to take the id would inherit them.
        history.forEachReference(name)
        journal.nameEntries(naming: { Int($0) < bound && !named[Int($0)] }, keys: keys)
        log.lastCommit = ChangeSet()
        for record in 0..<UInt32(bound) where !named[Int(record)] {
            // An id released before is not held: the interner says so, and it is skipped.
            guard (try? keys.recordKeys.release(KeyID(rawValue: record))) != nil else { continue }
            records.loaded.remove(record)
            history.forget(record)
            var forgotten = ReceivedTimes.Change(recording: false)
            received.forget(record, into: &forgotten)
        }
    }
}
