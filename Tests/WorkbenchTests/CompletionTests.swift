import TestSupport
import Testing
@testable import Workbench

/// What Tab completes, from the line up to the cursor, in a session with the bundled plugins.
@Suite struct CompletionTests {
    /// What `line` completes to once `commands` have run.
    func completion(of line: String, after commands: String...) async throws -> Completion {
        try await onThread {
            let session = try Session(output: { _ in }, errors: { _ in })
            for command in commands { session.execute(command) }
            return Completion(for: line, in: session)
        }
    }

    @Test func dotCommands() async throws {
        let several = try await completion(of: ".he")
        #expect(several.word == ".he")
        #expect(several.candidates == [".header", ".help"])
        #expect(several.action == .list([".header", ".help"]))
        #expect(try await completion(of: ".hel").action == .insert("p "))
        #expect(try await completion(of: ".qu").action == .insert("it "))
        #expect(try await completion(of: ".ex").candidates.contains(".exit"))   // aliases too
        #expect(try await completion(of: ".nothing").action == .none)
    }

    @Test func commandNamesAfterHelp() async throws {
        #expect(try await completion(of: ".help qu").action == .insert("it "))
        #expect(try await completion(of: ".help .qu").action == .insert("it "))
    }

    @Test func serviceCommands() async throws {
        #expect(try await completion(of: "tri").action == .insert("ps."))
        #expect(try await completion(of: "trips.re").candidates == ["trips.rename"])
        #expect(try await completion(of: "trips.re").action == .insert("name "))
        #expect(try await completion(of: "trips.").candidates.count > 1)
    }

    @Test func anEmptyLineOffersEveryCommand() async throws {
        let candidates = try await completion(of: "").candidates
        #expect(candidates.contains(".help"))
        #expect(candidates.contains("trips."))
    }

    @Test func pluginNamesAfterUse() async throws {
        #expect(try await completion(of: ".use tr").action == .insert("ips "))
        #expect(try await completion(of: ".use ").candidates == ["donuts", "feed", "purls", "trips"])
    }

    @Test func operationNamesOfTheCurrentPlugin() async throws {
        #expect(try await completion(of: ".run TripL", after: ".use trips").action == .insert("ist "))
        #expect(try await completion(of: ".watch Trip", after: ".use trips").action == .list(["TripDetail", "TripList"]))
    }

    @Test func recordKeys() async throws {
        let writes = [#".write Trip:1 {"name":"Lisbon"}"#, #".write Trip:2 {"name":"Porto"}"#, #".write User:1 {"name":"Ana"}"#]
        for command in [".inspect", ".refs", ".evict", ".write", ".expect record"] {
            let completion = try await completion(of: command + " Tr", after: writes[0], writes[1], writes[2])
            #expect(completion.action == .insert("ip:"), "\(command)")
        }
        #expect(try await completion(of: ".inspect Trip:", after: writes[0], writes[1]).action == .list(["Trip:1", "Trip:2"]))
        #expect(try await completion(of: ".expect data Tr", after: writes[0]).action == .none)
    }

    @Test func schemaFieldsInsideAnOperation() async throws {
        #expect(try await completion(of: "{ trips { na", after: ".use trips").action == .insert("me "))
        #expect(try await completion(of: "query { tri", after: ".use trips").action == .insert("p"))
        #expect(try await completion(of: ".watch { trips { desti", after: ".use trips").action == .insert("nation "))
        // A line that continues an operation begun on an earlier one.
        #expect(try await completion(of: "  trips { starts", after: ".use trips", "{").action == .insert("On "))
        #expect(try await completion(of: "{ trips { na", after: ".use purls").candidates == ["name"])
    }

    @Test func columnsFitTheWidth() {
        let candidates = ["CreateTrip", "DeleteTrip", "RenameTrip", "TripDetail", "TripList"]
        #expect(Completion.columns(candidates, width: 40) == ["CreateTrip  DeleteTrip  RenameTrip", "TripDetail  TripList"])
        #expect(Completion.columns(candidates, width: 5) == candidates)
    }

    @Test func schemaFieldNames() {
        let sdl = #"""
            "The root." type Query {
              "Page `page`: { braces } in a description."
              trips(first: Int = 3, "described" after: String): [Trip!]! @deprecated(reason: "use trip")
              trip(id: ID!): Trip  # a comment: notAField: Int
            }
            """
            A trip.
            """
            interface Named { name: String! }
            extend type Trip implements Named { id: ID!, name: String! }
            input TripInput { inputField: String }
            enum Kind { TRAIN PLANE }
            union Endpoint = Station | Airport
            """#
        #expect(SchemaFields.names(in: sdl) == ["id", "name", "trip", "trips"])
    }
}
