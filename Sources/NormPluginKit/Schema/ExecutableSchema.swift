/// A GraphQL endpoint made from SDL and the resolvers of its root fields, executed by
/// GraphQLSwift. GraphQL errors (syntax, validation, a resolver that throws) are part of the
/// response, as GraphQL has them, never a failure of the call.
///
/// ```swift
/// let schema = try ExecutableSchema(
///     sdl: "type Query { greeting(name: String!): Greeting } type Greeting { text: String! }",
///     resolvers: Resolvers<Void>(query: [
///         "greeting": { arguments, _ in ["text": "Hello, \(try arguments["name"].stringValue())!"] },
///     ])
/// )
/// await schema.execute(json: #"{"query": "{ greeting(name: \"Ana\") { text } }"}"#, context: ())
/// // {"data":{"greeting":{"text":"Hello, Ana!"}}}
/// ```
public struct ExecutableSchema<Context: Sendable>: Sendable {
    /// The schema GraphQLSwift executes.
    public let schema: GraphQLSchema

    /// Builds the schema of `sdl` with `resolvers` on its root types; throws when the SDL is
    /// not a valid schema or a resolver names a field its root type does not have.
    public init(sdl: String, resolvers: Resolvers<Context>) throws {
        let declared = try buildSchema(source: sdl)
        let roots: [(String, GraphQLObjectType?, [String: ExecutableTypes.RootField])] = [
            ("query", declared.queryType, resolvers.query.mapValues { .resolve(Self.fieldResolve($0)) }),
            ("mutation", declared.mutationType, resolvers.mutation.mapValues { .resolve(Self.fieldResolve($0)) }),
            ("subscription", declared.subscriptionType, resolvers.subscription.mapValues { .subscribe(Self.fieldSubscribe($0)) }),
        ]
        var fieldResolvers: [String: [String: ExecutableTypes.RootField]] = [:]
        for (operation, root, resolvers) in roots where !resolvers.isEmpty {
            guard let root else { throw PluginError("\(operation) resolvers, but the schema has no \(operation) type") }
            let fields = try root.fields()
            if let unknown = resolvers.keys.sorted().first(where: { fields[$0] == nil }) {
                throw PluginError("a resolver for \(root.name).\(unknown), a field the schema does not have")
            }
            fieldResolvers[root.name] = resolvers
        }
        schema = try ExecutableTypes.schema(of: declared, resolvers: fieldResolvers)
        let errors = validateSchema(schema: schema)
        guard errors.isEmpty else { throw PluginError(errors.map(\.message).joined(separator: "; ")) }
    }

    /// Runs `request`; every error comes back in the result's `errors`.
    public func execute(_ request: GraphQLRequest, context: Context) async -> GraphQLResult {
        do {
            return try await graphql(
                schema: schema, request: request.query, context: context,
                variableValues: request.variables, operationName: request.operationName
            )
        } catch let error as GraphQLError {
            return GraphQLResult(errors: [error])
        } catch {
            return GraphQLResult(errors: [GraphQLError(message: String(describing: error))])
        }
    }

    /// Runs a request given as JSON (`{"query": ..., "variables": {...}, "operationName": ...}`)
    /// and answers the GraphQL response as JSON (`{"data": ..., "errors": [...]}`).
    public func execute(json request: String, context: Context) async -> String {
        let result: GraphQLResult
        do {
            result = await execute(try CodableJSON.decode(GraphQLRequest.self, from: request), context: context)
        } catch {
            result = GraphQLResult(errors: [GraphQLError(message: "not a GraphQL request: a JSON object with a \"query\" string is expected")])
        }
        do {
            return try CodableJSON.encode(result)
        } catch {
            // Messages alone always encode.
            return try! CodableJSON.encode(GraphQLResult(errors: [GraphQLError(message: "the response is not JSON: \(error)")]))
        }
    }

    /// Starts subscription `request`: the response of each of its events, or (failure) the
    /// errors that keep it from starting (syntax, validation, a subscriber that throws).
    func subscribe(json request: String, context: Context) async -> Result<AsyncThrowingStream<GraphQLResult, any Error>, GraphQLErrors> {
        do {
            let request = try CodableJSON.decode(GraphQLRequest.self, from: request)
            return try await graphqlSubscribe(
                schema: schema, request: request.query, context: context,
                variableValues: request.variables, operationName: request.operationName
            )
        } catch let error as GraphQLError {
            return .failure(GraphQLErrors([error]))
        } catch is DecodingError {
            return .failure(GraphQLErrors([GraphQLError(message: "not a GraphQL request: a JSON object with a \"query\" string is expected")]))
        } catch {
            return .failure(GraphQLErrors([GraphQLError(message: String(describing: error))]))
        }
    }

    private static func fieldResolve(_ resolver: @escaping Resolvers<Context>.Resolver) -> GraphQLFieldResolve {
        // `execute` is the only way in, and it always passes a `Context`.
        { _, arguments, context, _ in try await resolver(arguments, context as! Context) }
    }

    private static func fieldSubscribe(_ subscriber: @escaping Resolvers<Context>.Subscriber) -> GraphQLFieldResolve {
        { _, arguments, context, _ in try await subscriber(arguments, context as! Context) }
    }
}
