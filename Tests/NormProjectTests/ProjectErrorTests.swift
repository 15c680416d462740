import Foundation
@testable import NormProject
import TestSupport
import Testing

/// Bad input of every kind is refused with the file, line and column at fault, all
/// problems in one error, and nothing loaded.
@Suite struct ProjectErrorTests {
    /// The problems loading the project of `files` reports, as `file:line:column: message`.
    func problems(_ files: [String: String]) throws -> [String] {
        let directory = try ProjectDirectory(files)
        do {
            _ = try Project(directory: directory.path)
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    /// Expects loading the project of `files` to report exactly `expected`.
    func expectProblems(_ files: [String: String], _ expected: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let found = try problems(files)
        #expect(found == expected, sourceLocation: sourceLocation)
    }

    let operations = ["App/Trips.graphql": "query Trips { trips { id name } }"]

    @Test func aMissingDirectory() {
        #expect(throws: ProjectError([.init(file: "/nonexistent/app", message: "no such directory")])) {
            try Project(directory: "/nonexistent/app")
        }
    }

    @Test func aDirectoryWithoutGraphQLFiles() throws {
        let found = try problems(["README.md": "nothing here"])
        #expect(found.count == 2)
        #expect(found.allSatisfy { $0.contains("no **/*.graphqls or **/schema.json file") || $0.contains("no **/*.graphql file") })
    }

    @Test func aConfigurationThatIsNotJSON() throws {
        try expectProblems(["apollo-codegen-config.json": "{\n  \"input\": {,\n}"], ["apollo-codegen-config.json:2:13: not JSON: expected a member name in double quotes"])
    }

    @Test func aConfigurationThatNamesNoFiles() throws {
        try expectProblems(["apollo-codegen-config.json": #"{"input": {"schemaSearchPaths": [], "operationSearchPaths": ["!x"]}}"#], [
            #"apollo-codegen-config.json: input.operationSearchPaths names no files: it needs path patterns (strings) such as "**/*.graphql""#,
            #"apollo-codegen-config.json: input.schemaSearchPaths names no files: it needs path patterns (strings) such as "**/*.graphql""#,
        ])
        try expectProblems(["apollo-codegen-config.json": #"{"schemaNamespace": "API"}"#], [
            "apollo-codegen-config.json: input.operationSearchPaths is missing: it names the files to read",
            "apollo-codegen-config.json: input.schemaSearchPaths is missing: it names the files to read",
        ])
    }

    @Test func patternsThatMatchNothing() throws {
        let config = #"{"input": {"schemaSearchPaths": ["graphql/*.graphqls"], "operationSearchPaths": ["Sources/**/*.graphql", "App/*.graphql"]}}"#
        try expectProblems(["apollo-codegen-config.json": config, "schema.graphqls": ProjectDirectory.schema].merging(operations) { $1 }, [
            #"apollo-codegen-config.json: input.operationSearchPaths: "Sources/**/*.graphql" matches no file"#,
            #"apollo-codegen-config.json: input.schemaSearchPaths: "graphql/*.graphqls" matches no file"#,
        ])
    }

    @Test func globsWithDeepWildcardsAndExclusions() throws {
        let config = #"{"input": {"schemaSearchPaths": ["**/*.graphqls"], "operationSearchPaths": ["**/*.graphql", "!**/Generated/**"]}}"#
        let directory = try ProjectDirectory([
            "apollo-codegen-config.json": config, "API/schema.graphqls": ProjectDirectory.schema,
            "App/Trips.graphql": "query Trips { trips { id } }", "App/Deep/Er/Trip.graphql": "query Trip { trip(id: 1) { name } }",
            "App/Generated/Old.graphql": "query Old { nope }", ".build/Copy.graphql": "query Copy { nope }",
        ])
        let project = try Project(directory: directory.path)
        #expect(project.schemaFiles == ["API/schema.graphqls"])
        #expect(project.operationFiles == ["App/Deep/Er/Trip.graphql", "App/Trips.graphql"])
    }

    @Test func syntaxErrorsInSchemaAndOperations() throws {
        try expectProblems(["schema.graphqls": "type Query {\n  trips: [Trip!\n}", "App/A.graphql": "query A { trips { id }", "App/B.graphql": "query B { x }"], [
            "App/A.graphql:1:23: Syntax Error: Expected Name, found <EOF>",
            "schema.graphqls:3:1: Syntax Error: Expected ], found }",
        ])
    }

    /// Text GraphQLSwift's parser would trap on (found by the fuzzer) is a problem in its
    /// file, in an operation file, a schema file, or an operation typed at the REPL.
    @Test func textTheParserCannotTakeIsAProblemNotACrash() throws {
        try expectProblems(["schema.graphqls": ProjectDirectory.schema, "App/A.graphql": #"query A { trip(id: "\u1"#], [
            #"App/A.graphql:1:21: the text ends inside the escape \u, which takes four hex digits"#,
        ])
        try expectProblems(["schema.graphqls": #"type Query { a(b: String = "\u1"#].merging(operations) { $1 }, [
            #"schema.graphqls:1:29: the text ends inside the escape \u, which takes four hex digits"#,
        ])
        let project = try Project(directory: try ProjectDirectory(["schema.graphqls": ProjectDirectory.schema].merging(operations) { $1 }).path)
        #expect(project.validate(document: String(repeating: "{", count: 200)).map(\.description) == ["1:129: nesting deeper than 128 levels"])
    }

    @Test func directivesThatNameFieldsTheTypeLacks() throws {
        let extensions = """
            extend type Trip @typePolicy(keyFields: "nope")
            extend type Query @fieldPolicy(forField: "nope", keyArgs: "id")
            extend type Query @fieldPolicy(forField: "trip", keyArgs: "tripId")
            extend type Query @fieldPolicy(forField: "trips", keyArgs: "")
            """
        try expectProblems(["schema.graphqls": ProjectDirectory.schema, "policies.graphqls": extensions].merging(operations) { $1 }, [
            #"policies.graphqls:1:18: @typePolicy(keyFields:) names "nope", which Trip does not have"#,
            #"policies.graphqls:2:19: @fieldPolicy(forField:) names "nope", which Query does not have"#,
            #"policies.graphqls:3:19: @fieldPolicy(keyArgs:) names "tripId", which Query.trip has no argument for"#,
            #"policies.graphqls:4:19: @fieldPolicy needs keyArgs: "…" naming at least one argument"#,
        ])
    }

    /// A max age that is not one is a problem at its directive, in the file it is in.
    @Test func maxAgeDirectivesThatAreNotOne() throws {
        let extensions = """
            extend type Trip @cacheControl(maxAge: -5)
            extend type Trip @cacheControlField(name: "nope", maxAge: 20)
            extend type Query @cacheControlField(name: "trips", maxAge: 20, inheritMaxAge: true)
            """
        try expectProblems(["schema.graphqls": ProjectDirectory.schema, "ages.graphqls": extensions].merging(operations) { $1 }, [
            "ages.graphqls:1:18: @cacheControl(maxAge: -5) for Trip: a max age is whole seconds, 0 or more",
            #"ages.graphqls:2:18: @cacheControlField(name:) names "nope", which Trip does not have"#,
            "ages.graphqls:3:19: @cacheControlField for Query.trips gives both maxAge and inheritMaxAge: true: give one",
        ])
    }

    @Test func keyFieldsAreScalarsAndInterfacesAgree() throws {
        let schema = """
            type Query { node: Node }
            interface Node { id: ID! }
            interface Named { name: String! }
            type Trip implements Node & Named { id: ID! name: String! owner: User }
            type User implements Node { id: ID! }
            """
        let extensions = """
            extend interface Node @typePolicy(keyFields: "id")
            extend interface Named @typePolicy(keyFields: "name")
            extend type User @typePolicy(keyFields: "id")
            extend type User @typePolicy(keyFields: "id")
            """
        let operations = ["App/N.graphql": "query N { node { id } }"]
        try expectProblems(["schema.graphqls": schema, "policies.graphqls": extensions].merging(operations) { $1 }, [
            "policies.graphqls:4:18: a second @typePolicy for User: a type has one",
            "schema.graphqls:4:6: Trip implements Node and Named, whose @typePolicy key fields differ: give Trip a @typePolicy of its own",
        ])
        try expectProblems(["schema.graphqls": schema, "p.graphqls": #"extend type Trip @typePolicy(keyFields: "id owner")"#].merging(operations) { $1 }, [#"p.graphqls:1:18: @typePolicy(keyFields:) names "owner", a User: key fields are scalars"#])
    }

    @Test func interfacePoliciesApplyToTheirImplementations() throws {
        let directory = try ProjectDirectory([
            "schema.graphqls": """
                type Query { node(id: ID!): Node }
                interface Node { id: ID! }
                type Trip implements Node { id: ID! }
                type Airport implements Node { id: ID! code: String! }
                """,
            "policies.graphqls": """
                extend interface Node @typePolicy(keyFields: "id")
                extend type Airport @typePolicy(keyFields: "code")
                extend type Query @fieldPolicy(forField: "node", keyArgs: "id")
                """,
            "App/Node.graphql": "query Node($id: ID!) { node(id: $id) { id } }",
        ])
        let project = try Project(directory: directory.path)
        #expect(project.schemaKnowledge.typePolicies["Trip"] == .keyFields(["id"]))
        #expect(project.schemaKnowledge.typePolicies["Airport"] == .keyFields(["code"]))
        #expect(project.fieldPolicies["Query", "node"] == ["id"])
    }

    @Test func schemaErrorsArePlacedAtWhatTheyName() throws {
        try expectProblems(["schema.graphqls": "type Query {\n  trips: [Tirp!]!\n}", "App/A.graphql": "query A { trips }"], [
            #"schema.graphqls:2:11: Unknown type "Tirp"."#,
        ])
    }

    /// What GraphQLSwift's SDL rules refuse is refused at the node at fault, in its file,
    /// with the other places named (Tests/NormProjectTests/SDLChecksTests.swift holds the
    /// checks to the rules).
    @Test func schemaDefinitionsThatClash() throws {
        let extensions = """
            type Trip { id: ID! }
            extend type Trip { name: String }
            extend type Nope @key
            type Ticket @include(if: true) { id: ID! }
            """
        try expectProblems(["schema.graphqls": ProjectDirectory.schema, "more.graphqls": extensions].merging(operations) { $1 }, [
            #"more.graphqls:1:6: There can be only one type named "Trip". (also at schema.graphqls:2:6)"#,
            #"more.graphqls:1:13: Field "Trip.id" can only be defined once. (also at schema.graphqls:2:13)"#,
            #"more.graphqls:2:20: Field "Trip.name" can only be defined once. (also at schema.graphqls:2:21)"#,
            #"more.graphqls:3:13: Cannot extend type "Nope" because it is not defined."#,
            #"more.graphqls:3:18: Unknown directive "@key"."#,
            #"more.graphqls:4:13: Directive "@include" may not be used on OBJECT."#,
        ])
    }

    @Test func duplicateNamesAndUnknownFragments() throws {
        try expectProblems([
            "schema.graphqls": ProjectDirectory.schema,
            "App/A.graphql": "query Trips { trips { ...TripFields } }\nfragment TripFields on Trip { id }",
            "App/B.graphql": "query Trips { trips { id } }\nfragment TripFields on Trip { name ...Missing }",
        ], [
            "App/B.graphql:1:1: a second operation named Trips (the first is at App/A.graphql:1:1)",
            "App/B.graphql:2:1: a second fragment named TripFields (the first is at App/A.graphql:2:1)",
            #"App/B.graphql:2:39: Unknown fragment "Missing"."#,
        ])
    }

    @Test func operationsInvalidAgainstTheSchemaAllAtOnce() throws {
        try expectProblems([
            "schema.graphqls": ProjectDirectory.schema,
            "App/A.graphql": "query A { trips { nmae } }",
            "App/B.graphql": "query B($id: ID!) { trip(id: $id) { ...Unused } }\nfragment Unused on Trip { id }\nfragment Orphan on Trip { owner }",
            "App/C.graphql": "{ trips { id } }",
        ], [
            #"App/A.graphql:1:19: Cannot query field "nmae" on type "Trip". Did you mean "name"?"#,
            #"App/B.graphql:3:27: Cannot query field "owner" on type "Trip"."#,
            "App/C.graphql:1:1: an operation without a name: codegen names each operation",
        ])
    }

    @Test func anIntrospectionResultWithExtensionFiles() throws {
        let introspection = """
            {"data": {"__schema": {"queryType": {"name": "Query"}, "types": [
              {"kind": "OBJECT", "name": "Query", "fields": [
                {"name": "trip", "args": [{"name": "id", "type": {"kind": "NON_NULL", "ofType": {"kind": "SCALAR", "name": "ID"}}, "defaultValue": null}],
                 "type": {"kind": "OBJECT", "name": "Trip"}}], "interfaces": []},
              {"kind": "OBJECT", "name": "Trip", "fields": [
                {"name": "id", "args": [], "type": {"kind": "NON_NULL", "ofType": {"kind": "SCALAR", "name": "ID"}}},
                {"name": "stops", "args": [], "type": {"kind": "LIST", "ofType": {"kind": "UNION", "name": "Stop"}}}], "interfaces": []},
              {"kind": "UNION", "name": "Stop", "possibleTypes": [{"kind": "OBJECT", "name": "Trip"}]},
              {"kind": "SCALAR", "name": "ID"}
            ], "directives": []}}}
            """
        let directory = try ProjectDirectory([
            "schema.json": introspection,
            "policies.graphqls": #"extend type Query @fieldPolicy(forField: "trip", keyArgs: "id")"# + "\n" + #"extend type Trip @typePolicy(keyFields: "id")"#,
            "App/Trip.graphql": "query Trip { trip(id: 1) { id stops { __typename } } }",
        ])
        let project = try Project(directory: directory.path)
        #expect(project.schemaFiles == ["policies.graphqls", "schema.json"])
        #expect(project.fieldPolicies["Query", "trip"] == ["id"])
        #expect(project.schemaKnowledge.typePolicies["Trip"] == .keyFields(["id"]))
        #expect(project.schemaKnowledge.possibleTypes.matches("Trip", condition: "Stop"))
        try expectProblems(["schema.json": "{\"data\": {}}", "App/A.graphql": "query A { a }"], ["schema.json: not an introspection result: it has no __schema.types list"])
    }

    /// A folder that keeps the schema both as SDL and as an introspection result (Apollo's
    /// StarWarsAPI does): one problem saying so, not one per type and field defined twice.
    @Test func theSchemaGivenBothAsSDLAndAsJSON() throws {
        let introspection = """
            {"data": {"__schema": {"queryType": {"name": "Query"}, "types": [
              {"kind": "OBJECT", "name": "Query", "fields": [{"name": "trips", "args": [], "type": {"kind": "LIST", "ofType": {"kind": "OBJECT", "name": "Trip"}}}], "interfaces": []},
              {"kind": "OBJECT", "name": "Trip", "fields": [{"name": "id", "args": [], "type": {"kind": "SCALAR", "name": "ID"}}], "interfaces": []},
              {"kind": "SCALAR", "name": "ID"}], "directives": []}}}
            """
        try expectProblems(["schema.json": introspection, "schema.graphqls": ProjectDirectory.schema].merging(operations) { $1 }, [
            "schema.graphqls:1:1: schema.graphqls defines 2 types that schema.json defines too (Query…): give the schema once, "
                + "in SDL or as JSON (remove one, or leave it out of input.schemaSearchPaths); SDL beside a JSON schema may only extend its types",
        ])
    }

    /// Schema definitions in a file read for operations: one problem for the file, saying
    /// which setting caught it and what to change.
    @Test func schemaDefinitionsInAnOperationFile() throws {
        try expectProblems(["schema.graphqls": ProjectDirectory.schema, "App/Types.graphql": "type A { a: Int }\nscalar B\nquery Q { trips { id } }"], [
            "App/Types.graphql:1:1: 2 schema definitions in a file read for operations and fragments: without "
                + "apollo-codegen-config.json, every *.graphql file holds operations; name a schema file *.graphqls",
        ])
        let config = #"{"input": {"schemaSearchPaths": ["*.graphqls"], "operationSearchPaths": ["**/*.graphql*"]}}"#
        try expectProblems(["apollo-codegen-config.json": config, "schema.graphqls": ProjectDirectory.schema].merging(operations) { $1 }, [
            "schema.graphqls:1:1: 2 schema definitions in a file read for operations and fragments (input.schemaSearchPaths reads it "
                + #"as schema too): input.operationSearchPaths matches it; narrow those patterns or add "!schema.graphqls" to them"#,
        ])
    }
}
