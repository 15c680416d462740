/// A paginated or embedded field of a generated schema, as its project declares it in
/// Apollo Kotlin's directives: a Relay connection (`@typePolicy(connectionFields:)`), a
/// list paged by offset (`@fieldPolicy(forField:, paginationArgs:)`) or a field that keeps
/// its objects inline (`@typePolicy(embeddedFields:)`). `normcache codegen` writes them in
/// ``SchemaMetadata/pagination``, with the type the field returns, as GraphQL writes it;
/// the cache merges a paginated field's pages into one list (docs/pagination.md).
///
/// ```swift
/// NormAPI.FieldPagination(type: "Query", field: "pagedFeed", style: .connection, returnType: "FeedConnection!")
/// NormAPI.FieldPagination(type: "Query", field: "pagedItems", style: .offset(argument: "offset", arguments: ["offset", "limit"]),
///                         returnType: "[FeedItem!]!")
/// NormAPI.FieldPagination(type: "User", field: "settings", style: .embedded, returnType: "Settings")
/// ```
public struct FieldPagination: Hashable, Sendable {
    /// How the field's pages merge, or that it only keeps its objects inline.
    public enum Style: Hashable, Sendable {
        /// A Relay connection: pages after the end cursor are appended, before the start cursor prepended.
        case connection
        /// A list merged by position from the argument `argument` (`offset`, `skip`); `arguments` leave the field key.
        case offset(argument: String, arguments: [String])
        /// Not paginated: its objects are kept inline in the parent's record.
        case embedded
    }

    /// The object or interface type whose field it is.
    public let type: String
    public let field: String
    public let style: Style
    /// The field's type: `FeedConnection!`, `[FeedItem!]!`.
    public let returnType: String

    public init(type: String, field: String, style: Style, returnType: String) {
        self.type = type
        self.field = field
        self.style = style
        self.returnType = returnType
    }
}
