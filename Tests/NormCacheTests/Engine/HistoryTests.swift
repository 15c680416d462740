import Testing
@testable import NormCache

/// The record history (issue 36): each record's last changes, filed at commit with their
/// old and new values, cause and origin, bounded per record.
@Suite struct HistoryTests {
    let cache: NormalizedCache

    init() throws {
        cache = try Support.cache()
    }

    /// `field: old → new` of each change kept of `key` (`-` for absent), oldest first.
    func changes(_ key: String, field: String? = nil, last count: Int = 20) -> [String] {
        (cache.history(of: key, field: field, last: count) ?? []).map { change in
            "\(change.cause.rawValue) \(change.field): " + Support.canonical(change.old ?? "-") + " → " + Support.canonical(change.new ?? "-")
        }
    }

    @Test func aWriteKeepsOldAndNewWithItsCommitAndOrigin() throws {
        try cache.write(record: "Trip:1", fields: ["name": "Porto"])
        try cache.write(record: "Trip:1", fields: ["name": "Porto Antigo", "next": .reference("Trip:2")])
        #expect(changes("Trip:1") == [#"write name: "-" → "Porto""#, #"write name: "Porto" → "Porto Antigo""#,
                                      #"write next: "-" → {"$reference":"Trip:2"}"#])
        let kept = try #require(cache.history(of: "Trip:1", field: "name"))
        #expect(kept.map(\.commit) == [1, 2])
        #expect(kept.map(\.origin) == ["write Trip:1", "write Trip:1"])
        #expect(kept[0].at <= kept[1].at)
        // The same value again changes nothing, so it is not kept.
        try cache.write(record: "Trip:1", fields: ["name": "Porto Antigo"])
        #expect(changes("Trip:1", field: "name").count == 2)
    }

