import Foundation
import GraphQL
import NormCache
@testable import NormProject
import TestSupport
import Testing

/// Apollo iOS's client directives are known to every project's schema, as Apollo's codegen
/// adds them, and so are the max-age directives Apollo Kotlin reads (`@cacheControl`,
/// `@cacheControlField`): an app's schema never declares them, and one that does still loads.
@Suite struct ApolloDirectivesTests {
    let schema = """
        type Query { pets(search: Search): [Pet!]! }
        interface Pet { id: ID! name: String! }
        type Dog implements Pet { id: ID! name: String! barks: Boolean! }
        input Search @oneOf { name: String id: ID }
        """
    /// Operations that use every directive Apollo's codegen adds.
    let operations = [
        "Pets.graphql": """
            query Pets($search: Search) @import(module: "PetKit") { pets(search: $search) { id ...PetName ... on Dog @defer(label: "dog") { barks } } }
            fragment PetName on Pet @import(module: "A") @import(module: "B") { name }
            """,
        "Local.graphql": """
            query LocalPets @apollo_client_ios_localCacheMutation { pets { id name } }
            fragment LocalPet on Pet @apollo_client_ios_localCacheMutation { name }
            """,
        "Policies.graphqls": """
            extend interface Pet @typePolicy(keyFields: "id")
            extend type Query @fieldPolicy(forField: "pets", keyArgs: "search.id")
            extend type Dog @cacheControl(maxAge: 60, scope: PRIVATE) @cacheControlField(name: "barks", inheritMaxAge: true)
            """,
    ]

    func load(_ files: [String: String]) throws -> Project {
        try Project(directory: try ProjectDirectory(files).path)
    }

    @Test func aSchemaThatDeclaresNoneOfThem() throws {
        let project = try load(["schema.graphqls": schema].merging(operations) { $1 })
        #expect(project.operations.map(\.name) == ["LocalPets", "Pets"])
        #expect(project.fragments.map(\.name) == ["LocalPet", "PetName"])
        #expect(project.schemaKnowledge.typePolicies["Dog"] == .keyFields(["id"]))
        #expect(project.schemaKnowledge.maxAges.rules == ["Dog": .seconds(60), "Dog.barks": .inherit])
        #expect(project.warnings.isEmpty)
    }

    @Test func aSchemaThatDeclaresThemItself() throws {
        let declared = ApolloDirectives.declarations.map(\.value).joined(separator: "\n") + "\ndirective @oneOf on INPUT_OBJECT"
        let project = try load(["schema.graphqls": declared + "\n" + schema].merging(operations) { $1 })
        #expect(project.operations.count == 2)
        #expect(project.warnings.isEmpty)
    }

    /// A server's schema declares `@cacheControl` as Apollo Server's documentation has it
    /// (scope first, no `@cacheControlField`) and puts it on its fields: it keeps that
    /// declaration, and its max ages count.
    @Test func aSchemaWithApolloServersCacheControl() throws {
        let server = """
            enum CacheControlScope { PUBLIC PRIVATE }
            directive @cacheControl(maxAge: Int, scope: CacheControlScope, inheritMaxAge: Boolean) on FIELD_DEFINITION | OBJECT | INTERFACE | UNION
            type Query { pets(search: Search): [Pet!]! @cacheControl(maxAge: 30) }
            interface Pet @cacheControl(maxAge: 300) { id: ID! name: String! }
            type Dog implements Pet { id: ID! name: String! barks: Boolean! }
            input Search @oneOf { name: String id: ID }
            """
        let project = try load(["schema.graphqls": server].merging(operations) { $1 })
        #expect(project.schemaKnowledge.maxAges.rules == ["Query.pets": .seconds(30), "Pet": .seconds(300), "Dog": .seconds(60), "Dog.barks": .inherit])
        #expect(project.serverSDL.contains("directive @cacheControl(maxAge: Int, scope: CacheControlScope, inheritMaxAge: Boolean)"))
        #expect(project.serverSDL.contains("enum CacheControlScope {"))
        #expect(project.warnings.isEmpty)
    }

