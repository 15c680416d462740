import CCore

/// The rows of a followed cache file as the follower last saw them: of each row, by the
/// hash of its key, the key and a hash of its record text. A scan after another process
/// committed hashes every row again and tells which keys are new, which rows changed and
/// which went, without holding a copy of any record. Apollo iOS's upsert (`INSERT … ON
/// CONFLICT(key) DO UPDATE`) keeps a row's `_id`, so the rows' text is what tells.
///
/// The hash is CCore's `nc_hash64`, over the bytes SQLite hands over, in place: no `String`
/// is made for a row that did not change (Swift's `Hasher` would need one fed to it, and is
/// seeded anew in every process; these hashes live in memory only, as nc_hash64's must).
/// Two different texts of one key hashing equal (one chance in 2⁶⁴) would hide a change.
///
/// ```swift
/// var digests = RowDigests()
/// _ = try digests.scan(store.forEachRow)   // the first scan: every row is added
/// // another process updates Human:1000
/// try digests.scan(store.forEachRow)   // ChangedRows(changed: ["Human:1000"])
/// ```
struct RowDigests {
    private struct Row {
        let key: String
        var text: UInt64
        /// The scan that last met the row.
        var seen: UInt32
    }

    private var rows: [UInt64: Row] = [:]
    private var scans: UInt32 = 0

    /// How many rows the last scan met.
    var count: Int { rows.count }

    /// The keys of the rows the last scan met.
    var keys: [String] { rows.values.map(\.key) }

    /// Hashes every row `forEachRow` hands over (a key's bytes and its record text, nil for
    /// NULL) and returns what differs from the last scan.
    mutating func scan(_ forEachRow: ((UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>?) throws -> Void) throws -> Void) rethrows -> ChangedRows {
        scans &+= 1
        let scan = scans
        var changes = ChangedRows()
        try forEachRow { key, text in
            let keyHash = nc_hash64(key.baseAddress, key.count)
            let textHash = text.map { nc_hash64($0.baseAddress, $0.count) } ?? 0
            if let index = rows.index(forKey: keyHash) {
                if rows.values[index].text != textHash {
                    changes.changed.append(rows.values[index].key)
                    rows.values[index].text = textHash
                }
                rows.values[index].seen = scan
            } else {
                let name = String(decoding: key, as: UTF8.self)
                changes.added.append(name)
                rows[keyHash] = Row(key: name, text: textHash, seen: scan)
            }
        }
        let gone = rows.filter { $0.value.seen != scan }
        for (hash, row) in gone {
            changes.removed.append(row.key)
            rows[hash] = nil
        }
        changes.added.sort()
        changes.changed.sort()
        changes.removed.sort()
        return changes
    }
}
