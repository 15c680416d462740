import GraphQL

/// Small readings of GraphQLSwift's AST shared by the compiler and the schema reader.

extension CompiledOperation.Kind {
    init(_ type: OperationType) {
        switch type {
        case .query: self = .query
        case .mutation: self = .mutation
        case .subscription: self = .subscription
        }
    }
}
