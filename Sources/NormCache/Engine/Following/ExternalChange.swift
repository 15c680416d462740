/// What another process's commits to the store changed, as one reload brought them into
/// the cache (``NormalizedCache/reload(_:file:)``, ``StoreFollower/poll(announcing:)``): the records whose
/// rows changed or appeared, with their fields old → new where the cache had read them, and
/// the records whose rows went. A record the cache never read has nothing to reload (its
/// next read loads the row as it is now), so only its key is known to have changed.
///
/// ```swift
/// let change = try cache.reload(ChangedRows(changed: ["Human:1000"], removed: ["Human:1003"]), file: path)
/// change?.changed.map(\.key)        // ["Human:1000"]
/// change?.changed[0].fields         // [FieldChange(field: "name", old: "Luke", new: "Luke S.")]
/// change?.removed                   // ["Human:1003"]
/// ```
package struct ExternalChange: Sendable, Equatable {
    /// One record whose row changed or appeared.
    package struct Record: Sendable, Equatable {
        package let key: String
        /// Whether the row appeared since the follower last looked.
        package let isNew: Bool
        /// Whether the cache had read the record, and so reloaded it: only then are its
        /// fields' old values known.
        package let wasRead: Bool
        /// The fields that changed, appeared (old nil) or went (new nil), in field order.
        package let fields: [FieldChange]
    }

    /// A row that no longer reads as a record: the cache keeps the record as it was.
    package struct Unreadable: Sendable, Equatable {
        package let key: String
        package let problem: String
    }

    /// The records changed or new in the file, by key.
    package var changed: [Record] = []
    /// The keys of the records the file no longer holds.
    package var removed: [String] = []
    package var unreadable: [Unreadable] = []
    /// The number of the commit that brought the change in; nil when no record the cache
    /// had read changed (nothing was committed).
    package var commit: Int?

    var isEmpty: Bool { changed.isEmpty && removed.isEmpty && unreadable.isEmpty }
}
