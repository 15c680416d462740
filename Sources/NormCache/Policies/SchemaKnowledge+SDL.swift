import GraphQL

/// Reading an endpoint's knowledge from its schema: the one place SDL becomes a
/// ``SchemaKnowledge``, for a project's schema files, a plugin's manifest and an HTTP
/// endpoint's introspected schema alike.
extension SchemaKnowledge {
    /// The knowledge SDL declares: its possible types, the `@typePolicy` and `@fieldPolicy`
    /// directives on its types and extensions (key fields, cache redirects, pagination), and the max ages of its `@cacheControl` and
    /// `@cacheControlField` directives (``CacheDirectives``). A directive that names what
    /// the schema lacks, gives no valid max age, or is given twice, is an error at its line
    /// and column.
    ///
    /// ```swift
    /// let trips = try SchemaKnowledge(sdl: """
    ///     type Query { trip(id: ID!): Trip }
    ///     type Trip @typePolicy(keyFields: "id") { id: ID! }
    ///     extend type Query @fieldPolicy(forField: "trip", keyArgs: "id")
    ///     """)
    /// trips.typePolicies["Trip"]          // .keyFields(["id"])
    /// trips.fieldPolicies["Query", "trip"] // ["id"]
    ///
    /// let users = try SchemaKnowledge(sdl: """
    ///     type Query { me: User }
    ///     type User @cacheControl(maxAge: 60) { id: ID!, email: String }
    ///     extend type User @cacheControlField(name: "email", maxAge: 20)
    ///     """)
    /// users.maxAges["User"]         // .seconds(60)
    /// users.maxAges["User.email"]   // .seconds(20)
    /// ```
    public init(sdl: String) throws(OperationError) {
        let definitions = try PossibleTypes.document(sdl: sdl).definitions
        var problems: [CacheDirectives.Problem] = []
        self.init(schema: definitions, outline: SchemaOutline(definitions), problems: &problems)
        if let problem = problems.first {
            throw OperationError("schema: " + problem.message, line: problem.location?.startToken.line,
                                 column: problem.location?.startToken.column)
        }
    }

    /// The knowledge of a schema's parsed definitions and extensions (`outline` is theirs),
    /// with what its cache directives name wrongly added to `problems`.
    package init(schema definitions: [any Definition], outline: SchemaOutline, problems: inout [CacheDirectives.Problem]) {
        let directives = CacheDirectives(definitions, outline: outline)
        problems += directives.problems
        self.init(possibleTypes: PossibleTypes(schema: definitions), typePolicies: directives.typePolicies,
                  fieldPolicies: directives.fieldPolicies, maxAges: directives.maxAges,
                  pagination: directives.pagination)
    }
}