    @Test func aResponseNamesItsOperationAndVariablesAndANewRecordEachField() throws {
        let trip = try cache.operation("query Trip($id: ID!) { trip(id: $id) { id name } }")
        try cache.write(data: try Support.object(#"{"trip":{"__typename":"Trip","id":"1","name":"Lisbon"}}"#), for: trip, variables: ["id": "1"])
        let kept = try #require(cache.history(of: "Trip:1"))
        #expect(kept.map(\.field) == ["__typename", "id", "name"])
        #expect(Set(kept.map(\.origin)) == [#"Trip {"id":"1"}"#])
        #expect(changes("QUERY_ROOT") == [#"write trip(id:1): "-" → {"$reference":"Trip:1"}"#])
    }

    @Test func oneCommitKeepsEachRecordsChangesInOrderAroundItsCreation() throws {
        let trips = try cache.operation("{ trips { id name } }")
        let trip = try cache.operation("query Trip($id: ID!) { trip(id: $id) { id name } }")
        let list = #"{"trips":[{"__typename":"Trip","id":"1","name":"A"},{"__typename":"Trip","id":"2","name":"B"},"#
            + #"{"__typename":"Trip","id":"3","name":"C"}]}"#
        try cache.transaction { cache in
            try cache.write(data: try Support.object(list), for: trips)   // one run of three new records
            try cache.write(record: "Trip:2", fields: ["name": "B2"])      // made, then changed
            try cache.evict("Trip:3")                                       // made, removed, made again
            try cache.write(data: try Support.object(#"{"trip":{"__typename":"Trip","id":"3","name":"C2"}}"#), for: trip, variables: ["id": "3"])
        }
        #expect(changes("Trip:1", field: "name") == [#"write name: "-" → "A""#])
        #expect(changes("Trip:2", field: "name") == [#"write name: "-" → "B""#, #"write name: "B" → "B2""#])
        #expect(changes("Trip:3", field: "name") == [#"write name: "-" → "C""#, #"write name: "C" → "-""#, #"write name: "-" → "C2""#])
        #expect(changes("Trip:3").count == 9)
        #expect(Set(cache.history(of: "Trip:3")!.map(\.commit)).count == 1)
    }

    @Test func eachRecordKeepsAtMostTheLimitAndNewestLast() throws {
        cache.historyLimit = 3
        for i in 1...5 { try cache.write(record: "Trip:1", fields: ["n": .int(Int64(i))]) }
        try cache.write(record: "Trip:2", fields: ["n": 1])
        #expect(changes("Trip:1") == ["write n: 2 → 3", "write n: 3 → 4", "write n: 4 → 5"])
        #expect(changes("Trip:1", last: 1) == ["write n: 4 → 5"])
        #expect(changes("Trip:2").count == 1)
        #expect(cache.statistics.historyChanges == 4)
        // A lower limit drops the oldest at once; a higher one appends after the newest.
        cache.historyLimit = 2
        #expect(changes("Trip:1") == ["write n: 3 → 4", "write n: 4 → 5"])
        cache.historyLimit = 10
        try cache.write(record: "Trip:1", fields: ["n": 6])
        #expect(changes("Trip:1") == ["write n: 3 → 4", "write n: 4 → 5", "write n: 5 → 6"])
    }

    @Test func aRingKeepsTheLastAppended() {
        var ring = Ring<Int>()
        ring.append(1, limit: 1)
        ring.append(2, limit: 1)
        #expect(ring.elements == [2] && ring.count == 1)
        for n in 3...6 { ring.append(n, limit: 3) }
        #expect(ring.elements == [4, 5, 6] && ring[0] == 4 && ring[3] == nil)
        ring.append(7, limit: 5)   // a wrapped ring given a higher limit grows after its newest
        #expect(ring.elements == [4, 5, 6, 7])
    }

    @Test func limitZeroKeepsNothing() throws {
        try cache.write(record: "Trip:1", fields: ["name": "Porto"])
        cache.historyLimit = 0
        #expect(changes("Trip:1").isEmpty)
        try cache.write(record: "Trip:1", fields: ["name": "Faro"])
        #expect(changes("Trip:1").isEmpty)
        #expect(cache.statistics.historyChanges == 0)
        #expect(cache.statistics.historyBytes == 0)
    }

    @Test func evictionKeepsWhatWasRemoved() throws {
        try cache.write(record: "Trip:1", fields: ["name": "Porto", "days": 3])
        try cache.evict("Trip:1", field: "name")
        try cache.evict("Trip:1")
        #expect(changes("Trip:1").suffix(2) == [#"evict name: "Porto" → "-""#, #"evict days: 3 → "-""#])
        #expect(cache.history(of: "Trip:1")!.suffix(2).map(\.origin) == ["evict Trip:1.name", "evict Trip:1"])
    }

    @Test func anOptimisticLayerAndItsRollbackKeepWhatReadsSaw() throws {
        try cache.write(record: "Trip:1", fields: ["name": "Porto"])
        let rename = try cache.operation("mutation ($id: ID!) { renameTrip(id: $id) { id name } }")
        try cache.writeOptimistic("m1", data: try Support.object(#"{"renameTrip":{"__typename":"Trip","id":"1","name":"Faro"}}"#),
                                  for: rename, variables: ["id": "1"])
        try cache.rollBackOptimistic("m1")
        #expect(changes("Trip:1", field: "name") == [#"write name: "-" → "Porto""#, #"optimistic name: "Porto" → "Faro""#,
                                                     #"rollback name: "Faro" → "Porto""#])
        #expect(cache.history(of: "Trip:1", field: "name")!.map(\.origin).suffix(2) == ["optimistic layer m1", "roll back layer m1"])
    }

    @Test func aFailedCommitKeepsNothing() throws {
        try cache.write(record: "Trip:1", fields: ["name": "Porto"])
        struct Failure: Error {}
        #expect(throws: Failure.self) {
            try cache.transaction { cache in
                try cache.write(record: "Trip:1", fields: ["name": "Faro"])
                throw Failure()
            }
        }
        #expect(changes("Trip:1") == [#"write name: "-" → "Porto""#])
    }

    @Test func gcKeepsTheRecordsItRemoved() throws {
        try cache.write(record: "QUERY_ROOT", fields: ["trip": .reference("Trip:1")])
        try cache.write(record: "Trip:1", fields: ["name": "Porto"])
        try cache.write(record: "QUERY_ROOT", fields: ["trip": .reference("Trip:2")])
        #expect(try cache.gc() == ["Trip:1"])
        // QUERY_ROOT's kept old value still names Trip:1, so its key and history stay.
        #expect(changes("Trip:1") == [#"write name: "-" → "Porto""#, #"gc name: "Porto" → "-""#])
        #expect(cache.history(of: "Trip:1")!.last?.origin == "gc")
    }

    @Test func aRecordTheCacheNeverHeldHasNoHistory() throws {
        try cache.write(record: "Trip:1", fields: ["name": "Porto"])
        #expect(cache.history(of: "Trip:9") == nil)
        #expect(cache.history(of: "Trip:1", field: "nmae") == nil)
        #expect(cache.history(of: "Trip:1", field: "name")?.count == 1)
    }
}
