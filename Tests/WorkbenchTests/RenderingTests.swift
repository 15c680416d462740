import Foundation
import NormCache
import NormClient
import Testing
@testable import Workbench

/// How data, records and watch emissions look in the tree, table and JSON modes.
@Suite struct RenderingTests {
    let plain = TextStyle(colour: false)

    func object(_ json: String) throws -> CacheObject {
        guard case .object(let object) = try JSON.parse(json, references: .apollo) else { throw CommandError("not an object") }
        return object
    }

    @Test func leavesArePathsInOrder() throws {
        let data = try object(#"{"trips":[{"id":"1","tags":[]},{"id":"2","to":{"city":"Porto"}}],"n":null}"#)
        #expect(DataDiff.leaves(of: data).map(\.path) == ["trips[0].id", "trips[0].tags", "trips[1].id", "trips[1].to.city", "n"])
    }

    @Test func diffShowsChangedAddedAndRemovedLeaves() throws {
        let old = try object(#"{"trips":[{"id":"1","name":"Lisbon"},{"id":"2","name":"Porto"}]}"#)
        let new = try object(#"{"trips":[{"id":"1","name":"Lisboa"}]}"#)
        #expect(DataDiff.lines(from: old, to: new) == [
            .removed(path: "trips[0].name", value: "Lisbon"), .added(path: "trips[0].name", value: "Lisboa"),
            .removed(path: "trips[1].id", value: "2"), .removed(path: "trips[1].name", value: "Porto"),
        ])
        #expect(DataDiff.lines(from: new, to: new).isEmpty)
        #expect(DataDiff.lines(from: [:], to: new) == [.added(path: "trips[0].id", value: "1"), .added(path: "trips[0].name", value: "Lisboa")])
    }

    /// A watch never shows no data: a cache-only watch the cache cannot answer says what is
    /// missing; data that comes shows whole; later changes are diffs against what was shown,
    /// never a line without a path.
    @Test func aWatchShowsDataWholeFirstThenDiffsAndNeverNoData() async throws {
        let test = try await TestSession.start(mode: .tree)
        // Apollo Client's semantics: a cache-only watch that has no answer yet hears what comes,
        // and an eviction reaches it (RenderingTests shows both kinds of report).
        let started = try await test.run(".semantics apollo-client", ".policy cache-only", #".watch { trip(id: "1") { name } }"#)
        #expect(started.output.prefix(2) == ["watch 1 (anonymous) incomplete after initial: keeps its last complete data",
                                             "missing: QUERY_ROOT.trip(id:1)"])
        let gained = try await test.run(#".write Trip:1 {"__typename":"Trip","name":"Lisbon"}"#,
                                        #".write QUERY_ROOT {"trip(id:1)":{"$reference":"Trip:1"}}"#)
        #expect(gained.output == ["watch 1 (anonymous) #1 write (QUERY_ROOT.trip(id:1))", "└─ trip Trip", "   └─ name: \"Lisbon\""])
        let lost = try await test.run(".evict Trip:1")
        #expect(lost.output.prefix(2) == ["watch 1 (anonymous) incomplete after evict: keeps its last complete data",
                                          "missing: Trip:1.__typename, Trip:1.name"])

