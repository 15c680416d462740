import Foundation
import KitchenSinkTypes
import NormAPI
import NormCache
import NormCodegen
import NormProject
import TestSupport
import Testing
import TripsAPI

/// The cache metadata codegen writes in Apollo iOS's shapes (`Objects`, `Interfaces`,
/// `Unions`, `SchemaMetadata`): what the project's schema tells the cache, so an app built
/// on the generated code alone keys, redirects and matches type cases as the project does.
@Suite struct SchemaMetadataTests {
    @Test func theGeneratedKnowledgeIsTheProjects() throws {
        let project = try Project(directory: ProjectDirectory.tripsApp)
        let generated = SchemaKnowledge.generated(by: TripsAPI.SchemaMetadata.self)
        #expect(generated.typePolicies == project.schemaKnowledge.typePolicies)
        #expect(generated.typePolicies["Airport"] == .keyFields(["code"]))
        #expect(generated.fieldPolicies == project.schemaKnowledge.fieldPolicies)
        #expect(generated.possibleTypes.types(satisfying: "JourneyEndpoint") == ["Airport", "Station"])
        #expect(TripDetailQuery.Schema.self == TripsAPI.SchemaMetadata.self)
    }

    @Test func objectTypesKnowTheirInterfacesAndInterfacesTheirObjects() {
        #expect(SinkSchema.Objects.Crew.implementedInterfaces.map(\.name) == ["Node", "Named", "Scheduled"])
        #expect(SinkSchema.Objects.Crew.implements(SinkSchema.Interfaces.Named))
        #expect(!SinkSchema.Objects.Trip.implements(SinkSchema.Interfaces.Named))
        #expect(SinkSchema.Interfaces.Node.implementingObjects.sorted() == ["Crew", "Passenger", "Trip"])
        #expect(SinkSchema.Unions.Person.possibleTypes.map(\.typename) == ["Passenger", "Crew"])
        let knowledge = SchemaKnowledge.generated(by: SinkSchema.SchemaMetadata.self)
        #expect(knowledge.possibleTypes.satisfies("Trip", condition: "Node") == true)
        #expect(knowledge.possibleTypes.satisfies("Trip", condition: "Named") == false)
        #expect(knowledge.possibleTypes.satisfies("Crew", condition: "Person") == true)
    }

    /// A schema's metadata as codegen writes it (``keyFieldsImplementationsFieldPoliciesAndRootTypesAreWritten()``).
    enum RenamedRoot: NormAPI.SchemaMetadata {
        static let node = NormAPI.Interface(name: "Node", keyFields: ["id"], implementingObjects: ["Trip"])
        static let objectTypes = [NormAPI.Object(typename: "Root", implementedInterfaces: []),
                                  NormAPI.Object(typename: "Trip", implementedInterfaces: [node], keyFields: ["id"])]
        static let interfaces = [node]
        static let unions: [NormAPI.Union] = []
        static let fieldPolicies = [NormAPI.FieldPolicy(type: "Root", field: "trips", keyArgs: ["ids"], returnType: "[Trip!]!")]
        static let rootTypes = NormAPI.RootTypes(query: "Root", mutation: nil, subscription: nil)
    }

    @Test func theConversionKeepsRootTypesAndTheTypesOfFieldsWithAPolicy() {
        let knowledge = SchemaKnowledge.generated(by: RenamedRoot.self)
        #expect(knowledge.possibleTypes.rootTypes[.query] == "Root")
        #expect(knowledge.possibleTypes.outputFields(of: "Root")?["trips"] == .nonNull(.list(.nonNull(.named("Trip")))))
        #expect(knowledge.fieldPolicies["Root", "trips"] == ["ids"])
        #expect(knowledge.typePolicies["Node"] == .keyFields(["id"]))
        #expect(knowledge.possibleTypes.satisfies("Trip", condition: "Node") == true)
        #expect(knowledge.possibleTypes.satisfies("Root", condition: "Trip") == false)
    }

