import Foundation
import NormCache
import Testing
@testable import Workbench

/// `.history`: on|off for the lines typed, `limit N` and `KEY[.FIELD] [N]` for the
/// changes the cache keeps of each record (issue 36), and its errors.
@Suite struct HistoryCommandTests {
    @Test func aRecordsChangesAsJSONEventsOldestFirst() async throws {
        let bench = try await TestSession.start()
        try await bench.run(#".write Trip:1 {"name":"Porto"}"#, #".write Trip:1 {"name":"Porto Antigo","next":{"$reference":"Trip:2"}}"#)
        let event = try await bench.run(".history Trip:1").event("history")
        #expect(event.string("key") == "Trip:1")
        guard case .list(let changes)? = event["changes"] else { Issue.record("no changes in \(event)"); return }
        let objects = changes.compactMap { if case .object(let change) = $0 { change } else { nil } }
        #expect(objects.map { $0.string("field") } == ["name", "name", "next"])
        #expect(objects.map { $0.int("commit") } == [1, 2, 2])
        #expect(objects.map { $0.string("cause") } == ["write", "write", "write"])
        #expect(objects.map { $0.string("origin") } == ["write Trip:1", "write Trip:1", "write Trip:1"])
        #expect(objects[1]["old"] == "Porto" && objects[1]["new"] == "Porto Antigo")
        #expect(objects[0]["old"] == .null)
        #expect(objects[2]["new"] == reference("Trip:2"))
        #expect(objects.allSatisfy { ($0.string("at") ?? "").hasSuffix("Z") })
        // One field, the last N.
        let one = try await bench.run(".history Trip:1.name 1").event("history")
        guard case .list(let last)? = one["changes"], case .object(let change)? = last.first else { Issue.record("\(one)"); return }
        #expect(last.count == 1 && change["new"] == "Porto Antigo")
    }

    @Test func textIsOneLineAChange() async throws {
        let bench = try await TestSession.start(mode: .tree)
        try await bench.run(#".write Trip:1 {"name":"Porto"}"#, ".evict Trip:1.name")
        let lines = try await bench.run(".history Trip:1.name").output
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix("#1 ") && lines[0].hasSuffix(#"write (write Trip:1): name (absent) → "Porto""#), "\(lines)")
        #expect(lines[1].hasSuffix(#"evict (evict Trip:1.name): name "Porto" → (absent)"#), "\(lines)")
    }

    @Test func limitBoundsWhatIsKeptAndStatsCountIt() async throws {
        let bench = try await TestSession.start()
        try await bench.run(".history limit 2")
        for name in ["a", "b", "c"] { try await bench.run(#".write Trip:1 {"name":"\#(name)"}"#) }
        let stats = try await bench.run(".stats").event("stats")
        #expect(stats.int("historyChanges") == 2)
        #expect((stats.int("historyBytes") ?? 0) > 0)
        try await bench.run(".history limit 0")
        #expect(try await bench.run(".stats").event("stats").int("historyChanges") == 0)
    }

    @Test func onAndOffStillMeanTheLinesTyped() async throws {
        let bench = try await TestSession.start()
        try await bench.run(".history off")
        #expect(bench.session.settings.recordsHistory == false)
        try await bench.run(".history on")
        #expect(bench.session.settings.recordsHistory == true)
    }

    @Test func badInputIsNamedAndChangesNothing() async throws {
        let bench = try await TestSession.start(mode: .tree)
        try await bench.run(#".write Trip:1 {"name":"Porto"}"#)
        #expect(try await bench.run(".history Trip:2").errors == [#"error: the cache never held "Trip:2"; did you mean Trip:1?"#])
        #expect(try await bench.run(".history Trip:1 -1").errors == [#"error: .history: N must be a whole number 0 or more, not "-1""#])
        #expect(try await bench.run(".history Trip:1 many").errors == [#"error: .history: N must be a whole number 0 or more, not "many""#])
        #expect(try await bench.run(".history limit").errors == ["error: .history limit takes a number: how many changes each record keeps (0 keeps none)"])
        #expect(try await bench.run(".history limit x").errors == [#"error: .history: limit must be a whole number 0 or more, not "x""#])
        #expect(try await bench.run(".history").errors == ["error: usage: .history on|off | limit N | KEY[.FIELD] [N]"])
        #expect(bench.session.client.cache.historyLimit == 100)
        #expect(try await bench.run(".history Trip:1").output.count == 1)
    }
}
