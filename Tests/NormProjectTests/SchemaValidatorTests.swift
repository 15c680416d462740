import NormProject
import Testing

/// An endpoint's schema alone (a plugin's manifest SDL, an HTTP endpoint's introspection)
/// validates operations typed for it, as a project's does.
@Suite struct SchemaValidatorTests {
    let sdl = """
        type Query { trips: [Trip!]! trip(id: ID!): Trip }
        type Trip @typePolicy(keyFields: "id") { id: ID! name: String! }
        """

    @Test func anOperationTheSchemaRefusesHasItsLineAndColumn() throws {
        let schema = try SchemaValidator(sdl: sdl, source: "the schema of trips")
        #expect(schema.validate(document: "{ trips { id name } }").isEmpty)
        #expect(schema.validate(document: "query T($id: ID!) {\n  trip(id: $id) { nmae }\n}").map(\.description)
                == [#"2:19: Cannot query field "nmae" on type "Trip". Did you mean "name"?"#])
        #expect(schema.validate(document: "{ trips { ...Header } }").map(\.description) == [#"1:14: Unknown fragment "Header"."#])
        #expect(schema.validate(document: "{ trips { id }").map(\.description) == ["1:15: Syntax Error: Expected Name, found <EOF>"])
    }

    @Test func aSchemaThatDoesNotBuildNamesItsSource() {
        #expect(throws: ProjectError([.init(file: "the schema of trips", line: 1, column: 20,
                                            message: #"Unknown type "Tirp"."#)])) {
            try SchemaValidator(sdl: "type Query { trip: Tirp }", source: "the schema of trips")
        }
        #expect(throws: ProjectError.self) { try SchemaValidator(sdl: "type Query {", source: "the schema of trips") }
    }
}
