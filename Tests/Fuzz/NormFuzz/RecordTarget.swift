@testable import NormCache

extension FuzzTarget {
    /// An Apollo iOS row, `KEY|RECORD` as `sqlite3` prints it (the fixture's rows.txt),
    /// the record's text decoded as SQLiteStore decodes its `record` column. A record it
    /// accepts is loaded into a cache, read, matched by its key as a glob, and extracted
    /// as an Apollo Client snapshot, which a second cache restores.
    static let record = FuzzTarget(name: "record", feeds: "KEY|RECORD, an Apollo iOS row: decoded, loaded, read, extracted and restored") { bytes in
        let bar = bytes.firstIndex(of: UInt8(ascii: "|"))
        let key = String(decoding: UnsafeBufferPointer(rebasing: bytes[..<(bar ?? bytes.startIndex)]), as: UTF8.self)
        let text = UnsafeBufferPointer(rebasing: bytes[(bar.map { $0 + 1 } ?? bytes.startIndex)...])
        guard let fields = try? RecordText.fields(of: text) else { return }
        let store = InMemoryStore()
        store.write(merging: [RecordChange(key: key, fields: fields)], removing: [])
        guard let cache = try? NormalizedCache(store: store) else { return }
        _ = cache.record(key)
        _ = cache.keys(matching: key)
        _ = cache.referrers(of: key)
        _ = cache.takeWarnings()
        _ = try? NormalizedCache().restore(cache.extract())
    }
}
