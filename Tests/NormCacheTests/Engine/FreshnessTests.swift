import Foundation
import Testing
@testable import NormCache

/// Freshness (issue 37): each written field's time, max ages by schema coordinate as
/// Apollo Kotlin's `SchemaCoordinatesMaxAgeProvider` decides them, a stale field a miss
/// unless within max stale, a refetch making it fresh, and `.gc stale`.
@Suite struct FreshnessTests {
    let cache: NormalizedCache
    let tripList: CompiledOperation
    let schema: SchemaKnowledge
    let start = Date(timeIntervalSince1970: 1_900_000_000)
    static let response = #"""
        {"trips":[{"__typename":"Trip","id":"1","name":"Lisbon","owner":{"__typename":"User","id":"7","name":"Ada"}},
                  {"__typename":"Trip","id":"2","name":"Porto","owner":{"__typename":"User","id":"7","name":"Ada"}}]}
        """#

    init() throws {
        cache = try Support.cache()
        schema = try SchemaKnowledge(sdl: """
            type Query { trips: [Trip!]! }
            type Trip { id: ID! name: String owner: User }
            type User { id: ID! name: String }
            """)
        tripList = try cache.operation("query TripList { trips { id name owner { name } } }")
        try cache.clock.set(to: start)
        try writeTrips()
    }

    private func writeTrips(maxAge: Double? = nil) throws {
        try cache.write(response: ["data": .object(try Support.object(Self.response))], for: tripList, schema: schema, maxAge: maxAge)
    }

    private func read() throws -> ReadResult { try cache.read(tripList, schema: schema) }

    @Test func withoutAMaxAgeNothingIsEverStale() throws {
        try cache.clock.advance(by: 365 * 86_400)
        let result = try read()
        #expect(result.complete && result.stale.isEmpty)
    }

    @Test func aTypesMaxAgeCoversTheFieldsThatReturnItAndTheirScalarsButNotOtherTypes() throws {
        cache.maxAges["Trip"] = .seconds(300)
        try cache.clock.advance(by: 299)
        #expect(try read().complete)
        try cache.clock.advance(by: 1)
        let result = try read()
        // The root field returns trips; a trip's scalars take its max age; its owner is a
        // User, which has none of its own, so as a composite field it takes the default
        // (none), and never more than its parent's: 300 as well.
        #expect(result.missing.sorted() == ["QUERY_ROOT.trips", "Trip:1.id", "Trip:1.name", "Trip:1.owner", "Trip:2.id", "Trip:2.name", "Trip:2.owner",
                                            "User:7.name"].sorted())
        #expect(result.stale.sorted() == result.missing.sorted() && result.data == nil)
    }

    @Test func aFieldsMaxAgeWinsOverItsTypesAndAnInheritingTypeTakesItsParents() throws {
        cache.maxAges["Trip.name"] = .seconds(30)
        cache.maxAges["Trip.owner"] = .seconds(600)
        cache.maxAges["User"] = .inherit
        cache.maxAges["User.name"] = .seconds(3_600)
        try cache.clock.advance(by: 60)
        #expect(try read().missing == ["Trip:1.name", "Trip:2.name"])
        try cache.clock.advance(by: 600)
        // User.name's own 3,600 s are capped by its parent field Trip.owner's 600.
        #expect(Set(try read().missing) == ["Trip:1.name", "Trip:2.name", "Trip:1.owner", "Trip:2.owner", "User:7.name"])
    }

    @Test func withinMaxStaleAStaleFieldIsReadAndListedStaleOnly() throws {
        cache.maxAges["Trip.name"] = .seconds(30)
        cache.maxStale = 60
        try cache.clock.advance(by: 45)
        let within = try read()
        #expect(within.complete && within.data != nil)
        #expect(within.stale == ["Trip:1.name", "Trip:2.name"])
        try cache.clock.advance(by: 45)   // 90 s: past 30 + 60
        let past = try read()
        #expect(past.missing == ["Trip:1.name", "Trip:2.name"] && past.stale == past.missing)
    }

    @Test func aRefetchOfTheSameValuesMakesThemFreshAndAWriteOfSomeFieldsOnlyThose() throws {
        cache.maxAges["Trip.name"] = .seconds(100)
        cache.maxAges["Trip.id"] = .seconds(100)
        try cache.clock.advance(by: 150)
        #expect(!(try read().complete))
        try writeTrips()
        #expect(try read().complete, "the same values written again are received again")
        try cache.clock.advance(by: 50)
        try cache.write(record: "Trip:1", fields: ["name": "Lisboa"])
        try cache.clock.advance(by: 60)
        #expect(Set(try read().missing) == ["Trip:1.id", "Trip:2.id", "Trip:2.name"], "Trip:1.name was written 60 s ago")
    }

    @Test func aResponsesOwnMaxAgeMakesWhatItWroteStaleWithNoRule() throws {
        try writeTrips(maxAge: 60)
        #expect(try read().complete)
        try cache.clock.advance(by: 60)
        #expect(try read().missing.count == 8, "every field of the response but the __typenames, at max-age=60")
        try writeTrips(maxAge: 0)
        #expect(try read().missing.count == 8, "max-age=0: stale at once")
    }

    @Test func agesAreShownAndStaleFieldsRemoved() throws {
        cache.maxAges["Trip.name"] = .seconds(30)
        try cache.clock.advance(by: 10)
        try cache.write(record: "Trip:2", fields: ["name": "Oporto"])
        try cache.clock.advance(by: 25)
        let ages = try #require(try cache.ages(of: "Trip:1", schema: schema))
        #expect(ages.map(\.field) == ["__typename", "id", "name", "owner"])
        #expect(ages.first { $0.field == "name" } == .init(field: "name", received: start, maxAge: 30, stale: true))
        #expect(ages.first { $0.field == "id" } == .init(field: "id", received: start, maxAge: nil, stale: false))
        #expect(try cache.ages(of: "Trip:9") == nil)
        #expect(try cache.removeStaleFields(schema: schema) == ["Trip:1.name"])
        #expect(try read().missing == ["Trip:1.name"])
    }

    @Test func aRuleOnAnInterfacesFieldReachesTheObjectsThatImplementIt() throws {
        let characters = try SchemaKnowledge(sdl: """
            type Query { hero: Character }
            interface Character { id: ID! name: String }
            type Human implements Character { id: ID! name: String }
            """)
        let hero = try cache.operation("query Hero { hero { id name } }")
        try cache.write(response: ["data": ["hero": ["__typename": "Human", "id": "9", "name": "Luke"]]], for: hero, schema: characters)
        cache.maxAges["Character.name"] = .seconds(5)
        try cache.clock.advance(by: 5)
        #expect(try cache.read(hero, schema: characters).missing == ["Human:9.name"])
    }

    @Test func aValueAnOptimisticLayerShowsIsNeverStale() throws {
        cache.maxAges["Trip.name"] = .seconds(30)
        try cache.clock.advance(by: 60)
        try cache.writeOptimistic("rename", data: ["trip": ["__typename": "Trip", "id": "1", "name": "Lisboa"]],
                                  for: try cache.operation("mutation { trip { id name } }"))
        #expect(try read().missing == ["Trip:2.name"], "Trip:1.name is the layer's, which no response sent")
    }

    @Test func aTransactionsWritesShareTheLeastMaxAgeTheirResponsesCameWith() throws {
        try cache.transaction { _ in
            try writeTrips(maxAge: 0)
            try writeTrips(maxAge: 300)   // the last one's does not win
        }
        #expect(try read().missing.count == 8, "max-age=0 and max-age=300 in one commit: 0")
    }

    @Test func aRefetchOfEqualValuesBringsAWatcherThatShowedThemStaleBack() throws {
        cache.maxAges["Trip.name"] = .seconds(30)
        let recorder = Recorder()
        let watch = try cache.watch(tripList, schema: schema, onEmission: recorder.callback)
        try cache.clock.advance(by: 60)
        try cache.write(record: "User:7", fields: ["name": "Ada L."])   // the watcher re-reads: names are stale now
        #expect(recorder.emissions.last?.result.missing == ["Trip:1.name", "Trip:2.name"])
        try writeTrips()   // the same values again: nothing changes, but they are fresh
        #expect(recorder.emissions.last?.result.complete == true)
        withExtendedLifetime(watch) {}
    }

    @Test func whyNamesTheAgeAndTheMaxAge() throws {
        cache.maxAges["Trip.name"] = .seconds(300)
        try cache.clock.advance(by: 720)
        let misses = try cache.explainMisses(of: tripList, schema: schema)
        #expect(misses.map(\.field) == ["Trip:1.name", "Trip:2.name"])
        #expect(misses.first?.reason.code == .stale)
        #expect(misses.first?.reason.text == "Trip:1.name is stale: received 12m ago, max age 5m")
    }
}
