import Foundation
import NormCache
import TestSupport
import Testing
@testable import Workbench

// The workbench's dot-commands, run in-process in JSON mode: each test feeds a session
// lines and checks the JSON events docs/workbench.md promises for them.

/// A session driven by a test. Lines run on a thread of their own (``onThread(_:)``): a
/// session blocks while its commands' tasks run, which must not happen on Swift Testing's
/// few threads. Bundled plugins load only when a test asks for them, so most tests need
/// nothing but the cache.
final class TestSession: @unchecked Sendable {
    let session: Session
    private let printed = PrintedLines()

    private init(options: SessionOptions) throws {
        let printed = self.printed
        session = try Session(options: options, output: { printed.append(output: $0) }, errors: { printed.append(error: $0) })
    }

    /// `plugins`: load the plugins that `swift build` put beside the test runner (trips, feed, …).
    static func start(mode: OutputMode = .json, plugins: Bool = false) async throws -> TestSession {
        try await start(options: SessionOptions(loadsBundledPlugins: plugins, mode: mode))
    }

    static func start(options: SessionOptions) async throws -> TestSession {
        try await onThread { try TestSession(options: options) }
    }

    /// Everything the session has printed since it started.
    var printedSoFar: Printed { printed.since((0, 0)) }

    /// Runs `lines` as if typed, one after another, until the session finishes; returns what they printed.
    @discardableResult
    func run(_ lines: String...) async throws -> Printed {
        let before = printed.counts
        await onThread { [session] in
            for line in lines where !session.isFinished { session.execute(line) }
        }
        return printed.since(before)
    }

    /// Runs `body` with the session on a thread of its own, e.g. to write a response into its cache.
    func withSession<Value>(_ body: @escaping (Session) throws -> Value) async throws -> Value {
        try await onThread { [session] in try body(session) }
    }
}

/// What a session printed: its output lines and its error lines, appended from any thread.
final class PrintedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var output: [String] = []
    private var errors: [String] = []

    func append(output line: String) { lock.withLock { output.append(line) } }
    func append(error line: String) { lock.withLock { errors.append(line) } }

    var counts: (output: Int, errors: Int) { lock.withLock { (output.count, errors.count) } }

    func since(_ counts: (output: Int, errors: Int)) -> Printed {
        lock.withLock { Printed(output: Array(output[counts.output...]), errors: Array(errors[counts.errors...])) }
    }
}

/// The lines some commands printed; in JSON mode each output line is one event.
struct Printed {
    let output: [String]
    let errors: [String]

    /// Every output line as the JSON object it must be, with a string `"event"`.
    var events: [CacheObject] {
        get throws {
            try output.map { line in
                guard case .object(let event) = try JSON.parse(line), case .string? = event["event"] else {
                    throw HarnessError("not a JSON event: \(line)")
                }
                return event
            }
        }
    }

    /// The names of the events, in order: `["keys", "record"]`.
    var names: [String] {
        get throws { try events.map { $0.string("event") ?? "" } }
    }

    /// The events called `name`.
    func events(_ name: String) throws -> [CacheObject] { try events.filter { $0.string("event") == name } }

    /// The one event called `name`; throws when there is none or more than one.
    func event(_ name: String) throws -> CacheObject {
        let found = try events(name)
        guard found.count == 1 else { throw HarnessError("expected one \"\(name)\" event, got \(found.count) in \(output)") }
        return found[0]
    }
}

extension CacheObject {
    func string(_ key: String) -> String? { if case .string(let value)? = self[key] { value } else { nil } }
    func int(_ key: String) -> Int? { if case .int(let value)? = self[key] { Int(value) } else { nil } }
    func bool(_ key: String) -> Bool? { if case .bool(let value)? = self[key] { value } else { nil } }
    func strings(_ key: String) -> [String]? {
        guard case .list(let items)? = self[key] else { return nil }
        return items.compactMap { if case .string(let value) = $0 { value } else { nil } }
    }
}

/// A reference as a record prints it in JSON (docs/workbench.md): `{"$reference":"K"}`.
func reference(_ key: String) -> CacheValue { ["$reference": .string(key)] }

@Suite struct WorkbenchCommandTests {
    // MARK: session

