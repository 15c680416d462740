/// One field of a record in two states, nil where it is absent: before and after a change
/// (another process's, reloaded: ``ExternalChange``), or in one cache and in another (the
/// workbench's `.diff`).
///
/// ```swift
/// FieldChange(field: "name", old: "Luke", new: "Luke S.")
/// ```
package struct FieldChange: Sendable, Equatable {
    package let field: String
    package let old: CacheValue?
    package let new: CacheValue?

    package init(field: String, old: CacheValue?, new: CacheValue?) {
        self.field = field
        self.old = old
        self.new = new
    }
}
