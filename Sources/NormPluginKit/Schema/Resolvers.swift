/// The resolvers of an endpoint's root fields, by field name: what `Query` and `Mutation`
/// answer, and where each `Subscription` field's events come from. Below the root there are no resolvers: an object is a `[String: any Sendable]`
/// dictionary whose values the fields read, and an object of a union or an interface says
/// what it is in its `"__typename"`.
///
/// ```swift
/// let resolvers = Resolvers<Library>(
///     query: [
///         "book": { arguments, library in
///             try await library.book(id: arguments["id"].stringValue)   // ["__typename": "Book", "id": "1", ...]
///         },
///     ],
///     mutation: [
///         "renameBook": { arguments, library in
///             try await library.rename(id: arguments["id"].stringValue, to: arguments["title"].stringValue)
///         },
///     ],
///     subscription: [
///         "bookRenamed": { _, library in library.renamed.subscribe() }   // a Broadcast's stream of books
///     ]
/// )
/// ```
public struct Resolvers<Context: Sendable>: Sendable {
    /// Answers one root field from its arguments and the context of the request.
    public typealias Resolver = @Sendable (_ arguments: Map, _ context: Context) async throws -> (any Sendable)?

    /// Starts the events of one subscription field: each value of the sequence is one
    /// event, the field's value in it.
    public typealias Subscriber = @Sendable (_ arguments: Map, _ context: Context) async throws -> any AsyncSequence & Sendable

    public var query: [String: Resolver]
    public var mutation: [String: Resolver]
    public var subscription: [String: Subscriber]

    public init(query: [String: Resolver] = [:], mutation: [String: Resolver] = [:], subscription: [String: Subscriber] = [:]) {
        self.query = query
        self.mutation = mutation
        self.subscription = subscription
    }
}
