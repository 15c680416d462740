/// Which rows of a cache file changed since a follower last looked (``RowDigests``), by
/// record key, each list sorted: what a reload reads again
/// (``NormalizedCache/reload(_:file:)``).
///
/// ```swift
/// try cache.reload(ChangedRows(changed: ["Human:1000"], removed: ["Human:1003"]), file: path)
/// ```
package struct ChangedRows: Sendable, Equatable {
    /// Rows that appeared.
    package var added: [String]
    /// Rows whose record text changed.
    package var changed: [String]
    /// Rows that went.
    package var removed: [String]

    package init(added: [String] = [], changed: [String] = [], removed: [String] = []) {
        self.added = added
        self.changed = changed
        self.removed = removed
    }

    package var isEmpty: Bool { added.isEmpty && changed.isEmpty && removed.isEmpty }
}
