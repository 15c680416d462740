import Testing
import NormCache

/// The one converter from an introspection result to SDL, for an HTTP endpoint's schema
/// and a project's `schema.json` alike.
@Suite struct IntrospectionSDLTests {
    static func named(_ kind: String, _ name: String) -> CacheValue { ["kind": .string(kind), "name": .string(name)] }
    static func nonNull(_ type: CacheValue) -> CacheValue { ["kind": "NON_NULL", "name": .null, "ofType": type] }

    @Test func aSchemaJSONBecomesSDLWithItsRootsOneOfInputsDeprecationsAndDirectives() throws {
        let schema: CacheValue = ["__schema": [
            "queryType": ["name": "Root"],
            "types": [
                ["kind": "OBJECT", "name": "Root", "interfaces": [], "fields": [
                    ["name": "trip", "args": [["name": "by", "type": Self.nonNull(Self.named("INPUT_OBJECT", "TripBy")), "defaultValue": .null]],
                     "type": Self.named("OBJECT", "Trip")],
                ]],
                ["kind": "OBJECT", "name": "Trip", "interfaces": [], "fields": [
                    ["name": "code", "args": [], "type": Self.nonNull(Self.named("SCALAR", "ID")), "isDeprecated": true, "deprecationReason": "use id"],
                ]],
                ["kind": "INPUT_OBJECT", "name": "TripBy", "isOneOf": true, "inputFields": [
                    ["name": "id", "type": Self.named("SCALAR", "ID")], ["name": "code", "type": Self.named("SCALAR", "ID")],
                ]],
                ["kind": "SCALAR", "name": "ID"],
                ["kind": "OBJECT", "name": "__Type", "fields": []],
            ],
            "directives": [
                ["name": "include", "args": [], "locations": ["FIELD"]],
                ["name": "cached", "args": [["name": "ttl", "type": Self.named("SCALAR", "Int")]], "isRepeatable": false, "locations": ["FIELD_DEFINITION", "OBJECT"]],
            ],
        ]]
        let expected = """
            schema {
              query: Root
            }

            type Root {
              trip(by: TripBy!): Trip
            }

            type Trip {
              code: ID! @deprecated(reason: "use id")
            }

            input TripBy @oneOf {
              id: ID
              code: ID
            }

            directive @cached(ttl: Int) on FIELD_DEFINITION | OBJECT

            """
        #expect(try IntrospectionSDL.sdl(of: schema) == expected)
        #expect(try IntrospectionSDL.sdl(of: ["data": schema]) == expected)   // a downloaded schema.json
    }

    /// What it cannot read is refused with what is wrong, never guessed (a type reference
    /// without a name is no `String`).
    @Test func whatItCannotReadIsRefused() {
        func problem(_ value: CacheValue) -> String? {
            do { _ = try IntrospectionSDL.sdl(of: value); return nil } catch { return error.description }
        }
        #expect(problem(["data": [:]]) == "it has no __schema.types list")
        #expect(problem(["__schema": ["types": [["kind": "GALAXY", "name": "Far"]]]]) == "type Far is of the unknown kind GALAXY")
        #expect(problem(["__schema": ["types": [["kind": "OBJECT", "name": "Q", "fields": [["name": "f", "args": [], "type": ["kind": "OBJECT"]]]]]]])
                == "the introspection result lacks a type reference's name (nested deeper than the query asks?)")
        #expect(problem(["__schema": ["types": [["kind": "ENUM", "name": "E", "enumValues": "A"]]]]) == "expected a list in the introspection result, not a string")
    }
}
