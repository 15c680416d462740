import GraphQL

/// Small readings of GraphQLSwift's AST shared by the compiler and the schema reader.

/// The named type under list and non-null wrappers: `[Trip!]!` → `Trip`.
func namedTypeName(_ type: any GraphQL.`Type`) -> String { TypeReference(type).namedType }

extension CompiledOperation.Kind {
    init(_ type: OperationType) {
        switch type {
        case .query: self = .query
        case .mutation: self = .mutation
        case .subscription: self = .subscription
        }
    }
}
