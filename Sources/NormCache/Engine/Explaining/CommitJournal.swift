/// The last commits, kept whole for explanations (issue 36): what each changed, what
/// started it, the watchers it reached, and whether it was rolled back. The one owner of
/// what `.why ID` can look back on: at most ``capacity`` commits, oldest dropped first.
/// A commit that changed nothing is kept too (a write of the values already cached is
/// why a watcher did not emit); one that failed before changing anything is not.
///
/// Changes are kept as the commit's change set holds them (record and field ids, shared
/// with it, not copied) and named when asked. A record whose key is released at gc would
/// leave an id another key may take: the entries naming it are named first
/// (``nameEntries(naming:keys:)``, from KeyRelease.swift).
///
/// ```swift
/// let journal = CommitJournal()
/// journal.record(HistoryStamp(number: 1, at: Date(), cause: .write, origin: nil), changes: ChangeSet(), reached: [])
/// journal.entries(after: 0).count   // 1
/// ```
final class CommitJournal {
    /// How many commits are kept: as many as `.why ID` shows.
    static let capacity = 20

    /// What one commit changed: ids while their keys are held, names once one is released.
    enum Changed {
        /// Changed fields one by one, and records new to the base table in runs (``ChangeSet``).
        case ids(fields: [RecordField], newRecords: [(fields: [UInt32], records: [UInt32])])
        /// The same, named: (record key, field key) pairs, and the keys of the records created.
        case names([NamedField], created: Set<String>)
    }

    struct Entry {
        let stamp: HistoryStamp
        fileprivate(set) var changed: Changed
        /// The watchers that depend on a field it changed, sorted (each re-read it).
        let reached: [Int]
        let rolledBack: Bool

        /// The changed record fields, sorted, and the records it created
        /// (new to the cache, or given a `__typename`).
        func named(keys: KeySpace) -> (changed: [NamedField], created: Set<String>) {
            switch changed {
            case .names(let pairs, let created): return (pairs, created)
            case .ids(let fields, let newRecords):
                var pairs = Set<RecordField>(fields)
                var created = Set<String>()
                for pair in fields where pair.field == keys.typenameField { created.insert(keys.recordKey(pair.record)) }
                for (ids, records) in newRecords {
                    for record in records {
                        created.insert(keys.recordKey(record))
                        for field in ids { pairs.insert(RecordField(record: record, field: field)) }
                    }
                }
                return (pairs.map { NamedField(record: keys.recordKey($0.record), field: keys.fieldKey($0.field)) }.sorted(), created)
            }
        }

        /// Whether it names `record` by id.
        fileprivate func names(_ record: (UInt32) -> Bool) -> Bool {
            guard case .ids(let fields, let newRecords) = changed else { return false }
            return fields.contains { record($0.record) } || newRecords.contains { $0.records.contains(where: record) }
        }
    }

    private var ring = Ring<Entry>()

    /// Keeps one commit that ended: `changes` what it changed, `reached` the watchers it reached.
    func record(_ stamp: HistoryStamp, changes: ChangeSet, reached: [Int], rolledBack: Bool = false) {
        ring.append(Entry(stamp: stamp, changed: .ids(fields: changes.fields, newRecords: changes.newRecords),
                          reached: reached, rolledBack: rolledBack), limit: Self.capacity)
    }

    /// The last commit kept.
    var latest: Entry? { ring[ring.count - 1] }

    /// The kept commits numbered above `number`, oldest first.
    func entries(after number: Int) -> [Entry] { ring.elements.filter { $0.stamp.number > number } }

    /// Names the entries that name a record `releasing` picks, before its key is released.
    func nameEntries(naming releasing: (UInt32) -> Bool, keys: KeySpace) {
        let entries = ring.elements
        guard entries.contains(where: { $0.names(releasing) }) else { return }
        var renamed = Ring<Entry>()
        for var entry in entries {
            if entry.names(releasing) {
                let (changed, created) = entry.named(keys: keys)
                entry.changed = .names(changed, created: created)
            }
            renamed.append(entry, limit: Self.capacity)
        }
        ring = renamed
    }
}
