import Foundation
import Testing
@testable import NormCache

/// When each field was received, kept beyond memory (issue 37): by the store, in the
/// commit that wrote the fields and never apart from it, and in snapshots, as
/// `__META.normcacheReceived`, which Apollo Client passes over.
@Suite struct ReceivedTimesKeptTests {
    let start = Date(timeIntervalSince1970: 1_900_000_000)

    func cache(over store: RecordStore) throws -> NormalizedCache {
        let cache = try NormalizedCache(store: store)
        try cache.clock.set(to: start)
        return cache
    }

    func received(_ cache: NormalizedCache, _ key: String) throws -> [Date?] {
        try #require(try cache.ages(of: key)).map(\.received)
    }

    @Test func anInMemoryStoreKeepsTheTimesForTheNextCacheOverIt() throws {
        let store = InMemoryStore()
        let first = try cache(over: store)
        try first.write(record: "Trip:1", fields: ["id": "1", "name": "Lisbon"])
        try first.clock.advance(by: 60)
        try first.write(record: "Trip:1", fields: ["name": "Porto"])
        #expect(store.receivedTimes(of: ["Trip:1", "Trip:2"]) == ["Trip:1": #"{"at":1900000000,"fields":{"name":{"at":1900000060}}}"#])
        let second = try cache(over: store)
        #expect(try received(second, "Trip:1") == [start, start.addingTimeInterval(60)])
    }

    @Test func aRefetchOfEqualValuesKeepsOnlyItsNewTimeAndLeavesTheRecordAlone() throws {
        let store = CountingStore()
        let cache = try cache(over: store)
        try cache.write(record: "Trip:1", fields: ["name": "Lisbon"])
        try cache.clock.advance(by: 60)
        try cache.write(record: "Trip:1", fields: ["name": "Lisbon"])
        #expect(store.merges == 1, "the record was not written again")
        #expect(store.inner.receivedTimes(of: ["Trip:1"]) == ["Trip:1": #"{"at":1900000060}"#])
    }

    @Test func aCommitTheStoreRefusesChangesNoTimeInMemoryOrInTheStore() throws {
        let store = CountingStore()
        let cache = try cache(over: store)
        try cache.write(record: "Trip:1", fields: ["id": "1", "name": "Lisbon"])
        let kept = store.inner.receivedTimes(of: ["Trip:1", "Trip:2"])
        try cache.clock.advance(by: 60)
        store.fail = true
        #expect(throws: CacheError.self) { try cache.write(record: "Trip:1", fields: ["name": "Porto"]) }
        #expect(throws: CacheError.self) { try cache.write(record: "Trip:1", fields: ["name": "Lisbon"]) }   // received again only
        #expect(throws: CacheError.self) { try cache.write(record: "Trip:2", fields: ["name": "Faro"]) }
        #expect(throws: CacheError.self) { try cache.clear() }
        store.fail = false
        #expect(try received(cache, "Trip:1") == [start, start])
        #expect(try cache.ages(of: "Trip:2") == nil)
        #expect(store.inner.receivedTimes(of: ["Trip:1", "Trip:2"]) == kept)
        // The next commit's times go through as if the refused ones had never been.
        try cache.write(record: "Trip:2", fields: ["name": "Faro"])
        #expect(try received(cache, "Trip:2") == [start.addingTimeInterval(60)])
        #expect(try received(cache, "Trip:1") == [start, start])
    }

