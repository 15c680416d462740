/// Which fields are paginated and how their pages merge into one field, and which fields
/// keep their objects inline: what Apollo Kotlin's normalized cache declares in the schema
/// with `@typePolicy(connectionFields:)` (or `@connection` on the connection type),
/// `@fieldPolicy(forField:, paginationArgs:)` and `@typePolicy(embeddedFields:)`.
///
/// A paginated field's page arguments leave its field key, so every page is written to the
/// one field (`QUERY_ROOT.users`, not `QUERY_ROOT.users(after:"c2",first:2)`), where the
/// page merges with what the field holds (``PageMerge``); its value is kept inline in the
/// parent record, each keyed object in it a reference. Without a declaration a field keeps
/// each page under its own field key, as Apollo iOS does. docs/pagination.md has the rules.
///
/// ```swift
/// var pagination = Pagination()
/// pagination["Query", "users"] = .connection                          // first/last/before/after
/// pagination["Query", "posts"] = .offset(argument: "offset", arguments: ["offset", "limit"])
/// pagination.embed("Query", "settings")
/// pagination["Query", "users"]?.droppedArguments   // ["first", "last", "before", "after"]
/// ```
public struct Pagination: Sendable, Equatable {
    /// How the pages of one field merge.
    public enum Style: Sendable, Equatable {
        /// A Relay connection: a page after the list's end cursor is appended, one before
        /// its start cursor prepended, edges already there (by node key) left out; a page
        /// with neither argument replaces the list.
        case connection
        /// A list merged by position: a page at `argument` (`offset`) replaces the items
        /// from there on and extends the list; offset 0 replaces the list. `arguments`
        /// leave the field key.
        case offset(argument: String, arguments: [String])

        /// The arguments that do not take part in the field key.
        public var droppedArguments: [String] {
            switch self {
            case .connection: ["first", "last", "before", "after"]
            case .offset(_, let arguments): arguments
            }
        }
    }

    /// Never an empty inner table: a type is here while it declares a field.
    private var styles: [String: [String: Style]] = [:]
    private var embedded: [String: Set<String>] = [:]

    public init() {}

    /// How the pages of `field` of `type` merge; `nil` when it is not paginated.
    public subscript(type: String, field: String) -> Style? {
        get { styles[type]?[field] }
        set {
            styles[type, default: [:]][field] = newValue
            if styles[type]?.isEmpty == true { styles[type] = nil }
        }
    }

    /// Keeps the objects of `field` of `type` inline in the parent's record.
    public mutating func embed(_ type: String, _ field: String) {
        embedded[type, default: []].insert(field)
    }

    /// Whether `field` of `type` keeps its objects inline: an embedded field or a paginated one.
    public func isEmbedded(_ type: String, _ field: String) -> Bool {
        embedded[type]?.contains(field) == true || self[type, field] != nil
    }

    /// Whether some type has a field named `field` that is paginated or embedded.
    func mentions(_ field: String) -> Bool {
        styles.values.contains { $0[field] != nil } || embedded.values.contains { $0.contains(field) }
    }

    /// One field's declaration: its style when it is paginated, `nil` when it is only embedded.
    package struct Declaration: Equatable {
        package let type: String
        package let field: String
        package let style: Style?

        package init(type: String, field: String, style: Style?) {
            self.type = type
            self.field = field
            self.style = style
        }
    }

    /// Every paginated or embedded field, once, sorted by type and field (what codegen
    /// writes in a generated schema's metadata).
    package var declarations: [Declaration] {
        let types = Set(styles.keys).union(embedded.keys).sorted()
        return types.flatMap { type in
            Set((styles[type] ?? [:]).keys).union(embedded[type] ?? []).sorted().map { field in
                Declaration(type: type, field: field, style: self[type, field])
            }
        }
    }

    /// Declares a field as `declaration` says: paginated in its style, else embedded.
    package mutating func declare(_ declaration: Declaration) {
        if let style = declaration.style { self[declaration.type, declaration.field] = style } else { embed(declaration.type, declaration.field) }
    }

    /// Every read and write asks it: two counts.
    public var isEmpty: Bool { styles.isEmpty && embedded.isEmpty }
}
