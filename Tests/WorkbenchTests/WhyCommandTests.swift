import Foundation
import NormCache
import Testing
@testable import Workbench

/// `.why ID` and `.why` (issue 36): the `why` events as WORKBENCH.md gives their fields,
/// and the errors for a watcher that does not exist or an operation that never ran.
@Suite struct WhyCommandTests {
    /// The objects of an event's list field `key`.
    func objects(_ event: CacheObject, _ key: String) -> [CacheObject] {
        guard case .list(let items)? = event[key] else { return [] }
        return items.compactMap { if case .object(let object) = $0 { object } else { nil } }
    }

    @Test func aWatcherSaysWhyEachCommitSinceItsLastEmissionDidNotReachIt() async throws {
        let bench = try await TestSession.start(plugins: true)
        try await bench.run(".use trips", ".watch TripList", #".run CreateTrip {"name":"Berlin"}"#, #".write Trip:2 {"name":"Porto"}"#)
        let why = try await bench.run(".why 1").event("why")
        #expect(why.int("id") == 1 && why.string("op") == "TripList")
        let commits = objects(why, "commits")
        #expect(commits.map { $0.string("code") } == ["new-record-not-in-list", "unchanged"])
        #expect(commits.map { $0.bool("reached") } == [false, false])
        #expect(commits[0].string("origin") == #"CreateTrip {"name":"Berlin"}"#)
        #expect(commits[0].strings("changed")?.contains("Trip:4.name") == true)
        #expect(commits[0].string("hint")?.contains(".refetch 1") == true)
        #expect(commits.allSatisfy { $0.int("commit") != nil && ($0.string("at") ?? "").hasSuffix("Z") && $0.string("cause") == "write" })
        #expect(commits[1].strings("changed") == [])
    }

    @Test func theLastOperationSaysWhereItsResultCameFromAndWhyEachFieldWasMissing() async throws {
        let bench = try await TestSession.start(plugins: true)
        try await bench.run(".use trips", ".run TripList", #"query TripDetail { trip(id: "2") { id name } }"#)
        let why = try await bench.run(".why").event("why")
        #expect(why.string("op") == "TripDetail")
        #expect(why.string("policy") == "cache-first" && why.string("source") == "network" && why.bool("requested") == true)
        #expect(why.string("reason") == "cache-first: the cache lacked fields, so the query was sent")
        let missing = objects(why, "missing")
        #expect(missing.map { $0.string("field") } == ["QUERY_ROOT.trip(id:2)"])
        #expect(missing.map { $0.string("code") } == ["field-policy-would-redirect"])
        #expect(missing.first?.strings("nearest") == ["Trip:2"])
        #expect(missing.first?.string("hint")?.contains(#"@fieldPolicy(forField: "trip", keyArgs: "id")"#) == true)
        // The same again is answered by the cache: nothing missing, no request.
        try await bench.run(#"query TripDetail { trip(id: "2") { id name } }"#)
        let again = try await bench.run(".why").event("why")
        #expect(again.string("source") == "cache" && again.bool("requested") == false && objects(again, "missing").isEmpty)
    }

    /// With `.partial on` the cache's partial answer is shown first, and `.why` still says the
    /// cache lacked fields; cache-only returns it and lists the misses.
    @Test func partialDataDoesNotHideWhyARequestWentOut() async throws {
        let bench = try await TestSession.start(plugins: true)
        try await bench.run(".use trips", ".run TripList", ".partial on", "query Dates { trips { id startsOn } }")
        let sent = try await bench.run(".why").event("why")
        #expect(sent.bool("requested") == true && sent.string("reason") == "cache-first: the cache lacked fields, so the query was sent")
        try await bench.run(".policy cache-only", "query Ends { trips { id endsOn } }")
        let partial = try await bench.run(".why").event("why")
        #expect(partial.bool("requested") == false && objects(partial, "missing").map { $0.string("code") } == ["not-fetched", "not-fetched", "not-fetched"])
    }

    @Test func badInputIsNamedAndChangesNothing() async throws {
        let bench = try await TestSession.start(mode: .tree)
        let none = try await bench.run(".why")
        #expect(none.errors.contains { $0.contains("no operation has run yet: .why explains the last one (.why ID explains watcher ID)") }, "\(none)")
        for word in ["7", "x", "-1"] {
            let printed = try await bench.run(".why \(word)")
            #expect(printed.errors.contains { $0.contains("no watcher \"\(word)\" (.watches lists them)") }, "\(printed)")
        }
        let extra = try await bench.run(".why 1 2")
        #expect(extra.errors.contains { $0.contains("usage: .why [ID]") }, "\(extra)")
    }
}
