/// The outcome of reading an operation from the cache.
///
/// ```swift
/// let result = try cache.read(op, variables: ["id": "2"])
/// result.complete     // false
/// result.missing      // ["QUERY_ROOT.trip(id:2)"]: which field would go to the network
/// result.data         // nil (ask for partial: true to get what is there)
/// ```
public struct ReadResult: Sendable, Equatable {
    /// The data in the shape the operation asked for; `nil` when incomplete, unless the
    /// read was partial (then missing fields are left out).
    public let data: CacheValue?
    /// True when every field was in the cache, none invalidated or too stale to read.
    public var complete: Bool { missing.isEmpty }
    /// Record-field keys (`Trip:1.name`) that were absent or invalidated.
    public let missing: [String]
    /// Record-field keys present but stale: invalidated, or as old as their max age or
    /// older (docs/engine.md, "Freshness"). An invalidated field, and one older than its
    /// max age and the cache's ``NormalizedCache/maxStale`` together, is in ``missing``
    /// too; one within max stale is read, and listed here only.
    public let stale: [String]
    /// Absent fields answered from the records their field policies name
    /// (`QUERY_ROOT.trip(id:3) → Trip:3`), in the order the read met them.
    public let redirects: [CacheRedirect]
    /// Every record field the read looked at, found or not: what a watcher watches.
    let dependencies: [RecordField]
    /// Of a partial read that fills its holes (``NormalizedCache/readPartialData(_:variables:schema:)``),
    /// one GraphQL-style error a missing field (`message`, `path`), as Apollo Kotlin answers;
    /// empty otherwise.
    public internal(set) var errors: [CacheValue] = []
    /// Record-field keys of deferred fields (`@defer`) the cache lacks, under Apollo iOS's
    /// semantics: their part is pending, and the read is complete without them, as Apollo
    /// iOS's cache read is (docs/engine.md, "Apollo iOS and Apollo Client").
    public internal(set) var pending: [String] = []

    public static func == (lhs: ReadResult, rhs: ReadResult) -> Bool {
        lhs.data == rhs.data && lhs.missing == rhs.missing && lhs.stale == rhs.stale && lhs.redirects == rhs.redirects && lhs.errors == rhs.errors
            && lhs.pending == rhs.pending
    }
}
