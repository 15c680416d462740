import GraphQL

/// Small readings of GraphQLSwift's AST shared by the compiler and the schema reader.

/// The named type under list and non-null wrappers: `[Trip!]!` → `Trip`.
func namedTypeName(_ type: any GraphQL.`Type`) -> String {
    if let named = type as? NamedType { return named.name.value }
    if let list = type as? ListType { return namedTypeName(list.type) }
    if let nonNull = type as? NonNullType { return namedTypeName(nonNull.type) }
    return "?"
}

extension Operation.Kind {
    init(_ type: OperationType) {
        switch type {
        case .query: self = .query
        case .mutation: self = .mutation
        case .subscription: self = .subscription
        }
    }
}
