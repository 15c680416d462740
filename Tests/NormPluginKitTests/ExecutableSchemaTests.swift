import GraphQL
import NormPluginKit
import Testing

/// A small endpoint with every shape the kit must execute: root fields with arguments,
/// nested dictionaries, lists, a union and an interface resolved by `__typename`, a mutation
/// that uses the request's context, and a resolver that fails.
@Suite struct ExecutableSchemaTests {
    static let sdl = """
        interface Node { id: ID! }
        type Query {
          trips(first: Int): [Trip!]!
          node(id: ID!): Node
          boom: String
        }
        type Mutation { renameTrip(id: ID!, name: String!): Trip }
        type Trip implements Node { id: ID! name: String! place: Place legs: [Leg!]! }
        type Place { city: String! country: String! }
        type Leg { from: Stop! }
        union Stop = Station | Airport
        type Station implements Node { id: ID! platform: String }
        type Airport { code: ID! }
        """

    /// The context of a request: a store that a mutation changes.
    actor Store {
        private(set) var names = ["1": "Lisbon", "2": "Porto"]
        func rename(_ id: String, to name: String) { names[id] = name }
    }

    static func trip(_ id: String, _ name: String) -> [String: any Sendable] {
        [
            "__typename": "Trip", "id": id, "name": name,
            "place": ["city": name, "country": "Portugal"],
            "legs": [
                ["from": ["__typename": "Station", "id": "s\(id)", "platform": "7"]],
                ["from": ["__typename": "Airport", "code": "LIS"]],
            ],
        ]
    }

    static let resolvers = Resolvers<Store>(
        query: [
            "trips": { arguments, store in
                let trips = await store.names.sorted { $0.key < $1.key }.map { trip($0.key, $0.value) }
                return Array(trips.prefix(arguments["first"].int ?? trips.count))
            },
            "node": { arguments, _ in
                let id = try arguments["id"].stringValue()
                return id.hasPrefix("s") ? ["__typename": "Station", "id": id, "platform": "3"] : trip(id, "Lisbon")
            },
            "boom": { _, _ in throw PluginError("the boom field failed") },
        ],
        mutation: [
            "renameTrip": { arguments, store in
                let id = try arguments["id"].stringValue()
                await store.rename(id, to: try arguments["name"].stringValue())
                return await store.names[id].map { trip(id, $0) }
            },
        ]
    )

    let schema: ExecutableSchema<Store>
    let store = Store()

    init() throws {
        schema = try ExecutableSchema(sdl: Self.sdl, resolvers: Self.resolvers)
    }

    func run(_ request: String) async -> String {
        await schema.execute(json: request, context: store)
    }

    @Test func rootFieldWithArguments() async {
        #expect(await run(#"{"query": "{ trips(first: 1) { id name } }"}"#)
            == #"{"data":{"trips":[{"id":"1","name":"Lisbon"}]}}"#)
    }

    @Test func nestedDictionariesInSelectionOrder() async {
        #expect(await run(#"{"query": "{ trips { place { country city } name } }"}"#)
            == #"{"data":{"trips":[{"place":{"country":"Portugal","city":"Lisbon"},"name":"Lisbon"},{"place":{"country":"Portugal","city":"Porto"},"name":"Porto"}]}}"#)
    }

    @Test func unionMemberByTypename() async {
        let response = await run(#"{"query": "{ trips(first: 1) { legs { from { __typename ... on Station { id platform } ... on Airport { code } } } } }"}"#)
        #expect(response == #"{"data":{"trips":[{"legs":[{"from":{"__typename":"Station","id":"s1","platform":"7"}},{"from":{"__typename":"Airport","code":"LIS"}}]}]}}"#)
    }

    @Test func interfaceByTypename() async {
        #expect(await run(#"{"query": "{ a: node(id: \"s9\") { __typename id ... on Station { platform } } b: node(id: \"2\") { __typename id ... on Trip { name } } }"}"#)
            == #"{"data":{"a":{"__typename":"Station","id":"s9","platform":"3"},"b":{"__typename":"Trip","id":"2","name":"Lisbon"}}}"#)
    }

    @Test func variablesAndOperationName() async {
        let request = #"""
            {"query": "mutation Rename($id: ID!, $name: String!) { renameTrip(id: $id, name: $name) { id name } } query Names { trips { name } }",
             "operationName": "Rename", "variables": {"id": "2", "name": "Porto Alegre"}}
            """#
        let renamed = await run(request)
        #expect(renamed == #"{"data":{"renameTrip":{"id":"2","name":"Porto Alegre"}}}"#)
        let names = await run(#"{"query": "query Rename { boom } query Names { trips { name } }", "operationName": "Names"}"#)
        #expect(names == #"{"data":{"trips":[{"name":"Lisbon"},{"name":"Porto Alegre"}]}}"#)
    }

    @Test func resolverErrorGivesPartialData() async {
        let response = await run(#"{"query": "{ trips(first: 1) { id } boom }"}"#)
        #expect(response == #"{"data":{"trips":[{"id":"1"}],"boom":null},"errors":[{"message":"the boom field failed","locations":[{"line":1,"column":26}],"path":["boom"]}]}"#)
    }

    @Test func validationErrorHasNoData() async {
        let response = await run(#"{"query": "{ trips { nickname } }"}"#)
        #expect(response.hasPrefix(#"{"errors":[{"message":"Cannot query field \"nickname\" on type \"Trip\"."#))
        #expect(response.contains(#""locations":[{"line":1,"column":11}]"#))
    }

    @Test func syntaxErrorAndMalformedRequestAreErrors() async {
        #expect(await run(#"{"query": "{ trips { id "}"#).hasPrefix(#"{"errors":[{"message":"Syntax Error"#))
        #expect(await run("[1, 2]").hasPrefix(#"{"errors":[{"message":"not a GraphQL request"#))
    }

    @Test func abstractValueWithoutTypename() async throws {
        let schema = try ExecutableSchema(sdl: Self.sdl, resolvers: Resolvers<Store>(query: ["node": { _, _ in ["id": "1"] }]))
        let result = await schema.execute(GraphQLRequest(query: "{ node(id: 1) { id } }"), context: store)
        #expect(result.errors.map(\.message) == [#"a Node value needs a "__typename" string naming its object type"#])
        #expect(result.data == ["node": nil])
    }

    @Test func resolverForAnUnknownFieldIsRefused() {
        #expect(throws: PluginError("a resolver for Query.tirps, a field the schema does not have")) {
            try ExecutableSchema(sdl: Self.sdl, resolvers: Resolvers<Store>(query: ["tirps": { _, _ in nil }]))
        }
        #expect(throws: PluginError("mutation resolvers, but the schema has no mutation type")) {
            try ExecutableSchema(sdl: "type Query { a: Int }", resolvers: Resolvers<Store>(mutation: ["a": { _, _ in nil }]))
        }
    }
}