    @Test func aSnapshotCarriesTheTimesWhereApolloClientLooksNot() throws {
        let source = try cache(over: InMemoryStore())
        let trips = try source.operation(#"query Trips { trips(first: 2) { id name } }"#)
        try source.write(response: ["data": .object(try Support.object(#"{"trips":[{"__typename":"Trip","id":"1","name":"Lisbon"}]}"#))],
                         for: trips, maxAge: 300)
        try source.clock.advance(by: 60)
        try source.write(record: "Trip:1", fields: ["name": "Porto"])
        let first = try source.operation(#"query First { trips(first: 1) { id } }"#)
        try source.write(response: ["data": .object(try Support.object(#"{"trips":[{"__typename":"Trip","id":"1"}]}"#))], for: first)
        #expect(source.extract()[NormalizedCache.snapshotMetadataKey] == nil, "only when asked for")
        let snapshot = source.extract(receivedTimes: true)
        let metadata = try #require(snapshot[NormalizedCache.snapshotMetadataKey])
        #expect(metadata["extraRootIds"] == [], "Apollo Client's restore reads extraRootIds of any __META")
        #expect(JSON.string(try #require(metadata["normcacheReceived"]), sortedKeys: true)
                == #"{"ROOT_QUERY":{"at":1900000000,"fields":{"trips({\"first\":1})":{"at":1900000060}},"maxAge":300},"#
                + #""Trip:1":{"at":1900000000,"fields":{"__typename":{"at":1900000060},"id":{"at":1900000060},"name":{"at":1900000060}},"maxAge":300}}"#)

        let store = InMemoryStore()
        let target = try cache(over: store)
        try target.clock.advance(by: 3_600)
        try target.write(record: "Trip:1", fields: ["name": "Faro"])
        try target.restore(snapshot)
        let later = start.addingTimeInterval(60)
        #expect(try received(target, "Trip:1") == [later, later, later])
        let reopened = try cache(over: store)
        #expect(try received(reopened, "Trip:1") == [later, later, later])
        #expect(try received(reopened, "QUERY_ROOT") == [start, later])
        #expect(try reopened.ages(of: "QUERY_ROOT")?.map(\.maxAge) == [300, nil])
    }

    @Test func aSnapshotWithoutTimesRestoresWithEveryAgeUnknown() throws {
        let store = InMemoryStore()
        let cache = try cache(over: store)
        try cache.write(record: "Trip:1", fields: ["name": "Lisbon"])
        try cache.restore(try JSON.parse(#"{"Trip:1":{"name":"Porto"},"Trip:2":{"name":"Faro"}}"#))
        #expect(try received(cache, "Trip:1") == [nil])
        #expect(try received(cache, "Trip:2") == [nil])
        #expect(store.receivedTimes(of: ["Trip:1", "Trip:2"]).isEmpty)
        #expect(cache.extract(receivedTimes: true)[NormalizedCache.snapshotMetadataKey] == nil)
    }

    @Test func badTimesInASnapshotAreNamedAndChangeNothing() throws {
        let cache = try cache(over: InMemoryStore())
        try cache.write(record: "Trip:1", fields: ["name": "Lisbon"])
        let before = JSON.string(cache.extract(), sortedKeys: true)
        let cases = [
            (#"{"normcacheReceived":{"Trip:1":{"at":-1}}}"#, #"snapshot "__META".normcacheReceived["Trip:1"]: "at" must be 0 seconds or more, not -1.0"#),
            (#"{"normcacheReceived":{"Trip:9":{"at":1}}}"#, #"snapshot "__META".normcacheReceived has times of "Trip:9", a record the snapshot does not hold"#),
            (#"{"normcacheReceived":{"Trip:1":{"when":1}}}"#, #"snapshot "__META".normcacheReceived["Trip:1"]: received times have no member "when" (they have at, maxAge and fields)"#),
            (#"{"normcacheReceived":[]}"#, #"snapshot "__META".normcacheReceived must be an object of records' received times, not a list"#),
        ]
        for (metadata, message) in cases {
            let snapshot = try JSON.parse(#"{"Trip:1":{"name":"Porto"},"__META":{"extraRootIds":[],"# + metadata.dropFirst() + "}")
            #expect(throws: CacheError.invalid(message)) { try cache.restore(snapshot) }
        }
        #expect(JSON.string(cache.extract(), sortedKeys: true) == before)
    }
}
