import Testing
@testable import NormCache

/// The max ages a schema declares (``CacheDirectives``): Apollo Server's `@cacheControl` on
/// types and fields and Apollo Kotlin's `@cacheControlField` on types become
/// ``SchemaKnowledge/maxAges`` by schema coordinate; a max age that is not one, or a
/// coordinate given twice, is an error at the directive.
@Suite struct MaxAgeDirectivesTests {
    static let schema = """
        type Query { me: User trip(id: ID!): Trip search: [Result!]! node: Node }
        interface Node { id: ID! }
        type User implements Node { id: ID! email: String name: String }
        type Trip { id: ID! name: String! rating: Int }
        union Result = User | Trip

        """

    @Test func onTypesInterfacesAndUnionsAndTheirExtensions() throws {
        let knowledge = try SchemaKnowledge(sdl: Self.schema + """
            extend type User @cacheControl(maxAge: 60, scope: PRIVATE)
            extend interface Node @cacheControl(maxAge: 600)
            extend union Result @cacheControl(inheritMaxAge: true)
            type Place @cacheControl(maxAge: 0) { name: String }
            """)
        #expect(knowledge.maxAges.rules == ["User": .seconds(60), "Node": .seconds(600), "Result": .inherit, "Place": .seconds(0)])
    }

    @Test func onFieldDefinitions() throws {
        let knowledge = try SchemaKnowledge(sdl: """
            type Query { me: User @cacheControl(maxAge: 5) }
            type User @cacheControl(maxAge: 60) { id: ID! name: String @cacheControl(inheritMaxAge: true) }
            interface Node { id: ID! @cacheControl(maxAge: 3600) }
            extend type User { email: String @cacheControl(maxAge: 20) }
            """)
        #expect(knowledge.maxAges.rules == ["Query.me": .seconds(5), "User": .seconds(60), "User.name": .inherit,
                                            "Node.id": .seconds(3600), "User.email": .seconds(20)])
    }

    @Test func cacheControlFieldOnTypesSeveralOnOne() throws {
        let knowledge = try SchemaKnowledge(sdl: Self.schema + """
            extend type User @cacheControlField(name: "email", maxAge: 20) @cacheControlField(name: "name", inheritMaxAge: true)
            extend interface Node @cacheControlField(name: "id", maxAge: 86400)
            """)
        #expect(knowledge.maxAges.rules == ["User.email": .seconds(20), "User.name": .inherit, "Node.id": .seconds(86400)])
        #expect(knowledge.maxAges.defaultMaxAge == nil)
    }

    /// A schema without them knows no max age: nothing is ever stale.
    @Test func withoutThemNothingHasAMaxAge() throws {
        #expect(try SchemaKnowledge(sdl: Self.schema).maxAges.isEmpty)
    }

    static let problems: [(sdl: String, message: String, column: Int)] = [
        ("extend type User @cacheControl(maxAge: -5)", "@cacheControl(maxAge: -5) for User: a max age is whole seconds, 0 or more", 18),
        ("extend type User @cacheControl(maxAge: 1.5)", "@cacheControl(maxAge: 1.5) for User: a max age is whole seconds, 0 or more", 18),
        (#"extend type User @cacheControl(maxAge: "60")"#, #"@cacheControl(maxAge: "60") for User: a max age is whole seconds, 0 or more"#, 18),
        ("extend type User @cacheControl(maxAge: 60, inheritMaxAge: true)",
         "@cacheControl for User gives both maxAge and inheritMaxAge: true: give one", 18),
        ("extend type User @cacheControl(inheritMaxAge: false)", "@cacheControl for User needs maxAge: SECONDS or inheritMaxAge: true", 18),
        ("extend type User { age: Int @cacheControl(maxAge: -1) }",
         "@cacheControl(maxAge: -1) for User.age: a max age is whole seconds, 0 or more", 29),
        (#"extend type User @cacheControlField(name: "phone", maxAge: 20)"#,
         #"@cacheControlField(name:) names "phone", which User does not have"#, 18),
        (#"extend type User @cacheControlField(name: "email")"#,
         "@cacheControlField for User.email needs maxAge: SECONDS or inheritMaxAge: true", 18),
        ("extend type User @cacheControlField(maxAge: 20)", #"@cacheControlField needs name: "…" naming at least one field"#, 18),
        ("extend type Trip @cacheControl(maxAge: 1) @cacheControl(maxAge: 2)",
         "a second max age for Trip (@cacheControl): a type or field has one", 43),
        (#"extend type Trip @cacheControlField(name: "rating", maxAge: 9) @cacheControlField(name: "rating", maxAge: 9)"#,
         "a second max age for Trip.rating (@cacheControlField): a type or field has one", 64),
    ]

    /// Each problem is an error at its directive's line and column.
    @Test(arguments: problems.indices) func aMaxAgeThatIsNotOneIsAnErrorAtItsDirective(_ index: Int) throws {
        let (sdl, message, column) = Self.problems[index]
        #expect(throws: OperationError("schema: " + message, line: 6, column: column)) {
            try SchemaKnowledge(sdl: Self.schema + sdl)
        }
    }

    /// A field given a max age by `@cacheControl` in its definition and again by
    /// `@cacheControlField` in an extension is given it twice.
    @Test func aFieldGivenAMaxAgeTwiceByEitherDirective() throws {
        #expect(throws: OperationError("schema: a second max age for Trip.rating (@cacheControlField): a type or field has one", line: 2, column: 18)) {
            try SchemaKnowledge(sdl: """
                type Query { trip: Trip } type Trip { id: ID! rating: Int @cacheControl(maxAge: 30) }
                extend type Trip @cacheControlField(name: "rating", maxAge: 60)
                """)
        }
    }
}