    @Test func modeSwitchesHowOutputLooks() async throws {
        let bench = try await TestSession.start(mode: .tree)
        try await bench.run(#".write Trip:1 {"name":"Lisbon"}"#)
        #expect(try await bench.run(".keys").output == ["Trip:1"])

        let switched = try await bench.run(".mode json")
        #expect(try switched.events == [["event": "ok", "command": ".mode"]])
        #expect(try await bench.run(".mode").events == [["event": "mode", "mode": "json"]])
        #expect(try await bench.run(".keys").events == [["event": "keys", "keys": ["Trip:1"]]])

        #expect(try await bench.run(".mode tree").output.isEmpty, "tree mode says nothing for a silent command")
        #expect(try await bench.run(".keys").output == ["Trip:1"])
        let wrong = try await bench.run(".mode yaml")
        #expect(wrong.errors == [#"error: unknown mode "yaml"; the modes are tree, table and json"#])
        #expect(bench.session.failures == 1)
    }

    /// `.semantics` shows and switches whose answers the cache gives; the read after it
    /// follows, and a cleared cache is told to watchers only under Apollo Client's.
    @Test func semanticsShowsAndSwitches() async throws {
        let bench = try await TestSession.start()
        #expect(try await bench.run(".semantics").events == [["event": "semantics", "semantics": "apollo-ios"]])
        try await bench.run(#".write Trip:1 {"__typename":"Trip","name":"Lisbon"}"#,
                            #".write QUERY_ROOT {"trips":[{"$reference":"Trip:1"},{"$reference":"Trip:2"}]}"#,
                            ".policy cache-only")
        // Apollo iOS: Trip:2 does not exist, so the list is a miss.
        let miss = try await bench.run("{ trips { name } }").event("error").string("message") ?? ""
        #expect(miss.contains("missing: Trip:2.__typename, Trip:2.name"), "\(miss)")
        #expect(try await bench.run(".semantics apollo-client").events == [["event": "ok", "command": ".semantics"]])
        #expect(try await bench.run(".semantics").events == [["event": "semantics", "semantics": "apollo-client"]])
        let read = try await bench.run("{ trips { name } }").event("result")
        #expect(read.bool("complete") == true)
        let wrong = try await bench.run(".semantics relay").event("error")
        #expect(wrong.string("message") == #"unknown semantics "relay"; they are apollo-ios and apollo-client"#)
    }

    @Test func aClearIsUnheardUnderApolloIOSAndHeardUnderApolloClient() async throws {
        let bench = try await TestSession.start()
        try await bench.run(#".write Trip:1 {"__typename":"Trip","name":"Lisbon"}"#,
                            #".write QUERY_ROOT {"trip(id:1)":{"$reference":"Trip:1"}}"#, ".policy cache-only",
                            #".watch { trip(id: "1") { name } }"#)
        #expect(try await bench.run(".clear").events == [
            ["event": "unheard", "id": 1, "op": nil, "cause": "clear", "changed": ["QUERY_ROOT.trip(id:1)", "Trip:1.__typename", "Trip:1.name"]],
        ])
        try await bench.run(".semantics apollo-client", #".write Trip:1 {"__typename":"Trip","name":"Porto"}"#,
                            #".write QUERY_ROOT {"trip(id:1)":{"$reference":"Trip:1"}}"#)
        #expect(try await bench.run(".clear").events == [
            ["event": "incomplete", "id": 1, "op": nil, "cause": "clear", "missing": ["QUERY_ROOT.trip(id:1)"]],
        ])
    }

    @Test func aCommandWithNothingToSaySaysOkInJSON() async throws {
        let bench = try await TestSession.start()
        #expect(try await bench.run(#".write Trip:1 {"name":"Lisbon"}"#).events == [["event": "ok", "command": ".write"]])
        #expect(try await bench.run(".policy cache-only").events == [["event": "ok", "command": ".policy"]])
        #expect(try await bench.run(".keys").names == ["keys"], "a command that printed something adds no ok")
        #expect(try await bench.run(".inspect Nope:1").names == ["error"], "a failed command says no ok")
    }

    // MARK: cache

    @Test func keysAreSortedAndAGlobFiltersThem() async throws {
        let bench = try await TestSession.start()
        for key in ["User:1", "Trip:2", "Trip:10", "Trip:1"] { try await bench.run(".write \(key) {\"n\":1}") }
        #expect(try await bench.run(".keys").event("keys").strings("keys") == ["Trip:1", "Trip:10", "Trip:2", "User:1"])
        #expect(try await bench.run(".keys Trip:*").event("keys").strings("keys") == ["Trip:1", "Trip:10", "Trip:2"])
        #expect(try await bench.run(".keys Trip:?").event("keys").strings("keys") == ["Trip:1", "Trip:2"])
        #expect(try await bench.run(".keys Flight:*").event("keys").strings("keys") == [])
    }

    @Test func inspectPrintsTheRecordWithReferencesAsDollarReference() async throws {
        let bench = try await TestSession.start()
        try await bench.run(#".write Trip:1 {"name":"Lisbon","next":{"$reference":"Trip:2"},"stops":[{"$reference":"Stop:1"},null]}"#)
        let record = try await bench.run(".inspect Trip:1").event("record")
        #expect(record["key"] == "Trip:1")
        #expect(record["record"] == ["name": "Lisbon", "next": reference("Trip:2"), "stops": [reference("Stop:1"), nil]])
        // Each field's age: written just now, with no max age.
        #expect(record["ages"]?["name"]?["maxAge"] == .null && record["ages"]?["name"]?["stale"] == false)
    }

    @Test func inspectOfAnUnknownKeyFailsAndSuggestsCloseKeys() async throws {
        let bench = try await TestSession.start()
        try await bench.run(#".write Trip:1 {"n":1}"#, #".write Trip:2 {"n":2}"#)
        let close = try await bench.run(".inspect Trip:11").event("error")
        #expect(close.string("message") == #"no record "Trip:11"; did you mean Trip:1 or Trip:2?"#)
        let far = try await bench.run(".inspect Passenger:7").event("error")
        #expect(far.string("message") == #"no record "Passenger:7""#)
        #expect(bench.session.failures == 2)
    }

    @Test func refsListTheRecordFieldsThatReferToAKey() async throws {
        let bench = try await TestSession.start()
        try await bench.run(
            #".write QUERY_ROOT {"trips":[{"$reference":"Trip:1"},{"$reference":"Trip:2"}],"featured":{"$reference":"Trip:1"}}"#,
            #".write Trip:2 {"name":"Porto","previous":{"$reference":"Trip:1"}}"#,
            #".write Trip:1 {"name":"Lisbon"}"#)
        #expect(try await bench.run(".refs Trip:1").event("refs")
            == ["event": "refs", "key": "Trip:1", "from": ["QUERY_ROOT.trips", "QUERY_ROOT.featured", "Trip:2.previous"]])
        #expect(try await bench.run(".refs QUERY_ROOT").event("refs").strings("from") == [])
    }

    @Test func gcRemovesTheRecordsNoRootReachesAndReportsThem() async throws {
        let bench = try await TestSession.start()
        try await bench.run(
            #".write QUERY_ROOT {"trip":{"$reference":"Trip:1"}}"#,
            #".write Trip:1 {"name":"Lisbon"}"#,
            #".write Orphan:1 {"friend":{"$reference":"Orphan:2"}}"#,
            #".write Orphan:2 {"name":"alone"}"#)
        #expect(try await bench.run(".gc").events == [["event": "gc", "removed": ["Orphan:1", "Orphan:2"]]])
        #expect(try await bench.run(".keys").event("keys").strings("keys") == ["QUERY_ROOT", "Trip:1"])
        #expect(try await bench.run(".gc").events == [["event": "gc", "removed": []]])
    }

    @Test func gcDanglingRemovesTheReferencesToAbsentRecordsAndWhatIsLeftEmpty() async throws {
        let bench = try await TestSession.start()
        try await bench.run(
            #".write QUERY_ROOT {"repository":{"$reference":"Repository:0"}}"#,
            #".write Repository:0 {"stargazers":[{"$reference":"User:0"},{"$reference":"User:1"}],"pinned":{"$reference":"Pin:1"}}"#,
            #".write Pin:1 {"__typename":"Pin","by":{"$reference":"User:0"}}"#,
            #".write User:0 {"name":"Ada"}"#,
            #".write User:1 {"name":"Bo"}"#,
            ".evict User:0")
        #expect(try await bench.run(".gc").events == [["event": "gc", "removed": []]])
        #expect(try await bench.run(".gc dangling").events == [[
            "event": "gc", "removed": ["Pin:1"], "references": ["Pin:1.by", "Repository:0.pinned", "Repository:0.stargazers"],
        ]])
        #expect(try await bench.run(".inspect Repository:0").event("record")["record"] == ["stargazers": [reference("User:1")]])
        #expect(try await bench.run(".gc dangling").events == [["event": "gc", "removed": [], "references": []]])
        let unknown = try await bench.run(".gc everything").event("error")
        #expect(unknown.string("message") == #"unknown .gc argument "everything"; usage: .gc [stale|dangling]"#)
        #expect(try await bench.run(".gc dangling now").event("error").string("message") == "usage: .gc [stale|dangling]")
    }

    @Test func keyfieldsKeysATypeByTheFieldsGiven() async throws {
        let bench = try await TestSession.start()
        #expect(try await bench.run(".keyfields Seat flight number").events == [["event": "ok", "command": ".keyfields"]])
        try await bench.withSession { session in
            let cache = session.client.cache
            try cache.write(response: try JSON.parse(#"{"data":{"seat":{"__typename":"Seat","flight":"LH1","number":"14C","window":true}}}"#),
                            for: try cache.operation("{ seat { flight number window } }"))
        }
        #expect(try await bench.run(".keys Seat:*").event("keys").strings("keys") == ["Seat:LH1+14C"])
        #expect(try await bench.run(".inspect QUERY_ROOT").event("record")["record"]?["seat"] == reference("Seat:LH1+14C"))
    }

    @Test func keyfieldsWithoutFieldsMeansNeverNormalized() async throws {
        let bench = try await TestSession.start()
        try await bench.run(".keyfields Money")
        try await bench.withSession { session in
            let cache = session.client.cache
            try cache.write(response: try JSON.parse(#"{"data":{"trip":{"__typename":"Trip","id":"1","price":{"__typename":"Money","id":"EUR","amount":12}}}}"#),
                            for: try cache.operation("{ trip { id price { id amount } } }"))
        }
        #expect(try await bench.run(".keys").event("keys").strings("keys") == ["QUERY_ROOT", "Trip:1", "Trip:1.price"],
                "a Money is stored under its path, not as Money:EUR")
        #expect(try await bench.run(".inspect Trip:1").event("record")["record"]?["price"] == reference("Trip:1.price"))
    }

    @Test func keyfieldsWithoutATypeListsThePolicies() async throws {
        let bench = try await TestSession.start()
        try await bench.run(".keyfields Seat flight number", ".keyfields Money")
        let listed = try await bench.run(".keyfields").event("keyfields")
        #expect(listed["types"] == ["Money": nil, "Seat": ["flight", "number"]])
        #expect(listed["default"] == ["id"])
    }

    @Test func keyfieldsApplyToWhatAPluginServerAnswers() async throws {
        let bench = try await TestSession.start(plugins: true)
        try await bench.run(".use trips", ".keyfields Trip id name", ".run TripList")
        #expect(try await bench.run(".keys Trip:*").event("keys").strings("keys") == ["Trip:1+Lisbon", "Trip:2+Porto", "Trip:3+Kyoto"])
        #expect(bench.session.failures == 0)
    }

    /// What the engine says of a write (an object stored under its path key because its key
    /// field is absent) is printed once, after the command that caused it.
    @Test func aWriteTheEngineStoresItsOwnWayIsSaidAfterTheCommand() async throws {
        let bench = try await TestSession.start(plugins: true)
        try await bench.run(".use trips", ".keyfields Trip id")
        let events = try await bench.run(#"{ trip(id: "1") { name } }"#).events
        #expect(events.last == ["event": "warning", "message": "Trip at QUERY_ROOT.trip(id:1) has no id: stored under its path key"])
        #expect(try await bench.run(".keys").events("warning").isEmpty)
    }

    @Test func statsCountRecordsFieldsWatchersBytesHitsAndMisses() async throws {
        let bench = try await TestSession.start()
        try await bench.run(#".write QUERY_ROOT {"greeting":"hi"}"#, #".write Trip:1 {"id":"1","name":"Lisbon"}"#, ".policy cache-only")
        let start = try await bench.run(".stats").event("stats")
        #expect(start.int("records") == 2 && start.int("fields") == 3 && start.int("watchers") == 0)
        #expect((start.int("bytes") ?? 0) > 0)

        try await bench.run("{ greeting }")
        let afterHit = try await bench.run(".stats").event("stats")
        #expect(afterHit.int("hits") == start.int("hits").map { $0 + 1 } && afterHit.int("misses") == start.int("misses"))

        try await bench.run("{ farewell }")   // cache-only: a miss, and a failure
        let afterMiss = try await bench.run(".stats").event("stats")
        #expect(afterMiss.int("misses") == start.int("misses").map { $0 + 1 } && afterMiss.int("hits") == afterHit.int("hits"))

        try await bench.run(".watch { greeting }")
        #expect(try await bench.run(".stats").event("stats").int("watchers") == 1)
    }

    @Test func exportClearImportRoundTripsTheRecords() async throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let bench = try await TestSession.start()
        try await bench.run(
            #".write QUERY_ROOT {"trip":{"$reference":"Trip:1"}}"#,
            #".write Trip:1 {"__typename":"Trip","id":"1","name":"Lisbon","next":{"$reference":"Trip:2"},"tags":["sea",null]}"#,
            #".write Trip:2 {"name":"Porto","rating":4.5}"#)
        let keys = try await bench.run(".keys").event("keys")
        let record = try await bench.run(".inspect Trip:1").event("record")
        let ages = try bench.session.client.cache.ages(of: "Trip:1")

        let dumped = try await bench.run(".dump \(dir.file("dump.json").path)").event("export")
        #expect(dumped == ["event": "export", "file": .string(dir.file("dump.json").path), "records": 3])
        try await bench.run(".export \(dir.file("export.json").path)")
        #expect(Disk.bytes(dir.file("dump.json")) == Disk.bytes(dir.file("export.json")), ".dump FILE and .export FILE write the same")
        let text = try String(contentsOf: dir.file("dump.json"), encoding: .utf8)
        #expect(text.contains(#""ROOT_QUERY""#) && text.contains(#"{"__ref":"Trip:2"}"#), "Apollo Client extract() format: \(text)")
        #expect(text.contains(#""__META": {"extraRootIds":[],"normcacheReceived":{"#), "with when each record was received: \(text)")

        try await bench.run(".clear")
        #expect(try await bench.run(".keys").event("keys").strings("keys") == [])

        let imported = try await bench.run(".import \(dir.file("dump.json").path)").event("import")
        #expect(imported.int("records") == 3)
        #expect(try await bench.run(".keys").event("keys") == keys)
        #expect(try await bench.run(".inspect Trip:1").event("record")["record"] == record["record"])
        #expect(try bench.session.client.cache.ages(of: "Trip:1") == ages && ages?.first?.received != nil)
        #expect(bench.session.failures == 0)
    }

    @Test func dumpWithoutAFilePrintsTheSnapshot() async throws {
        let bench = try await TestSession.start()
        try await bench.run(#".write QUERY_ROOT {"trip":{"$reference":"Trip:1"}}"#, #".write Trip:1 {"name":"Lisbon"}"#)
        let snapshot = try await bench.run(".dump").event("dump")["snapshot"]
        #expect(snapshot?["ROOT_QUERY"]?["trip"] == ["__ref": "Trip:1"])
        #expect(snapshot?["Trip:1"] == ["name": "Lisbon"])
    }

    @Test func aMalformedImportFileIsRefusedByNameAndPlaceAndTheCacheKeepsItsRecords() async throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let file = try dir.write("broken.json", "{\n  \"Trip:1\": {\"name\": \"Porto\",}\n}\n")
        let bench = try await TestSession.start()
        try await bench.run(#".write Trip:1 {"name":"Lisbon"}"#)

        let error = try await bench.run(".import \(file.path)").event("error")
        let message = error.string("message") ?? ""
        #expect(message.hasPrefix(file.path + ": ") && message.contains("line 2, column"), "\(message)")
        #expect(bench.session.failures == 1)
        #expect(try await bench.run(".keys").event("keys").strings("keys") == ["Trip:1"])
        #expect(try await bench.run(".inspect Trip:1").event("record")["record"] == ["name": "Lisbon"])
    }

    /// Apollo Client's `__META` is no record: `.import` counts it out, `.gc` keeps what it
    /// retains, and `.export` writes it back, last, as Apollo Client's extract() does.
    @Test func exportWritesBackTheRecordsAnImportRetained() async throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let snapshot = """
            {
              "Book:1": {"__typename":"Book","isbn":"1"},
              "Book:2": {"__typename":"Book","isbn":"2"},
              "ROOT_QUERY": {"__typename":"Query","publisherOfBook({\\"isbn\\":\\"1\\"})":null},
              "__META": {"extraRootIds":["Book:1"]}
            }

            """
        let file = try dir.write("retained.json", snapshot)
        let bench = try await TestSession.start()
        #expect(try await bench.run(".import \(file.path)").event("import").int("records") == 3)
        #expect(try await bench.run(".gc").event("gc").strings("removed") == ["Book:2"])
        #expect(try await bench.run(".evict QUERY_ROOT.publisherOfBook").event("evict").strings("removed") == [#"QUERY_ROOT.publisherOfBook(isbn:1)"#])
        let exported = try await bench.run(".export \(dir.file("out.json").path)").event("export")
        #expect(exported.int("records") == 2)
        #expect(try String(contentsOf: dir.file("out.json"), encoding: .utf8) == """
            {
              "Book:1": {"__typename":"Book","isbn":"1"},
              "ROOT_QUERY": {"__typename":"Query"},
              "__META": {"extraRootIds":["Book:1"]}
            }

            """)
        #expect(bench.session.failures == 0)
    }

    // MARK: monitor

    @Test func monitorPrintsEachWriteWithItsKeysAndTheWatchersItReached() async throws {
        let bench = try await TestSession.start()
        try await bench.run(#".write QUERY_ROOT {"greeting":"hi"}"#, ".policy cache-only", ".watch { greeting }", ".monitor on")

        let watched = try await bench.run(#".write QUERY_ROOT {"greeting":"hello"}"#).event("write")
        #expect(watched.strings("keys") == ["QUERY_ROOT.greeting"])
        #expect(watched["watchers"] == [1])
        let unwatched = try await bench.run(#".write Other:1 {"x":1}"#).event("write")
        #expect(unwatched.strings("keys") == ["Other:1.x"])
        #expect(unwatched["watchers"] == [])

        try await bench.run(".monitor off")
        #expect(try await bench.run(#".write Other:1 {"x":2}"#).names == ["ok"])
    }

    @Test func monitorNamesTheWatchersThatReadATouchedRecordButWereNotReached() async throws {
        let bench = try await TestSession.start()
        try await bench.run(#".write QUERY_ROOT {"trip":{"$reference":"Trip:1"}}"#,
                            #".write Trip:1 {"__typename":"Trip","id":"1","name":"Lisbon","price":3}"#,
                            ".policy cache-only", ".watch query TripName { trip { name } }", ".monitor on")

        let price = try await bench.run(#".write Trip:1 {"price":4}"#).event("write")
        #expect(price["watchers"] == [] && price["unreached"] == [1])
        let name = try await bench.run(#".write Trip:1 {"name":"Porto"}"#).event("write")
        #expect(name["watchers"] == [1] && name["unreached"] == [])
        let elsewhere = try await bench.run(#".write Other:1 {"x":1}"#).event("write")
        #expect(elsewhere["unreached"] == [])

        try await bench.run(".mode tree")
        let text = try await bench.run(#".write Trip:1 {"price":5}"#)
        #expect(text.output.contains("  not reached: watcher 1 (TripName reads Trip:1, none of the fields changed)"))
    }

    // MARK: .graph

    /// A root listing one trip, which refers to another, and a watcher of the list's names.
    static let graphScene = [
        #".write QUERY_ROOT {"greeting":"hi","trips":[{"$reference":"Trip:1"}]}"#,
        #".write Trip:1 {"__typename":"Trip","id":"1","name":"Lisbon","next":{"$reference":"Trip:2"}}"#,
        #".write Trip:2 {"__typename":"Trip","id":"2","name":"Porto"}"#,
        ".policy cache-only",
        ".watch query TripNames { trips { name } }",
    ]

    @Test func graphOfAWatcherDrawsTheRecordsItDependsOn() async throws {
        let bench = try await TestSession.start()
        for line in Self.graphScene { try await bench.run(line) }
        let graph = try await bench.run(".graph 1").event("graph")
        #expect(graph["key"] == .null && graph["watcher"] == 1 && graph["depth"] == 0)
        #expect(graph.string("dot") == #"""
            digraph records {
              node [shape=record];
              "QUERY_ROOT" [label="{QUERY_ROOT|greeting: \"hi\"\l}"];
              "Trip:1" [label="{Trip:1|__typename: \"Trip\"\lid: \"1\"\lname: \"Lisbon\"\l}"];
              "QUERY_ROOT" -> "Trip:1" [label="trips[0]"];
            }
            """#)
        let deeper = try await bench.run(".graph 1 1").event("graph").string("dot") ?? ""
        #expect(deeper.contains(#""Trip:1" -> "Trip:2" [label="next"];"#))
    }

    @Test func graphOfAKeyDefaultsToDepthOneAndWritesDOT() async throws {
        let bench = try await TestSession.start()
        for line in Self.graphScene { try await bench.run(line) }
        let graph = try await bench.run(".graph QUERY_ROOT").event("graph")
        #expect(graph.string("key") == "QUERY_ROOT" && graph["depth"] == 1 && graph["file"] == nil)
        let dot = graph.string("dot") ?? ""
        #expect(dot.contains(#""QUERY_ROOT" -> "Trip:1" [label="trips[0]"];"#) && !dot.contains("Trip:2"))

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("graph-\(UUID().uuidString).dot").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let written = try await bench.run(".graph QUERY_ROOT 1 \(file)").event("graph")
        #expect(written.string("file") == file)
        #expect(try String(contentsOfFile: file, encoding: .utf8) == dot + "\n")
    }

    @Test func graphRendersSVGWithGraphvizWhenItIsInstalled() async throws {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        guard path.split(separator: ":").contains(where: { FileManager.default.isExecutableFile(atPath: $0 + "/dot") }) else { return }
        let bench = try await TestSession.start()
        for line in Self.graphScene { try await bench.run(line) }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("graph-\(UUID().uuidString).svg").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        #expect(try await bench.run(".graph Trip:1 2 \(file)").event("graph").string("file") == file)
        let svg = try String(contentsOfFile: file, encoding: .utf8)
        #expect(svg.contains("<svg") && svg.contains("Lisbon") && svg.contains("Porto"))

        let failed = try await bench.run(".graph Trip:1 1 /nonexistent-dir/graph.svg").event("error").string("message") ?? ""
        #expect(failed.hasPrefix("/nonexistent-dir/graph.svg: dot exited with status") && failed.contains("/nonexistent-dir/graph.svg"))
    }

    @Test func graphRefusesBadArgumentsAndWritesNothing() async throws {
        let bench = try await TestSession.start()
        for line in Self.graphScene { try await bench.run(line) }
        let message = { (line: String) async throws -> String in try await bench.run(line).event("error").string("message") ?? "" }
        #expect(try await message(".graph Trip:11") == #"no record "Trip:11"; did you mean Trip:1 or Trip:2?"#)
        #expect(try await message(".graph 7") == #"no watcher "7" (.watches lists them)"#)
        #expect(try await message(".graph Trip:1 -1") == #".graph: DEPTH must be a whole number 0 or more, not "-1""#)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("graph-\(UUID().uuidString).txt").path
        #expect(try await message(".graph Trip:1 1 \(file)") == "\(file): .graph writes a FILE ending .dot, .svg or .png (and DEPTH is a whole number, 0 or more)")
        #expect(try await message(".graph Trip:1 two").hasPrefix("two: .graph writes a FILE ending"))
        #expect(!FileManager.default.fileExists(atPath: file))
        #expect(try await bench.run(".graph Trip:1 1 x.dot 2").names == ["error"])
    }

    // MARK: .expect

    /// One `.expect` form: the lines that set the scene (after a common one), a claim that holds and one that does not.
    struct ExpectForm: Sendable, CustomTestStringConvertible {
        let setup: [String]
        let holds: String
        let fails: String
        /// What the failure message must also say (its expected and actual values).
        let saying: String
        var testDescription: String { holds }

        init(_ setup: [String] = [], holds: String, fails: String, saying: String) {
            (self.setup, self.holds, self.fails, self.saying) = (setup, holds, fails, saying)
        }

        /// A cache-only session with a record, a watcher of `{ greeting }` that emitted twice, and a result from the cache.
        static let scene = [
            #".write QUERY_ROOT {"greeting":"hi","trip":{"$reference":"Trip:1"}}"#,
            #".write Trip:1 {"__typename":"Trip","id":"1","name":"Lisbon"}"#,
            ".policy cache-only",
            ".watch { greeting }",
            #".write QUERY_ROOT {"greeting":"hello"}"#,
            "{ trip { name } }",
        ]

        static let all: [ExpectForm] = [
            ExpectForm(holds: #"data trip.name == "Lisbon""#, fails: #"data trip.name == "Porto""#, saying: #"expected "Porto", got "Lisbon""#),
            ExpectForm(holds: "source cache", fails: "source network", saying: "expected network, got cache"),
            ExpectForm(["{ greeting farewell }"], holds: "missing QUERY_ROOT.farewell", fails: "missing QUERY_ROOT.greeting",
                       saying: "expected QUERY_ROOT.greeting, got QUERY_ROOT.farewell"),
            ExpectForm(holds: #"record Trip:1.name == "Lisbon""#, fails: #"record Trip:1.name == "Porto""#, saying: #"expected "Porto", got "Lisbon""#),
            ExpectForm(holds: #"record QUERY_ROOT.trip == {"$reference":"Trip:1"}"#, fails: #"record QUERY_ROOT.trip == {"$reference":"Trip:2"}"#,
                       saying: #"got {"$reference":"Trip:1"}"#),
            ExpectForm(holds: "record Trip:9 absent", fails: "record Trip:1 absent", saying: #"expected absent, got {"__typename":"Trip""#),
            ExpectForm(holds: "emissions 1 == 2", fails: "emissions 1 == 3", saying: "expected 3, got 2"),
            ExpectForm(holds: "watch 1 #1 cause initial", fails: "watch 1 #2 cause initial", saying: "expected initial, got write"),
            ExpectForm(holds: "watch 1 cause write", fails: "watch 1 #3 cause write", saying: "watcher 1 emitted 2 times, so there is no #3"),
            ExpectForm([".watchlog 1"], holds: "watch 1 #2 cause write", fails: "watch 1 #1 cause initial",
                       saying: "watch 1 #1 is no longer kept: the log keeps the last 1 emission of each watcher, here #2–#2"),
            ExpectForm([".watchlog 1"], holds: "emissions 1 == 2", fails: "emissions 1 == 1", saying: "expected 1, got 2"),
            ExpectForm(holds: #"watch 1 #1 data greeting == "hi""#, fails: #"watch 1 data greeting == "hi""#, saying: #"expected "hi", got "hello""#),
            ExpectForm(holds: "watchers == 1", fails: "watchers == 0", saying: "expected 0, got 1"),
            ExpectForm(holds: "requests == 0", fails: "requests == 1", saying: "expected 1, got 0"),
            ExpectForm([".inspect Nope:1"], holds: #"error "no record""#, fails: #"error "timed out""#,
                       saying: #"expected an error containing "timed out", got no record "Nope:1""#),
        ]
    }

    @Test(arguments: ExpectForm.all)
    func eachExpectFormHoldsOrFailsAsAnExpectEvent(_ form: ExpectForm) async throws {
        let bench = try await TestSession.start()
        for line in ExpectForm.scene + form.setup { try await bench.run(line) }

        let held = try await bench.run(".expect " + form.holds).event("expect")
        #expect(held.bool("ok") == true, "\(held)")
        #expect(held.string("message") == form.holds)
        #expect(bench.session.failedExpectations == 0)
        let failures = bench.session.failures

        let failed = try await bench.run(".expect " + form.fails).event("expect")
        #expect(failed.bool("ok") == false)
        let message = failed.string("message") ?? ""
        #expect(message.hasPrefix(form.fails + ": ") && message.contains(form.saying), "\(message)")
        #expect(bench.session.failedExpectations == 1)
        #expect(bench.session.failures == failures, "a failed expectation is not a failed command")
    }

    @Test func aFailedExpectationNamesItsScriptAndLine() async throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let script = try dir.write("test.repl", """
            .write Trip:1 {"name":"Lisbon"}
            # the name
            .expect record Trip:1.name == "Porto"
            """)
        let bench = try await TestSession.start()
        let failed = try await bench.run(".read \(script.path)").event("expect")
        #expect(failed.string("file") == script.path && failed.int("line") == 3)
        #expect(failed.bool("ok") == false)
        #expect(failed.string("message")?.hasSuffix(#"expected "Porto", got "Lisbon""#) == true)
    }

    @Test func exitStatusIsOneForAFailedExpectationAndTwoForAFailedCommand() async throws {
        let bench = try await TestSession.start()
        try await bench.run(#".write Trip:1 {"name":"Lisbon"}"#, #".expect record Trip:1.name == "Lisbon""#)
        #expect(bench.session.exitStatus == 0)
        try await bench.run(#".expect record Trip:1.name == "Porto""#)
        #expect(bench.session.exitStatus == 1)
        #expect(bench.session.failedExpectations == 1 && bench.session.failures == 0)
        try await bench.run(".inspect Nope:1")
        #expect(bench.session.exitStatus == 2)
        #expect(bench.session.failedExpectations == 1 && bench.session.failures == 1)
    }

    @Test func expectErrorExcusesTheFailureJustBeforeIt() async throws {
        let bench = try await TestSession.start()
        try await bench.run(".inspect Nope:1")
        #expect(bench.session.exitStatus == 2)
        let excused = try await bench.run(#".expect error "no record""#).event("expect")
        #expect(excused.bool("ok") == true)
        #expect(bench.session.failures == 0 && bench.session.exitStatus == 0)
        try await bench.run(#".expect error "Nope:1""#)
        #expect(bench.session.failures == 0, "a second .expect error of the same failure excuses nothing more")
        #expect(bench.session.failedExpectations == 0)

        try await bench.run(".keys")
        let nothing = try await bench.run(#".expect error "no record""#).event("expect")
        #expect(nothing.bool("ok") == false)
        #expect(nothing.string("message")?.contains("the last command succeeded") == true)
        #expect(bench.session.exitStatus == 1)
    }

    @Test func expectRequestsCountsRequestsByStatus() async throws {
        let bench = try await TestSession.start(plugins: true)
        try await bench.run(".use trips", ".run TripList", ".network offline", ".policy network-only", ".run TripList", #".expect error "offline""#)
        let claims = try await bench.run(
            ".expect requests == 2", ".expect requests ok == 1", ".expect requests offline == 1", ".expect requests cancelled == 0",
            ".expect requests offline == 2")
        let results = try claims.events("expect").map { $0.bool("ok") }
        #expect(results == [true, true, true, true, false], "\(claims.output)")
        #expect(try claims.events("expect").last?.string("message") == "requests offline == 2: expected 2, got 1")
        #expect(bench.session.failures == 0 && bench.session.exitStatus == 1)
    }

    @Test func expectOutputFindsALineTheLastCommandPrintedAsPeopleReadIt() async throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let script = try dir.write("output.repl", """
            .write Trip:1 {"name":"Lisbon"}
            .inspect Trip:1
            .expect output "name: \\"Lisbon\\""
            .expect record Trip:1.name == "Lisbon"
            .expect output "Trip:1"
            .expect output "Porto"
            .shell true
            .expect output "Trip:1"
            """)
        let bench = try await TestSession.start()   // JSON mode: the claim reads the lines the tree mode prints
        let claims = try await bench.run(".read \(script.path)").events("expect")
        #expect(claims.map { $0.bool("ok") } == [true, true, true, false, false])
        #expect(claims.map { $0.int("line") } == [3, 4, 5, 6, 8])
        #expect(claims.allSatisfy { $0.string("file") == script.path })
        #expect(claims[3].string("message") == #"output "Porto": expected a line containing "Porto", got "Trip:1", "└─ name: \"Lisbon\"""#,
                "an expectation between them leaves the last command's output as it was")
        #expect(claims[4].string("message") == #"output "Trip:1": expected a line containing "Trip:1", got no output"#)
        #expect(bench.session.failedExpectations == 2 && bench.session.failures == 0)
    }

    @Test func expectOutputSeesAServiceCommandsLinesAndTheRequestsItSetOff() async throws {
        let bench = try await TestSession.start(plugins: true)
        try await bench.run("feed.load")
        let claims = try await bench.run(#".expect output "6 items (network)""#, #".expect output "network feed Feed: ok""#,
                                         #".expect output "state feed: loaded (6 items)""#)
        #expect(try claims.events("expect").map { $0.bool("ok") } == [true, true, true], "\(claims.output)")
    }

    @Test func expectStateChecksTheStateAServiceAnnouncedLast() async throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let script = try dir.write("state.repl", """
            .expect state feed == loaded
            .network fail 1
            feed.load
            .expect error "injected failure"
            .expect state feed == error
            feed.retry
            .expect state feed == loaded
            .expect state feed == error
            """)
        let bench = try await TestSession.start(plugins: true)
        let claims = try await bench.run(".read \(script.path)").events("expect")
        #expect(claims.map { $0.bool("ok") } == [false, true, true, true, false])
        #expect(claims.map { $0.int("line") } == [1, 4, 5, 7, 8])
        #expect(claims.allSatisfy { $0.string("file") == script.path })
        #expect(claims[0].string("message") == "state feed == loaded: expected loaded, got no state announced by feed")
        #expect(claims[4].string("message") == "state feed == error: expected error, got loaded")
        #expect(bench.session.failedExpectations == 2 && bench.session.failures == 0)
        let usage = try await bench.run(".expect state feed loaded").event("error")
        #expect(usage.string("message")?.hasPrefix("usage: .expect ") == true)
        #expect(usage.string("message")?.contains("state SERVICE == STATE") == true)
    }

    // MARK: scripts

    @Test func readRunsNestedScriptsRelativeToTheScriptThatReadsThem() async throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let outer = try dir.write("X/a.repl", """
            .write A:1 {"n":1}
            .read sub/b.repl
            .expect record C:1.n == 3
            """)
        let middle = try dir.write("X/sub/b.repl", """
            .write B:1 {"n":2}

            .read c.repl
            .bogus
            """)
        let inner = try dir.write("X/sub/c.repl", """
            # the innermost script
            .write C:1 {"n":3}
            .inspect Nope:1
            """)
        let bench = try await TestSession.start()
        let printed = try await bench.run(".read \(outer.path)")
        let errors = try printed.events("error")
        #expect(errors.map { $0.string("file") } == [inner.path, middle.path])
        #expect(errors.map { $0.int("line") } == [3, 4])
        #expect(try printed.event("expect").bool("ok") == true)
        #expect(try await bench.run(".keys").event("keys").strings("keys") == ["A:1", "B:1", "C:1"])
    }

    @Test func aScriptThatReadsItselfIsStoppedWithAClearError() async throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let script = try dir.write("loop.repl", ".read loop.repl\n")
        let bench = try await TestSession.start()
        let error = try await bench.run(".read \(script.path)").event("error")
        #expect(error.string("message")?.contains("does one read itself?") == true, "\(error)")
        #expect(bench.session.failures == 1)
        #expect(try await bench.run(".keys").names == ["keys"], "the session goes on")
    }

    @Test func outputSendsOutputToAFileUntilItIsTurnedOff() async throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let file = dir.file("out.jsonl")
        let bench = try await TestSession.start()
        try await bench.run(#".write Trip:1 {"name":"Lisbon"}"#)
        let redirected = try await bench.run(".output \(file.path)", ".keys", ".inspect Trip:1")
        #expect(redirected.output.isEmpty)
        #expect(try await bench.run(".output").names == ["ok"], "output is back")
        #expect(try await bench.run(".keys").names == ["keys"])

        let written = Printed(output: try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map(String.init), errors: [])
        #expect(try written.names == ["ok", "keys", "record"])
        #expect(try written.event("record").string("key") == "Trip:1")
    }

    @Test func onceSendsOnlyTheNextCommandsOutputToAFile() async throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let file = dir.file("once.jsonl")
        let bench = try await TestSession.start()
        try await bench.run(#".write Trip:1 {"name":"Lisbon"}"#, ".once \(file.path)")
        #expect(try await bench.run(".keys").output.isEmpty, "the next command's output goes to the file")
        #expect(try await bench.run(".keys").names == ["keys"], "the one after it prints as usual")
        let written = Printed(output: try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map(String.init), errors: [])
        #expect(try written.events("keys").count == 1)
    }

    @Test func onceStopsRedirectingAfterOneCommand() async throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let bench = try await TestSession.start()
        try await bench.run(".once \(dir.file("once.jsonl").path)", ".keys")
        #expect(try await bench.run(".keys").names == ["keys"])
    }

    @Test func shellPrintsWhatTheCommandWrote() async throws {
        let bench = try await TestSession.start(mode: .tree)
        #expect(try await bench.run(".shell echo hi").output == ["hi"])
        try await bench.run(".mode json")
        #expect(try await bench.run(".shell echo hi").event("shell") == ["event": "shell", "command": "echo hi", "status": 0, "output": "hi\n"])
        #expect(bench.session.failures == 0)
    }

    @Test func shellFailsOnANonzeroExitStatus() async throws {
        let bench = try await TestSession.start()
        let printed = try await bench.run(".shell exit 3")
        #expect(try printed.event("shell").int("status") == 3)
        #expect(try printed.event("error").string("message") == #".shell: "exit 3" exited with status 3"#)
        #expect(bench.session.failures == 1)
    }

    /// As sqlite3's `.shell` (`system()`): it returns when the shell exits, so a server a
    /// script starts in the background runs on; the shell gets none of the session's other
    /// descriptors, and a signal's end is 128 + its number.
    @Test func shellReturnsWhenTheShellExitsNotItsBackgroundCommands() async throws {
        let bench = try await TestSession.start()
        let started = ContinuousClock.now
        let printed = try await bench.run(".shell echo started; (sleep 30; echo late) &")
        #expect(ContinuousClock.now - started < .seconds(10))
        #expect(try printed.event("shell").string("output") == "started\n")
        let descriptor = open("/dev/null", O_RDONLY)   // not close-on-exec: only the spawn keeps it from the shell
        defer { close(descriptor) }
        let seen = try await bench.run(".shell [ -e /dev/fd/\(descriptor) ] && echo inherited \(descriptor); true")
        #expect(try seen.event("shell").string("output") == "", "the session's open files are not the shell's")
        #expect(try await bench.run(".shell kill -9 $$").event("shell").int("status") == 137)
        let folder = try ScratchDirectory()
        defer { folder.remove() }
        // In the script's folder, whatever its name (the shell is handed it as a word, not as text).
        try FileManager.default.createDirectory(atPath: folder.file("it's$HOME").path, withIntermediateDirectories: true)
        try "pwd\n".write(to: folder.file("it's$HOME/where.sh"), atomically: true, encoding: .utf8)
        try ".shell sh where.sh\n".write(to: folder.file("it's$HOME/script.repl"), atomically: true, encoding: .utf8)
        #expect(try await bench.run(".read \(folder.file("it's$HOME/script.repl").path)").event("shell").string("output")?.hasSuffix("/it's$HOME\n") == true)
    }

    @Test func timerPrintsHowLongEachCommandTook() async throws {
        let bench = try await TestSession.start()
        try await bench.run(".timer on")
        let timed = try await bench.run(".keys")
        #expect(try timed.names == ["keys", "timer"])
        let slow = try await bench.run(".shell sleep 0.2")
        if case .double(let ms)? = try slow.event("timer")["ms"] {
            #expect(ms >= 200, "the timer counts the whole command")
        } else {
            Issue.record("no ms: \(slow.output)")
        }
        try await bench.run(".timer off")
        #expect(try await bench.run(".keys").names == ["keys"])
    }

    @Test func echoPrintsEachCommandBeforeItRuns() async throws {
        let bench = try await TestSession.start()
        try await bench.run(".echo on")
        #expect(try await bench.run(".keys").events == [["event": "echo", "line": ".keys"], ["event": "keys", "keys": []]])
        try await bench.run(".echo off")
        #expect(try await bench.run(".keys").names == ["keys"])
    }

    @Test func bailStopsAScriptAtItsFirstFailure() async throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let script = try dir.write("bail.repl", """
            .write Before:1 {"n":1}
            .bogus
            .write After:1 {"n":1}
            """)
        let bench = try await TestSession.start()
        try await bench.run(".bail on", ".read \(script.path)")
        #expect(bench.session.isFinished)
        #expect(bench.session.exitStatus == 2)
        #expect(bench.session.client.cache.keys() == ["Before:1"])
    }

    @Test func bailStopsAtAFailedExpectationToo() async throws {
        let bench = try await TestSession.start()
        try await bench.run(".bail on", ".expect watchers == 5")
        #expect(bench.session.isFinished)
        #expect(bench.session.exitStatus == 1)
    }

    @Test func withoutBailAFailureDoesNotStopTheSession() async throws {
        let bench = try await TestSession.start()
        try await bench.run(".bogus", #".write After:1 {"n":1}"#)
        #expect(!bench.session.isFinished)
        #expect(bench.session.client.cache.keys() == ["After:1"])
    }

    // MARK: GraphQL input

    @Test func aGraphQLSyntaxErrorSaysLineAndColumn() async throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let script = try dir.write("syntax.repl", """
            .write QUERY_ROOT {"a":1}
            { a b(: 1) }
            """)
        let bench = try await TestSession.start()
        let error = try await bench.run(".read \(script.path)").event("error")
        #expect(error.string("file") == script.path)
        #expect(error.int("line") == 2)
        #expect(error.int("column") == 7)
    }

    @Test func aGraphQLSyntaxErrorHasACaretUnderItsColumnInTreeMode() async throws {
        let bench = try await TestSession.start(mode: .tree)
        let printed = try await bench.run("{ a b(: 1) }")
        #expect(printed.errors.first?.hasPrefix("error: ") == true)
        let caret = try #require(printed.errors.lastIndex { $0.trimmingCharacters(in: .whitespaces) == "^" }, "\(printed.errors)")
        #expect(caret > 0 && printed.errors[caret - 1].hasSuffix("{ a b(: 1) }"))
        let column = printed.errors[caret].count - printed.errors[caret - 1].count + "{ a b(: 1) }".count
        #expect(column == 7, "the caret stands under the \":\"")
    }

    @Test func aSyntaxErrorInAMultiLineOperationPointsAtItsScriptLine() async throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let script = try dir.write("syntax.repl", """
            .write QUERY_ROOT {"a":1}
            # a query over four lines
            query Q {
              a
              b(: 1)
            }
            """)
        let bench = try await TestSession.start()
        let error = try await bench.run(".read \(script.path)").event("error")
        #expect(error.int("line") == 5 && error.int("column") == 5, "\(error)")
    }

    @Test func anOperationWhoseBracesNeverCloseIsReportedAtTheEndOfItsScript() async throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let script = try dir.write("open.repl", """
            .write QUERY_ROOT {"a":1}
            query Open {
              a
            """)
        let bench = try await TestSession.start()
        let error = try await bench.run(".read \(script.path)").event("error")
        #expect(error.string("message")?.contains("never close") == true, "\(error)")
        #expect(error.string("file") == script.path && error.int("line") == 2, "the error names where the operation starts")
        #expect(bench.session.failures == 1)
        #expect(!bench.session.isContinuing)
        #expect(try await bench.run(".keys").names == ["keys"], "the next line is a command again, not more of the operation")
    }

    // MARK: .project

    static let tripsApp = fixturesDirectory.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("examples/TripsApp").path

    /// A project that does not load names every place at fault and leaves the loaded one as it was.
    @Test func aProjectThatDoesNotLoadChangesNothing() async throws {
        let bench = try await TestSession.start(plugins: true)
        let loaded = try await bench.run(".project \(Self.tripsApp)").event("project")
        #expect(loaded["project"]?["operations"] == ["CreateTrip", "DeleteTrip", "RenameTrip", "TripDetail", "TripList"])
        let missing = try await bench.run(".project /nonexistent").event("error")
        #expect(missing.string("message")?.hasPrefix("the project /nonexistent did not load:") == true, "\(missing)")
        #expect(try await bench.run(".project").event("project")["project"]?["directory"] == .string(Self.tripsApp))
    }

    /// On the project's endpoint, operations are the project's; `.use` returns to a plugin's.
    @Test func theProjectsOperationsRunByNameUntilUse() async throws {
        let bench = try await TestSession.start(plugins: true)
        try await bench.run(".use trips", ".run TripList", ".project \(Self.tripsApp)", ".policy cache-only")
        let result = try await bench.run(".run TripList").event("result")
        #expect(result["source"] == "cache")
        #expect(try await bench.run(".run Menu").event("error").string("message")?.contains("no operation named Menu in the project") == true)
        try await bench.run(".use donuts")
        #expect(try await bench.run(".ops").event("ops")["operations"]?["Menu"] != nil)
    }

    /// `.run NAME [JSON] --write DATA` writes a local cache mutation's data and prints what
    /// it then reads; `--write` inside the data is data, and without a name it is a usage error.
    @Test func runWriteWritesThroughALocalCacheMutation() async throws {
        let project = Self.tripsApp.replacingOccurrences(of: "examples/TripsApp", with: "Tests/Scripts/local-cache-mutation")
        let bench = try await TestSession.start()
        try await bench.run(".project \(project)")
        let written = try await bench.run(#".run AnimalName {"id": "1"} --write {"animal": {"__typename": "Dog", "id": "1", "name": "a --write b"}}"#)
        let result = try written.event("result")
        #expect(result["source"] == "cache")
        #expect(result["data"] == ["animal": ["__typename": "Dog", "id": "1", "name": "a --write b"]])
        #expect(try await bench.run(".inspect Dog:1").event("record")["record"]?["name"] == "a --write b")
        let usage = try await bench.run(#".run --write {"animal": null}"#).event("error").string("message")
        #expect(usage == "usage: .run OP [JSON] [--write DATA]")
        let misfit = try await bench.run(#".run AnimalName {"id": "1"} --write {"animal": {"__typename": "Dog", "id": "1"}}"#)
        #expect(try misfit.event("error").string("message")?.contains(#"data.animal.name: missing field "name""#) == true)
        #expect(try await bench.run(".inspect Dog:1").event("record")["record"]?["name"] == "a --write b")
    }

    /// A typed operation the project's schema refuses fails before any request, at its line and column.
    @Test func aTypedOperationIsValidatedAgainstTheProjectsSchema() async throws {
        let bench = try await TestSession.start(plugins: true)
        try await bench.run(".project \(Self.tripsApp)")
        let error = try await bench.run("{ trips { nmae } }").event("error")
        #expect(error.string("message") == #"GraphQL error at line 1, column 11: Cannot query field "nmae" on type "Trip". Did you mean "name"?"#)
        #expect(error.int("column") == 11)
        #expect(try await bench.run(".expect requests == 0").event("expect")["ok"] == true)
    }

    /// Off a project, a typed operation is validated against the endpoint's own schema: a
    /// plugin's manifest SDL.
    @Test func aTypedOperationIsValidatedAgainstThePluginsSchema() async throws {
        let bench = try await TestSession.start(plugins: true)
        try await bench.run(".use trips")
        let error = try await bench.run("{ trips {\n id nmae } }").event("error")
        #expect(error.string("message") == #"GraphQL error at line 2, column 5: Cannot query field "nmae" on type "Trip". Did you mean "name"?"#)
        #expect(try await bench.run("{ trips { id name } }").event("result")["source"] == "network")
        #expect(try await bench.run(".expect requests == 1").event("expect")["ok"] == true)
        // A cache-only read goes by the cache alone: what .write put there reads back.
        try await bench.run(#".write QUERY_ROOT {"greeting":"hi"}"#, ".policy cache-only")
        #expect(try await bench.run("{ greeting }").event("result")["data"] == ["greeting": "hi"])
    }

    /// An HTTP endpoint's operations are validated once `.schema` has fetched its SDL
    /// (here given as introspection would); a schema that does not build is said, once.
    @Test func anHTTPEndpointsTypedOperationsAreValidatedOnceItsSchemaIsKnown() async throws {
        let bench = try await TestSession.start()
        try await bench.run(".endpoint http://127.0.0.1:9/graphql")
        let unvalidated = try await bench.run("{ trips { nmae } }").event("error").string("message") ?? ""
        #expect(!unvalidated.contains("Cannot query field"), "\(unvalidated)")
        bench.session.learnSchema("type Query { trips: [Trip!]! } type Trip { id: ID! name: String! }")
        let refused = try await bench.run("{ trips { nmae } }").event("error")
        #expect(refused.string("message") == #"GraphQL error at line 1, column 11: Cannot query field "nmae" on type "Trip". Did you mean "name"?"#)
        #expect(try await bench.run(".expect requests == 1").event("expect")["ok"] == true)

        var warnings: [String] = []
        bench.session.app.learn("type Query { trip: Tirp }", of: "http://127.0.0.1:9/graphql") { warnings.append($0) }
        #expect(warnings == ["the schema of http://127.0.0.1:9/graphql does not build, so operations typed for it go unvalidated:\n"
                             + #"  the schema of http://127.0.0.1:9/graphql:1:20: Unknown type "Tirp"."#])
        let unbuilt = try await bench.run("{ trip }")
        #expect(try unbuilt.event("error").string("message")?.hasPrefix("cannot reach the endpoint") == true)
        #expect(try unbuilt.events("warning").isEmpty)
    }

    // MARK: .nowait

    @Test func nowaitLetsTheNextCommandCancelAFetchStillInFlight() async throws {
        let bench = try await TestSession.start(plugins: true)
        try await bench.run(".use feed", ".network latency 200")
        try await bench.run(#".nowait .watch Search {"text": "lis"}"#, #".setvars 1 {"text": "lisbon"}"#)
        let claims = try await bench.run(".expect requests == 2", ".expect requests cancelled == 1", ".expect emissions 1 == 1")
        #expect(try claims.events("expect").map { $0.bool("ok") } == [true, true, true], "\(claims.output)")
        #expect(bench.session.failures == 0)
    }

    @Test func withoutNowaitEachFetchFinishesBeforeTheNextLine() async throws {
        let bench = try await TestSession.start(plugins: true)
        try await bench.run(".use feed", ".network latency 50")
        try await bench.run(#".watch Search {"text": "lis"}"#, #".setvars 1 {"text": "lisbon"}"#)
        let claims = try await bench.run(".expect requests == 2", ".expect requests cancelled == 0", ".expect emissions 1 == 2")
        #expect(try claims.events("expect").map { $0.bool("ok") } == [true, true, true], "\(claims.output)")
    }

    @Test func nowaitNeedsACommand() async throws {
        let bench = try await TestSession.start()
        #expect(try await bench.run(".nowait").event("error").string("message") == "usage: .nowait COMMAND")
        #expect(try await bench.run(".nowait .keys").names == ["keys"])
    }
}
