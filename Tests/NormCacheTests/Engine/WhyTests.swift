import Testing
@testable import NormCache

/// Explanations (issue 36): why a watcher did not emit, commit by commit, and why a read
/// missed each field, with the nearest data; each reason one documented code.
@Suite struct WhyTests {
    let cache: NormalizedCache
    let tripList: CompiledOperation

    init() throws {
        cache = try Support.cache()
        tripList = try cache.operation("query TripList { trips { id name } }")
        try cache.write(data: try Support.object(#"{"trips":[{"__typename":"Trip","id":"1","name":"Lisbon"},{"__typename":"Trip","id":"2","name":"Porto"}]}"#),
                        for: tripList)
    }

    /// The codes of the commits since watcher `id` last emitted, oldest first.
    func codes(_ id: Int) throws -> [String] {
        try #require(cache.explain(watcher: id)).commits.map(\.reason.code.rawValue)
    }

    @Test func eachCommitThatLeavesAListAsItIsSaysWhy() throws {
        let watch = try cache.watch(tripList) { _ in }
        #expect(try codes(watch.id) == [])
        let create = try cache.operation("mutation CreateTrip { createTrip { id name } }")
        try cache.write(data: try Support.object(#"{"createTrip":{"__typename":"Trip","id":"3","name":"Faro"}}"#), for: create)
        try cache.write(record: "Trip:2", fields: ["status": "booked"])
        try cache.write(record: "Trip:2", fields: ["name": "Porto"])
        try cache.write(record: "QUERY_ROOT", fields: ["trips(first:1)": .list([.reference("Trip:1")])])
        try cache.write(record: "User:1", fields: ["name": "Ada"])
        #expect(try codes(watch.id) == ["new-record-not-in-list", "not-selected", "unchanged", "other-arguments", "other-records"])
        let why = try #require(cache.explain(watcher: watch.id))
        #expect(why.operation == "TripList")
        #expect(why.commits[0].origin == "CreateTrip")
        #expect(why.commits[0].reason.text.hasPrefix("Trip:3 is new; TripList reads QUERY_ROOT.trips, which still lists Trip:1…Trip:2 (2)"))
        #expect(why.commits.allSatisfy { !$0.reached })
        #expect(why.commits.map(\.number) == Array((why.emittedAfter + 1)...(why.emittedAfter + 5)))
        // A commit that reaches it and changes its data is an emission: nothing left to explain.
        try cache.write(record: "Trip:1", fields: ["name": "Lisboa"])
        #expect(try codes(watch.id) == [])
        withExtendedLifetime(watch) {}
    }

    @Test func aMutationRootAReachedSameResultAndARollback() throws {
        let watch = try cache.watch(tripList) { _ in }
        let rename = try cache.operation("mutation Rename { rename(id: \"9\") }")
        try cache.write(data: ["rename": true], for: rename)
        // Changed and changed back in one commit: the watcher is reached, its data the same.
        try cache.transaction { cache in
            try cache.write(record: "Trip:1", fields: ["name": "Lisboa"])
            try cache.write(record: "Trip:1", fields: ["name": "Lisbon"])
        }
        struct Failure: Error {}
        #expect(throws: Failure.self) {
            try cache.transaction { cache in
                try cache.write(record: "Trip:1", fields: ["name": "Lisboa"])
                throw Failure()
            }
        }
        #expect(try codes(watch.id) == ["mutation-root", "same-result", "rolled-back"])
        let commits = try #require(cache.explain(watcher: watch.id)).commits
        #expect(commits.map(\.reached) == [false, true, false])
        #expect(commits[2].origin == "transaction")
        withExtendedLifetime(watch) {}
    }

    /// The most specific reason wins: a mutation that changed a field the list does not
    /// select is not-selected, not mutation-root; a second page that made new records is
    /// other-arguments, not new-record-not-in-list.
    @Test func theMostSpecificReasonWins() throws {
        let watch = try cache.watch(tripList) { _ in }
        let update = try cache.operation("mutation Book { bookTrip(id: \"2\") { id status } }")
        try cache.write(data: try Support.object(#"{"bookTrip":{"__typename":"Trip","id":"2","status":"booked"}}"#), for: update)
        let page = try cache.operation("query Page { trips(first: 20) { id name } }")
        try cache.write(data: try Support.object(#"{"trips":[{"__typename":"Trip","id":"11","name":"Faro"}]}"#), for: page)
        #expect(try codes(watch.id) == ["not-selected", "other-arguments"])
        withExtendedLifetime(watch) {}
    }

    @Test func theSameObjectUnderAnotherKey() throws {
        cache.typePolicies["Trip"] = .notNormalized
        let trip = try cache.operation("query One { trip { id name } }")
        try cache.write(data: try Support.object(#"{"trip":{"__typename":"Trip","id":"7","name":"Oslo"}}"#), for: trip)
        let watch = try cache.watch(trip) { _ in }
        try cache.write(record: "Trip:7", fields: ["__typename": "Trip", "id": "7", "name": "Bergen"])
        #expect(try codes(watch.id) == ["other-key"])
        #expect(try #require(cache.explain(watcher: watch.id)).commits[0].reason.hint?.contains(".keyfields Trip id") == true)
        withExtendedLifetime(watch) {}
    }

    @Test func onlyTheLastCommitsAreKeptAndTheRestCounted() throws {
        let watch = try cache.watch(tripList) { _ in }
        for n in 0..<25 { try cache.write(record: "User:1", fields: ["n": .int(Int64(n))]) }
        let why = try #require(cache.explain(watcher: watch.id))
        #expect(why.commits.count == CommitJournal.capacity)
        #expect(why.forgotten == 25 - CommitJournal.capacity)
        #expect(cache.explain(watcher: 99) == nil)
        withExtendedLifetime(watch) {}
    }

    @Test func aCommitNamesARecordWhoseKeyWasReleased() throws {
        let watch = try cache.watch(tripList) { _ in }
        try cache.write(record: "Gone:1", fields: ["name": "x"])
        try cache.evict("Gone:1")
        try cache.gc()
        // The released id goes to the next new key; the journal still says Gone:1.
        try cache.write(record: "New:1", fields: ["name": "y"])
        let changed = try #require(cache.explain(watcher: watch.id)).commits.map { $0.changed.map(\.description) }
        #expect(changed.first == ["Gone:1.name"])
        #expect(changed.last == ["New:1.name"])
        withExtendedLifetime(watch) {}
    }

    // MARK: misses

    /// `field code nearest…` for each field `document` misses.
    func misses(_ document: String, variables: CacheObject = CacheObject(), schema: SchemaKnowledge? = nil) throws -> [String] {
        try cache.explainMisses(of: try cache.operation(document), variables: variables, schema: schema).map { miss in
            ([miss.field, miss.reason.code.rawValue] + miss.nearest).joined(separator: " ")
        }
    }

    @Test func eachMissingFieldSaysWhyAndWhatIsNear() throws {
        let schema = SchemaKnowledge(possibleTypes: try PossibleTypes(sdl: """
            type Trip { id: ID! name: String! seats: Int owner: User }
            type User { id: ID! name: String }
            type Query { trips(first: Int): [Trip!]! trip(id: ID!): Trip }
            """))
        #expect(try misses("{ trips { id name } }") == [])
        #expect(try misses("{ trip(id: \"2\") { id name } }", schema: schema) == ["QUERY_ROOT.trip(id:2) field-policy-would-redirect Trip:2"])
        #expect(try misses("{ trips(first: 1) { id } }") == ["QUERY_ROOT.trips(first:1) other-arguments QUERY_ROOT.trips"])
        #expect(try misses("{ trips { id seats } }") == ["Trip:1.seats not-fetched", "Trip:2.seats not-fetched"])
        try cache.invalidate("Trip:1", field: "name")
        #expect(try misses("{ trips { id name } }") == ["Trip:1.name stale Trip:1.name"])
        try cache.write(record: "Trip:2", fields: ["owner": "nobody"])
        #expect(try misses("{ trips { owner { id } } }") == ["Trip:1.owner not-fetched", "Trip:2.owner other-shape Trip:2.owner"])
        try cache.evict("Trip:2")
        #expect(try misses("{ trips { id } }").last == "Trip:2.id dangling-reference QUERY_ROOT.trips")
    }

    @Test func aTypeCaseAndAnObjectUnderTwoKeys() throws {
        // A path-keyed record (written before Trip was keyed by id, or by another app's
        // policy) lacks a field that Trip:7, where the key policy keys the same trip, has.
        try cache.write(record: "QUERY_ROOT", fields: ["trip": .reference("QUERY_ROOT.trip")])
        try cache.write(record: "QUERY_ROOT.trip", fields: ["__typename": "Trip", "id": "7"])
        try cache.write(record: "Trip:7", fields: ["__typename": "Trip", "id": "7", "name": "Oslo"])
        #expect(try misses("{ trip { id name } }") == ["QUERY_ROOT.trip.name other-key Trip:7.name"])
        // Written by a query without the Trip case, read by one with it.
        try cache.write(record: "QUERY_ROOT", fields: ["node": .reference("Trip:8")])
        try cache.write(record: "Trip:8", fields: ["__typename": "Trip", "id": "8"])
        #expect(try misses("{ node { id ... on Trip { seats } } }") == ["Trip:8.seats type-case"])
    }
}
