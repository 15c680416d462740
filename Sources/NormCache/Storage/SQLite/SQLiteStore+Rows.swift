/// What a follower of the file asks of the store (``StoreFollower``): whether any other
/// connection committed since it last asked, and every row as the file holds it now, on
/// the store's own connection (the cache's lock guards it, as for every other call).
extension SQLiteStore {
    /// `PRAGMA data_version`: a number that changes when another connection (another
    /// process's, or another of this one's) commits to the file, and not when this store
    /// writes. Cheap: it reads the file's header or its WAL index, no row.
    ///
    /// ```swift
    /// let before = try store.dataVersion()
    /// // another process commits
    /// try store.dataVersion() != before   // true
    /// ```
    package func dataVersion() throws(StoreError) -> Int64 {
        let statement = try database.prepare("PRAGMA data_version")
        guard try statement.step() else { throw StoreError(path: path, message: "PRAGMA data_version returned no row") }
        defer { statement.reset() }
        return statement.integer(0)
    }

    /// Hands `body` every row's key and record text as UTF-8 bytes (valid during the call;
    /// a NULL record as nil), in one read transaction, in the table's order. A row without
    /// a key is skipped.
    package func forEachRow(_ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>?) throws -> Void) throws {
        try database.reading {
            let statement = try database.prepare(#"SELECT key, record FROM "records""#)
            defer { statement.reset() }
            while try statement.step() {
                try statement.withBytes(0) { key in
                    guard let key else { return }
                    try statement.withBytes(1) { try body(key, $0) }
                }
            }
        }
    }
}