    static let schema = """
        schema { query: Root }
        type Root { node(id: ID!): Node trips(ids: [ID!]!): [Trip!]! result: Result }
        interface Node @typePolicy(keyFields: "id") { id: ID! }
        "A journey's plan."
        type Trip implements Node { id: ID! name: String! }
        type User implements Node { id: ID! }
        type Seat @typePolicy(keyFields: "flight number") { flight: String! number: String! }
        union Result = Trip | Seat
        extend type Root @fieldPolicy(forField: "trips", keyArgs: "ids")
        """

    /// The files of a project of ``schema`` whose operation selects `selection` on the root.
    func files(selecting selection: String) throws -> [String: String] {
        let folder = try ProjectDirectory(["schema.graphqls": Self.schema, "Q.graphql": "query Q { \(selection) }"])
        return Dictionary(uniqueKeysWithValues: try CodeGenerator(project: Project(directory: folder.path)).files().map { ($0.path, $0.contents) })
    }

    @Test func keyFieldsImplementationsFieldPoliciesAndRootTypesAreWritten() throws {
        let files = try files(selecting: "node(id: \"1\") { id ... on Trip { name } } trips(ids: [\"1\"]) { id }")
        // An interface brings every object type that implements it; Seat and Result are not referenced.
        #expect(files.keys.filter { $0.hasPrefix("Schema/Objects/") || $0.hasPrefix("Schema/Interfaces/") || $0.hasPrefix("Schema/Unions/") }.sorted() == [
            "Schema/Interfaces/Node.graphql.swift", "Schema/Objects/Root.graphql.swift", "Schema/Objects/Trip.graphql.swift",
            "Schema/Objects/User.graphql.swift",
        ])
        #expect(files["Schema/Objects/Trip.graphql.swift"]?.contains("""
            public extension API.Objects {
                /// A journey's plan.
                static let Trip = NormAPI.Object(
                    typename: "Trip",
                    implementedInterfaces: [API.Interfaces.Node],
                    keyFields: ["id"]
                )
            }
            """) == true)
        #expect(files["Schema/Interfaces/Node.graphql.swift"]?.contains("""
                static let Node = NormAPI.Interface(
                    name: "Node",
                    keyFields: ["id"],
                    implementingObjects: ["Trip", "User"]
                )
            """) == true)
        let metadata = try #require(files["Schema/SchemaMetadata.graphql.swift"])
        #expect(metadata.contains("""
                    public static let objectTypes: [NormAPI.Object] = [
                        API.Objects.Root,
                        API.Objects.Trip,
                        API.Objects.User,
                    ]
                    public static let interfaces: [NormAPI.Interface] = [
                        API.Interfaces.Node,
                    ]
                    public static let unions: [NormAPI.Union] = []
                    public static let fieldPolicies: [NormAPI.FieldPolicy] = [
                        NormAPI.FieldPolicy(type: "Root", field: "trips", keyArgs: ["ids"], returnType: "[Trip!]!"),
                    ]
                    public static let pagination: [NormAPI.FieldPagination] = []
                    public static let rootTypes = NormAPI.RootTypes(query: "Root", mutation: nil, subscription: nil)
            """))
        #expect(files["Operations/Queries/QQuery.graphql.swift"]?.contains("public typealias Schema = API.SchemaMetadata") == true)
    }

    /// The paginated and embedded fields the project declares are written in
    /// `SchemaMetadata.pagination`, sorted by type and field, with their styles and types.
    @Test func thePaginatedAndEmbeddedFieldsAreWritten() throws {
        let folder = try ProjectDirectory([
            "schema.graphqls": """
                type Query { feed(first: Int, after: String): FeedConnection! items(offset: Int, limit: Int): [Item!]! me: User }
                type FeedConnection { edges: [FeedEdge!]! pageInfo: PageInfo! }
                type FeedEdge { cursor: String! node: Item! }
                type PageInfo { endCursor: String hasNextPage: Boolean! }
                type Item { id: ID! }
                type User { settings: Settings }
                type Settings { theme: String }
                extend type User @typePolicy(embeddedFields: "settings")
                extend type Query @typePolicy(connectionFields: "feed") @fieldPolicy(forField: "items", paginationArgs: "offset limit")
                """,
            "Q.graphql": "query Q { items(offset: 0, limit: 2) { id } }",
        ])
        let files = try CodeGenerator(project: Project(directory: folder.path)).files()
        let metadata = try #require(files.first { $0.path == "Schema/SchemaMetadata.graphql.swift" }?.contents)
        #expect(metadata.contains("""
                    public static let pagination: [NormAPI.FieldPagination] = [
                        NormAPI.FieldPagination(type: "Query", field: "feed", style: .connection, returnType: "FeedConnection!"),
                        NormAPI.FieldPagination(type: "Query", field: "items", style: .offset(argument: "offset", arguments: ["offset", "limit"]), returnType: "[Item!]!"),
                        NormAPI.FieldPagination(type: "User", field: "settings", style: .embedded, returnType: "Settings"),
                    ]
            """))
    }

    /// What the fixture's generated metadata declares is its project's pagination.
    @Test func theGeneratedPaginationIsTheProjects() throws {
        let project = try Project(directory: ProjectDirectory.repository + "/Tests/Codegen/KitchenSink")
        let generated = SchemaKnowledge.generated(by: SinkSchema.SchemaMetadata.self)
        #expect(generated.pagination == project.schemaKnowledge.pagination)
        #expect(generated.pagination["Query", "tripPages"] == .connection)
        #expect(SchemaKnowledge.generated(by: TripsAPI.SchemaMetadata.self).pagination.isEmpty)
    }

    /// Metadata that lists pagination, by hand (metadata without it, ``RenamedRoot``, declares none).
    enum Paged: NormAPI.SchemaMetadata {
        static let objectTypes = [NormAPI.Object(typename: "Query", implementedInterfaces: [])]
        static let interfaces: [NormAPI.Interface] = []
        static let unions: [NormAPI.Union] = []
        static let fieldPolicies: [NormAPI.FieldPolicy] = []
        static let pagination = [
            NormAPI.FieldPagination(type: "Query", field: "feed", style: .connection, returnType: "FeedConnection!"),
            NormAPI.FieldPagination(type: "Query", field: "items", style: .offset(argument: "skip", arguments: ["skip", "take"]), returnType: "[Item!]!"),
            NormAPI.FieldPagination(type: "User", field: "settings", style: .embedded, returnType: "Settings"),
        ]
        static let rootTypes = NormAPI.RootTypes(query: "Query", mutation: nil, subscription: nil)
    }

    @Test func theConversionDeclaresThePaginationWithTheFieldsTypes() {
        let knowledge = SchemaKnowledge.generated(by: Paged.self)
        var expected = Pagination()
        expected["Query", "feed"] = .connection
        expected["Query", "items"] = .offset(argument: "skip", arguments: ["skip", "take"])
        expected.embed("User", "settings")
        #expect(knowledge.pagination == expected)
        #expect(knowledge.possibleTypes.outputFields(of: "Query")?["feed"] == .nonNull(.named("FeedConnection")))
        #expect(knowledge.possibleTypes.outputFields(of: "User")?["settings"] == .named("Settings"))
        #expect(SchemaKnowledge.generated(by: RenamedRoot.self).pagination.isEmpty)
    }

    @Test func aUnionBringsItsMembersWithTheirKeyFields() throws {
        let files = try files(selecting: "result { ... on Seat { flight } }")
        #expect(files["Schema/Unions/Result.graphql.swift"]?.contains("possibleTypes: [API.Objects.Trip, API.Objects.Seat]") == true)
        #expect(files["Schema/Objects/Seat.graphql.swift"]?.contains("keyFields: [\"flight\", \"number\"]") == true)
        // Trip's interface comes with it, and Node's other object type with Node.
        #expect(files["Schema/Interfaces/Node.graphql.swift"] != nil)
        #expect(files["Schema/Objects/User.graphql.swift"] != nil)
    }
}