    /// A `@defer` of another shape is replaced by Apollo iOS's, with a warning at it, as
    /// Apollo's codegen replaces it; operations then use Apollo's arguments.
    @Test func aDeferOfAnotherShapeIsReplaced() throws {
        let files = ["schema.graphqls": "directive @defer(label: String) on FIELD\n" + schema].merging(operations) { $1 }
        let project = try load(files)
        #expect(project.warnings.map(\.description) == [
            "schema.graphqls:1:1: @defer is declared here with other arguments, locations or repeatability than Apollo iOS supports; "
                + "it is replaced by @defer(if: Boolean! = true, label: String) on FRAGMENT_SPREAD | INLINE_FRAGMENT",
        ])
        #expect(project.validate(document: "{ pets { ... on Dog @defer(if: false) { barks } } }").isEmpty)
    }

    /// Misused, they are refused by the rules as any directive is: a place they may not stand,
    /// an argument they do not have.
    @Test func misusedDirectivesAreRefused() throws {
        let project = try load(["schema.graphqls": schema, "Pets.graphql": "query Pets { pets { id } }"])
        #expect(project.validate(document: "{ pets { id @defer } }").map(\.description)
            == [#"1:13: Directive "@defer" may not be used on FIELD."#])
        let problems = project.validate(document: #"query Q @import(name: "M") { pets { id } }"#).map(\.description)
        #expect(problems == [#"1:9: Directive "@import" argument "module" of type "String!" is required, but it was not provided."#])
    }

    /// The SDL a plugin's server serves (codegen embeds it) is the schema as the files give
    /// it: none of the declarations Apollo's codegen adds, the schema's own ones kept; but
    /// the cache directives the files apply to types and fields come along, as type
    /// extensions with the declarations they need, since the plugin's host reads them from
    /// that SDL (a field's `@cacheControl` as the type's `@cacheControlField`, its
    /// `@embedded` as `@embeddedField`).
    @Test func theServersSDLLeavesThemOutButCarriesTheCacheDirectives() throws {
        let own = "directive @import(module: String!) repeatable on QUERY | MUTATION | SUBSCRIPTION | FRAGMENT_DEFINITION\n"
        let owners = """
            type Owner { name: String! @cacheControl(maxAge: 30, scope: PRIVATE) pets: [Pet!]! @cacheControl(inheritMaxAge: true) @embedded }
            extend type Query { owner: Owner @cacheControl(maxAge: 5) }
            interface Walker { legs: [Leg!]! @embedded }
            type Leg { length: Int }
            """
        let project = try load(["schema.graphqls": own + schema, "Owners.graphqls": owners].merging(operations) { $1 })
        #expect(project.serverSDL.contains("directive @import(module: String!)"))
        for added in ["apollo_client_ios_localCacheMutation", "defer"] {
            #expect(!project.serverSDL.contains("directive @\(added)"), "\(added)")
        }
        for applied in ["typePolicy", "fieldPolicy", "cacheControl", "cacheControlField"] {
            #expect(project.serverSDL.contains("directive @\(applied)("), "\(applied)")
        }
        #expect(project.serverSDL.contains("enum CacheControlScope"))
        #expect(project.serverSDL.contains(#"extend interface Pet @typePolicy(keyFields: "id")"#))
        #expect(project.serverSDL.contains(#"extend type Dog @cacheControl(maxAge: 60, scope: PRIVATE) @cacheControlField(name: "barks", inheritMaxAge: true)"#))
        #expect(project.serverSDL.contains("type Dog implements Pet {"))
        #expect(project.serverSDL.contains(#"extend type Owner @cacheControlField(name: "name", maxAge: 30, scope: PRIVATE) "#
                                           + #"@cacheControlField(name: "pets", inheritMaxAge: true) @embeddedField(name: "pets")"#))
        #expect(project.serverSDL.contains(#"extend type Query @cacheControlField(name: "owner", maxAge: 5)"#))
        #expect(project.serverSDL.contains("directive @embeddedField("))
        #expect(project.serverSDL.contains(#"extend interface Walker @embeddedField(name: "legs")"#))
        // The server builds it: every directive it applies is declared where it is applied.
        _ = try buildSchema(source: project.serverSDL)
        // What the host reads from it is what the project knows.
        let served = try SchemaKnowledge(sdl: project.serverSDL)
        #expect(served.maxAges == project.schemaKnowledge.maxAges)
        #expect(served.maxAges["Owner.pets"] == .inherit && served.maxAges["Owner.name"] == .seconds(30) && served.maxAges["Query.owner"] == .seconds(5))
        #expect(served.pagination.isEmbedded("Owner", "pets"))
        #expect(served == project.schemaKnowledge)
    }
}
