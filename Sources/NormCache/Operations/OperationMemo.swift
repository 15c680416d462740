/// Compiled operations by document, at most ``capacity`` of them: when one more is kept,
/// the least recently used goes. A plan asked for again after it went is compiled again;
/// whoever still holds the old one (a watcher) keeps it, and it works as before.
///
/// ```swift
/// var memo = OperationMemo(capacity: 2)
/// memo.keep(heroes, hash: 1, name: nil)
/// memo.keep(trips, hash: 2, name: nil)
/// memo.find(heroes.source, hash: 1, name: nil)   // heroes, now the most recently used
/// memo.keep(donuts, hash: 3, name: nil)          // trips goes
/// memo.find(trips.source, hash: 2, name: nil)    // nil
/// ```
struct OperationMemo {
    /// One plan, under the name it was asked for (nil: the document's only operation),
    /// with the tick of its last use.
    private struct Entry {
        let name: String?
        let operation: CompiledOperation
        var lastUse: UInt64
    }

    let capacity: Int
    /// Entries by the hash (`nc_hash64`) of their document.
    private var entries: [UInt64: [Entry]] = [:]
    private(set) var count = 0
    private var clock: UInt64 = 0

    init(capacity: Int) {
        precondition(capacity >= 1, "an operation memo keeps at least one plan")
        self.capacity = capacity
    }

    /// The plan of `document` (hashed to `hash`) asked for by `name`, now the most
    /// recently used. Asked for by name, the document's only operation kept without one
    /// serves too; asked for without a name, only a plan kept without one does, so a
    /// document of several operations still fails however often its named ones were compiled.
    mutating func find(_ document: String, hash: UInt64, name: String?) -> CompiledOperation? {
        guard let index = entries[hash]?.firstIndex(where: {
            ($0.name == name || (name != nil && $0.operation.name == name)) && $0.operation.source == document
        }) else { return nil }
        clock += 1
        entries[hash]![index].lastUse = clock
        return entries[hash]![index].operation
    }

    /// Keeps `operation`, compiled from a document hashed to `hash` and asked for by
    /// `name`, as the most recently used; the least recently used goes if the memo is full.
    mutating func keep(_ operation: CompiledOperation, hash: UInt64, name: String?) {
        if count == capacity { evictLeastRecentlyUsed() }
        clock += 1
        entries[hash, default: []].append(Entry(name: name, operation: operation, lastUse: clock))
        count += 1
    }

    /// A scan of every entry: it runs only when a new document is compiled, which costs
    /// far more, so the hits stay a hash lookup with nothing to relink.
    private mutating func evictLeastRecentlyUsed() {
        var oldest: (hash: UInt64, index: Int, lastUse: UInt64)?
        for (hash, bucket) in entries {
            for (index, entry) in bucket.enumerated() where entry.lastUse < oldest?.lastUse ?? .max {
                oldest = (hash, index, entry.lastUse)
            }
        }
        guard let oldest else { return }
        entries[oldest.hash]!.remove(at: oldest.index)
        if entries[oldest.hash]!.isEmpty { entries[oldest.hash] = nil }
        count -= 1
    }
}
