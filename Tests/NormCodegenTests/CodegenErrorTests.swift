import Foundation
import NormCodegen
import NormProject
import TestSupport
import Testing

/// Bad input gets a clear error naming the file and position, and nothing is written.
@Suite struct CodegenErrorTests {
    static let schema = "type Query { trip(id: ID!): Trip trips: [Trip!]! } type Trip { id: ID! name: String! }"

    /// What `normcache codegen` says of the project of `files`, and whether it wrote anything.
    func refusal(_ files: [String: String]) throws -> (problems: [String], wrote: Bool) {
        let project = try ProjectDirectory(files)
        let output = project.path + "/Generated"
        var problems: [String] = []
        do {
            let generated = try CodeGenerator(project: Project(directory: project.path)).files()
            _ = try GeneratedOutput(folder: output).write(generated)
        } catch let error as ProjectError {
            problems = error.problems.map(\.description)
        }
        return (problems, FileManager.default.fileExists(atPath: output))
    }

    @Test func anOperationTheSchemaRejects() throws {
        let found = try refusal(["schema.graphqls": Self.schema, "Trips.graphql": "query Trips {\n  trips { nmae }\n}"])
        #expect(found.problems == [#"Trips.graphql:2:11: Cannot query field "nmae" on type "Trip". Did you mean "name"?"#])
        #expect(!found.wrote)
    }

    @Test func aNameThatCannotBeASwiftIdentifier() throws {
        let found = try refusal(["schema.graphqls": Self.schema, "Trips.graphql": "query Trips {\n  trips { _: name }\n}"])
        #expect(found.problems == [#"Trips.graphql:2:11: field "_" cannot be a Swift name; give it an alias"#])
        #expect(!found.wrote)
    }

    @Test func twoOperationsWithOneName() throws {
        let found = try refusal(["schema.graphqls": Self.schema,
                                 "A.graphql": "query Trips { trips { id } }", "B.graphql": "query Trips { trips { name } }"])
        #expect(found.problems == ["B.graphql:1:1: a second operation named Trips (the first is at A.graphql:1:1)"])
        #expect(!found.wrote)
    }

    @Test func twoDefinitionsThatWouldBeOneType() throws {
        let found = try refusal(["schema.graphqls": Self.schema,
                                 "A.graphql": "query Trips { trips { ...TripsQuery } }\nfragment TripsQuery on Trip { id }"])
        #expect(found.problems == ["A.graphql:2:1: fragment TripsQuery and query Trips (A.graphql:1) would both be the type TripsQuery; rename one"])
        #expect(!found.wrote)
    }

    @Test func aFragmentNamedAfterNormAPIsTypes() throws {
        let found = try refusal(["schema.graphqls": Self.schema,
                                 "A.graphql": "query Trips { trips { ...JSONValue } }\nfragment JSONValue on Trip { id }"])
        #expect(found.problems == ["A.graphql:2:1: fragment JSONValue: its type JSONValue would hide NormAPI's JSONValue; rename it"])
    }

    @Test func enumValuesThatWouldBeOneCase() throws {
        let found = try refusal(["schema.graphqls": "type Query { cabin: Cabin }\nenum Cabin {\n  FIRST_CLASS\n  firstClass\n}",
                                 "A.graphql": "query A { cabin }"])
        #expect(found.problems == ["schema.graphqls:4:3: enum Cabin: values FIRST_CLASS and firstClass would both be the case firstClass"])
        #expect(!found.wrote)
    }

    @Test func anOutputFolderThatCannotBeWritten() throws {
        let project = try ProjectDirectory(["schema.graphqls": Self.schema, "Trips.graphql": "query Trips { trips { id } }"])
        let blocker = project.path + "/blocked"
        try "a file, not a folder".write(toFile: blocker, atomically: true, encoding: .utf8)
        let files = try CodeGenerator(project: Project(directory: project.path)).files()
        #expect(throws: GeneratedOutput.Failure.self) { try GeneratedOutput(folder: blocker + "/Generated").write(files) }
        do {
            _ = try GeneratedOutput(folder: blocker + "/Generated").write(files)
        } catch {
            #expect(error.description == "cannot write \(blocker)/Generated: \(blocker) is a file, not a folder")
        }
        #expect(try String(contentsOfFile: blocker, encoding: .utf8) == "a file, not a folder")
    }

    @Test func theCommandExitsTwoAndWritesNothing() throws {
        let project = try ProjectDirectory(["schema.graphqls": Self.schema, "Trips.graphql": "query Trips { trips { nmae } }"])
        #expect(Codegen.run(project: project.path, output: project.path + "/Out") == 2)
        #expect(!FileManager.default.fileExists(atPath: project.path + "/Out"))
    }
}
