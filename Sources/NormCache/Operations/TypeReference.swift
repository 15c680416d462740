import GraphQL

/// A type as a variable declares it: a named type inside any list and non-null wrappers.
///
/// ```swift
/// let op = try cache.operation("query ($ids: [ID!]!) { trips(ids: $ids) { id } }")
/// op.variables[0].type              // .nonNull(.list(.nonNull(.named("ID"))))
/// op.variables[0].type.description  // "[ID!]!"
/// op.variables[0].type.namedType    // "ID"
/// ```
public indirect enum TypeReference: Sendable, Equatable, CustomStringConvertible {
    case named(String)
    case list(TypeReference)
    case nonNull(TypeReference)

    /// The named type under the wrappers: `[ID!]!` → `ID`.
    public var namedType: String {
        switch self {
        case .named(let name): name
        case .list(let item), .nonNull(let item): item.namedType
        }
    }

    /// Whether it is a list, non-null or not: `[ID!]!` yes, `ID!` no.
    var isList: Bool {
        switch self {
        case .named: false
        case .list: true
        case .nonNull(let inner): inner.isList
        }
    }

    /// As GraphQL writes it: `Int`, `[Int!]!`.
    public var description: String {
        switch self {
        case .named(let name): name
        case .list(let item): "[\(item)]"
        case .nonNull(let inner): "\(inner)!"
        }
    }

    /// The type an introspection result spells: `{"kind": "NON_NULL", "ofType": {"kind": "SCALAR", "name": "Int"}}`.
    init?(introspected type: CacheValue?) {
        switch (type?["kind"], type?["name"]) {
        case (.string("NON_NULL")?, _): guard let inner = TypeReference(introspected: type?["ofType"]) else { return nil }; self = .nonNull(inner)
        case (.string("LIST")?, _): guard let item = TypeReference(introspected: type?["ofType"]) else { return nil }; self = .list(item)
        case (_, .string(let name)?): self = .named(name)
        default: return nil
        }
    }

    /// The type GraphQL's text spells: `Trip`, `[Trip!]!`; nil for text that is not a type.
    init?(parsing text: Substring) {
        if text.hasSuffix("!") {
            guard let inner = TypeReference(parsing: text.dropLast()), !text.dropLast().hasSuffix("!") else { return nil }
            self = .nonNull(inner)
        } else if text.hasPrefix("["), text.hasSuffix("]"), text.count > 1 {
            guard let item = TypeReference(parsing: text.dropFirst().dropLast()) else { return nil }
            self = .list(item)
        } else {
            guard let first = text.first, first == "_" || first.isLetter,
                  text.allSatisfy({ $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }) else { return nil }
            self = .named(String(text))
        }
    }

    /// The type a GraphQLSwift AST node spells.
    init(_ type: any GraphQL.`Type`) {
        switch type {
        case let list as ListType: self = .list(TypeReference(list.type))
        case let nonNull as NonNullType: self = .nonNull(TypeReference(nonNull.type))
        case let named as NamedType: self = .named(named.name.value)
        default: self = .named("?")
        }
    }
}