        // Back, in table mode: a diff against the data shown last (Lisbon), not against nothing.
        let regainedInTable = try await test.run(".mode table", #".write Trip:1 {"__typename":"Trip","name":"Porto"}"#)
        #expect(regainedInTable.output == [
            "watch 1 (anonymous) #2 write (Trip:1.__typename, Trip:1.name)",
            "+---+-----------+----------+",
            "|   | path      | value    |",
            "+---+-----------+----------+",
            "| - | trip.name | \"Lisbon\" |",
            "| + | trip.name | \"Porto\"  |",
            "+---+-----------+----------+",
        ])
        // Data that comes back as it was shown is not shown again.
        try await test.run(".evict Trip:1")
        let same = try await test.run(#".write Trip:1 {"__typename":"Trip","name":"Porto"}"#)
        #expect(!same.output.contains { $0.hasPrefix("watch 1") })
    }

    /// A first emission shows its data whole, in table mode too.
    @Test func aFirstEmissionInTableModeIsTheWholeData() async throws {
        let test = try await TestSession.start(mode: .table)
        try await test.run(#".write Trip:1 {"__typename":"Trip","name":"Porto"}"#, #".write QUERY_ROOT {"trip(id:1)":{"$reference":"Trip:1"}}"#,
                           ".policy cache-only")
        let started = try await test.run(#".watch { trip(id: "1") { name } }"#)
        #expect(started.output.prefix(7) == [
            "watch 1 (anonymous) #1 initial",
            "+-----------------+---------+",
            "| field           | value   |",
            "+-----------------+---------+",
            "| trip.__typename | \"Trip\"  |",
            "| trip.name       | \"Porto\" |",
            "+-----------------+---------+",
        ])
    }

    @Test func treeNamesTypesAndCountsItems() throws {
        let data = try object(#"{"trips":[{"__typename":"Trip","id":"1","home":{"__ref":"x"}}],"count":1}"#)
        #expect(TreeView(style: plain).lines(of: data) == [
            "├─ trips: 1 item",
            "│  └─ [0] Trip",
            "│     ├─ id: \"1\"",
            "│     └─ home",
            "│        └─ __ref: \"x\"",
            "└─ count: 1",
        ])
        let record = try object(#"{"__typename":"Trip","destination":{"$reference":"Trip:1.destination"}}"#)
        #expect(TreeView(style: plain).lines(of: record) == ["├─ __typename: \"Trip\"", "└─ destination: → Trip:1.destination"])
    }

    @Test func tablesHaveARowPerObjectAndAColumnPerLeaf() throws {
        let data = try object(#"{"trips":[{"id":"1","to":{"city":"Lisbon"}},{"id":"2"}],"total":2}"#)
        #expect(TableView(style: plain).lines(ofData: data) == [
            "+-------+-------+",
            "| field | value |",
            "+-------+-------+",
            "| total | 2     |",
            "+-------+-------+",
            "trips:",
            "+-----+----------+",
            "| id  | to.city  |",
            "+-----+----------+",
            "| \"1\" | \"Lisbon\" |",
            "| \"2\" |          |",
            "+-----+----------+",
        ])
    }

    @Test func colourOnlyWhenAsked() {
        #expect(TextStyle(colour: false).added("+ x") == "+ x")
        #expect(TextStyle(colour: true).added("+ x") == "\u{1B}[32m+ x\u{1B}[0m")
    }

    @Test func jsonEventsCarryWorkbenchFields() {
        #expect(JSONRenderer.line(.keys(["Trip:1"])) == #"{"event":"keys","keys":["Trip:1"]}"#)
        #expect(JSONRenderer.line(.ok(command: ".use")) == #"{"event":"ok","command":".use"}"#)
        #expect(JSONRenderer.line(.error(message: "bad", at: SourceLocation(file: "a.repl", line: 3), source: nil))
            == #"{"event":"error","message":"bad","file":"a.repl","line":3}"#)
        let now = Date(timeIntervalSince1970: 1_900_000_000)
        #expect(JSONRenderer.line(.record(key: "Trip:9", record: nil, ages: [], now: now)) == #"{"event":"record","key":"Trip:9","record":null}"#)
        let ages = [NormalizedCache.FieldAge(field: "next", received: now.addingTimeInterval(-90), maxAge: 60, stale: true),
                    NormalizedCache.FieldAge(field: "name", received: nil, maxAge: nil, stale: false)]
        #expect(JSONRenderer.line(.record(key: "Trip:1", record: ["next": .reference("Trip:2"), "name": "Porto"], ages: ages, now: now))
            == #"{"event":"record","key":"Trip:1","record":{"next":{"$reference":"Trip:2"},"name":"Porto"},"ages":{"next":{"age":90,"maxAge":60,"stale":true},"name":{"age":null,"maxAge":null,"stale":false}}}"#)
    }

    /// What a command reports is stated once, as an event: each renderer writes its own form
    /// of it, the JSON of WORKBENCH.md and the text people read.
    @Test func aCommandsReportRendersAsTextAndAsJSON() {
        let renderer = TextRenderer(tables: false, style: plain)
        func both(_ event: Event) -> (text: [String], json: String) { (renderer.render(event).output, JSONRenderer.line(event)) }
        #expect(both(.exported(file: "a.json", records: 1)) == (["wrote 1 record to a.json"], #"{"event":"export","file":"a.json","records":1}"#))
        #expect(both(.imported(file: "a.json", records: 2)) == (["imported 2 records from a.json"], #"{"event":"import","file":"a.json","records":2}"#))
        #expect(both(.loggedOut(deleted: nil)) == (["logged out: the cache is cleared"], #"{"event":"logout","deleted":null}"#))
        #expect(both(.shell(command: "echo a; echo b", status: 0, output: "a\nb\n"))
            == (["a", "b"], #"{"event":"shell","command":"echo a; echo b","status":0,"output":"a\nb\n"}"#))
        #expect(both(.watching(id: 2, operation: nil)) == (["watching an anonymous query as watcher 2"], #"{"event":"watching","id":2,"op":null}"#))
        #expect(both(.typePolicies(own: [("Seat", .keyFields(["flight", "number"]))], endpoint: [("Money", .notNormalized)],
                                   endpointName: "trips", defaultKeyFields: ["id"]))
            == (["Seat: flight+number", "Money: never normalized (from trips)", "other types: id"],
                #"{"event":"keyfields","types":{"Seat":["flight","number"]},"endpoint":{"Money":null},"default":["id"]}"#))
    }

    @Test func caretPointsAtTheColumn() {
        #expect(SourceText(text: "query {\n  trips { }\n}", line: 2, column: 11).caret == ["    trips { }", "            ^"])
        #expect(SourceText(text: "{", line: 5, column: 1).caret.isEmpty)
    }
}
