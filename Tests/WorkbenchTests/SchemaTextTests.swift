import Testing
@testable import Workbench

/// `.schema TYPE`: one type's definition out of the SDL, found by parsing it.
@Suite struct SchemaTextTests {
    let sdl = """
        schema { query: Query }

        "A trip, with its stops."
        type Trip implements Node @key(fields: "id") {
          id: ID!
          "Where it ends; { and } in a description do not count."
          destination: String
        }
        interface Node { id: ID! }
        union Result = Trip | Other
        enum Mode {
          AIR
          RAIL
        }
        input TripInput { name: String = "{" }
        scalar Date
        type Query { trips: [Trip!]! }
        extend type Query { count: Int }
        """

    /// Each kind prints as written, from the line naming it to the line closing it.
    @Test func eachKindOfDefinitionPrintsAsWritten() throws {
        #expect(try SchemaText.definition(of: "Trip", in: sdl) == """
            type Trip implements Node @key(fields: "id") {
              id: ID!
              "Where it ends; { and } in a description do not count."
              destination: String
            }
            """)
        #expect(try SchemaText.definition(of: "Node", in: sdl) == "interface Node { id: ID! }")
        #expect(try SchemaText.definition(of: "Result", in: sdl) == "union Result = Trip | Other")
        #expect(try SchemaText.definition(of: "Mode", in: sdl) == "enum Mode {\n  AIR\n  RAIL\n}")
        #expect(try SchemaText.definition(of: "TripInput", in: sdl) == #"input TripInput { name: String = "{" }"#)
        #expect(try SchemaText.definition(of: "Date", in: sdl) == "scalar Date")
        #expect(try SchemaText.definition(of: "Query", in: sdl) == "type Query { trips: [Trip!]! }")
    }

    /// A type the schema lacks is named, with the close ones; SDL that does not parse says where.
    @Test func whatItCannotFindItSays() {
        #expect(throws: CommandError(#"the schema has no type "Trp"; did you mean Trip?"#)) { try SchemaText.definition(of: "Trp", in: sdl) }
        #expect(throws: CommandError(#"the schema has no type "Stop""#)) { try SchemaText.definition(of: "Stop", in: sdl) }
        let error = #expect(throws: CommandError.self) { try SchemaText.definition(of: "Trip", in: "type Trip {\n  id:\n}") }
        #expect(error?.message.hasPrefix("the schema does not parse (line 3, column 1: ") == true)
        #expect(error?.message.hasSuffix(#"), so it cannot show "Trip""#) == true)
    }
}
