import Testing
@testable import NormCache

/// Removing data: evicting records and fields, removing by pattern, clearing, garbage
/// collection and invalidation, each notifying the watchers it affects.
@Suite struct EvictionTests {
    let cache: NormalizedCache
    let trips: CompiledOperation
    let trip: CompiledOperation

    init() throws {
        cache = try Support.cache()
        trips = try cache.operation("{ trips { id name } }")
        trip = try cache.operation("query ($id: ID!) { trip(id: $id) { id name } }")
        try cache.write(data: try Support.object("""
            {"trips":[{"__typename":"Trip","id":"1","name":"Lisbon"},{"__typename":"Trip","id":"2","name":"Porto"}]}
            """), for: trips)
    }

    func watch(_ op: CompiledOperation, variables: CacheObject = CacheObject(), partial: Bool = false) throws -> (Watch, Recorder) {
        let recorder = Recorder()
        return (try cache.watch(op, variables: variables, partial: partial, onEmission: recorder.callback), recorder)
    }

    @Test func evictARecord() throws {
        let (watch, recorder) = try watch(trips)
        defer { watch.cancel() }
        let removed = try cache.evict("Trip:2")
        #expect(removed == ["Trip:2.__typename", "Trip:2.id", "Trip:2.name"])
        #expect(cache.record("Trip:2") == nil)
        #expect(!cache.keys().contains("Trip:2"))
        #expect(recorder.causes == [.initial, .evict])
        #expect(recorder.last?.changed == ["Trip:2.__typename", "Trip:2.id", "Trip:2.name"])
        // A list's reference to a record that is gone is a miss, as Apollo iOS reads it
        // (SemanticsTests has Apollo Client's answer: the list leaves it out).
        #expect(recorder.last?.result.complete == false)
        #expect(recorder.last?.result.missing == ["Trip:2.__typename", "Trip:2.id", "Trip:2.name"])
        // The reference to it stays: a write of the record brings it back into the list.
        #expect(cache.referrers(of: "Trip:2") == ["QUERY_ROOT"])
        #expect(throws: CacheError.self) { try cache.evict("Trip:2") }
        #expect(throws: CacheError.self) { try cache.evict("Nothing:1") }
        try cache.write(record: "Trip:2", fields: ["__typename": "Trip", "id": "2", "name": "Porto"])
        #expect(recorder.causes == [.initial, .evict, .write])
        #expect(recorder.last?.result.data?["trips"] == [["__typename": "Trip", "id": "1", "name": "Lisbon"], ["__typename": "Trip", "id": "2", "name": "Porto"]])
    }

    @Test func evictOneField() throws {
        let (watch, recorder) = try watch(trips)
        defer { watch.cancel() }
        #expect(try cache.evict("Trip:1", field: "name") == ["Trip:1.name"])
        #expect(Support.fields(cache.record("Trip:1")) == ["__typename": "Trip", "id": "1"])
        #expect(recorder.causes == [.initial, .evict])
        #expect(recorder.last?.changed == ["Trip:1.name"])
        #expect(recorder.last?.result.missing == ["Trip:1.name"])
        #expect(throws: CacheError.self) { try cache.evict("Trip:1", field: "name") }
        #expect(throws: CacheError.self) { try cache.evict("Trip:1", field: "price") }
    }

    @Test func aFieldNameWithoutArgumentsTakesItsArgumentVariants() throws {
        let paged = try cache.operation("query ($first: Int) { trips(first: $first) { id } tripsCount }")
        for first in [3, 5] {
            try cache.write(data: try Support.object(#"{"trips":[],"tripsCount":2}"#), for: paged, variables: ["first": CacheValue(first)])
        }
        try cache.write(data: try Support.object(#"{"trips":[],"tripsCount":2}"#), for: paged)
        #expect(cache.record("QUERY_ROOT")?.keys.sorted() == ["trips", "trips(first:3)", "trips(first:5)", "tripsCount"])
        let (watch, recorder) = try watch(paged, variables: ["first": 3])
        defer { watch.cancel() }
        // One variant by its full key.
        #expect(try cache.evict("QUERY_ROOT", field: "trips(first:5)") == ["QUERY_ROOT.trips(first:5)"])
        #expect(recorder.count == 1)
        // Then the name: the plain field and every argument variant, not `tripsCount`.
        #expect(try cache.evict("QUERY_ROOT", field: "trips") == ["QUERY_ROOT.trips", "QUERY_ROOT.trips(first:3)"])
        #expect(cache.record("QUERY_ROOT")?.keys == ["tripsCount"])
        #expect(recorder.causes == [.initial, .evict])
        #expect(recorder.last?.changed == ["QUERY_ROOT.trips(first:3)"])
    }

    /// Apollo Client keeps a root evicted down to no field as `{"__typename":"Query"}`;
    /// the record table holds no empty record, but extract() writes the root as Apollo does.
    @Test func aRootEvictedDownToNoFieldStaysInExtractAsItsTypename() throws {
        let publisher = try cache.operation("query ($isbn: String) { publisherOfBook(isbn: $isbn) { id name } }")
        for isbn in ["1", "2"] {
            try cache.write(data: try Support.object(#"{"publisherOfBook":{"__typename":"Publisher","id":"P\#(isbn)","name":"P"}}"#),
                            for: publisher, variables: ["isbn": .string(isbn)])
        }
        try cache.evict("QUERY_ROOT", field: "trips")
        #expect(cache.record("QUERY_ROOT")?.keys.sorted() == ["publisherOfBook(isbn:1)", "publisherOfBook(isbn:2)"])
        #expect(try cache.evict("QUERY_ROOT", field: "publisherOfBook") == ["QUERY_ROOT.publisherOfBook(isbn:1)", "QUERY_ROOT.publisherOfBook(isbn:2)"])
        #expect(cache.record("QUERY_ROOT") == nil)
        #expect(cache.extract()["ROOT_QUERY"] == ["__typename": "Query"])
        #expect(try cache.gc() == ["Publisher:P1", "Publisher:P2", "Trip:1", "Trip:2"])
        #expect(JSON.string(cache.extract()) == #"{"ROOT_QUERY":{"__typename":"Query"}}"#)
        // Written again, then removed whole, the root is gone from extract() too.
        try cache.write(data: try Support.object(#"{"publisherOfBook":null}"#), for: publisher, variables: ["isbn": "3"])
        #expect(cache.extract()["ROOT_QUERY"] == ["__typename": "Query", #"publisherOfBook({"isbn":"3"})"#: nil])
        try cache.evict("QUERY_ROOT")
        #expect(JSON.string(cache.extract()) == "{}")
        // A non-root record evicted down to no field is simply gone.
        try cache.write(record: "Trip:9", fields: ["name": "Faro"])
        try cache.evict("Trip:9", field: "name")
        #expect(JSON.string(cache.extract()) == "{}")
    }

    @Test func aFieldNameNamesItselfAndItsArgumentVariantsOnly() {
        #expect(NormalizedCache.field("trips", names: "trips"))
        #expect(NormalizedCache.field("trips", names: "trips(first:3)"))
        #expect(!NormalizedCache.field("trips", names: "tripsCount"))
        #expect(!NormalizedCache.field("trips(first:3)", names: "trips(first:5)"))
        #expect(!NormalizedCache.field("trips(first:3)", names: "trips"))
    }

    @Test func removeMatchingAGlob() throws {
        try cache.write(data: try Support.object(#"{"trip":{"__typename":"Trip","id":"10","name":"Faro"}}"#), for: trip, variables: ["id": "10"])
        let (watch, recorder) = try watch(trips)
        defer { watch.cancel() }
        #expect(try cache.remove(matching: "Trip:?") == ["Trip:1", "Trip:2"])
        #expect(cache.keys() == ["QUERY_ROOT", "Trip:10"])
        #expect(recorder.causes == [.initial, .evict])
        #expect(try cache.remove(matching: "Nothing*").isEmpty)
        #expect(try cache.remove(matching: "*:1*") == ["Trip:10"])
        #expect(try cache.remove(matching: "*") == ["QUERY_ROOT"])
        #expect(cache.keys().isEmpty)
        #expect(recorder.count == 3)
    }

    @Test func clearRemovesEverything() throws {
        try cache.writeOptimistic("pending", data: try Support.object(#"{"trips":[]}"#), for: trips)
        try cache.invalidate("Trip:1", field: "name")
        let (watch, recorder) = try watch(trips, partial: true)
        defer { watch.cancel() }
        try cache.clear()
        #expect(cache.keys().isEmpty)
        #expect(cache.statistics.records == 0)
        #expect(cache.statistics.layers == 0)
        #expect(JSON.string(cache.extract()) == "{}")
        #expect(recorder.causes == [.initial, .clear])
        #expect(recorder.last?.result.missing == ["QUERY_ROOT.trips"])
        // Nothing of the old state comes back: no layer, no invalidation.
        #expect(throws: CacheError.self) { try cache.rollBackOptimistic("pending") }
        try cache.write(data: try Support.object(#"{"trips":[{"__typename":"Trip","id":"1","name":"Lisbon"}]}"#), for: trips)
        #expect(try cache.read(trips).complete)
    }

    @Test func gcRemovesWhatNoReferenceReaches() throws {
        // Trip:3 comes in through a query, then the query's field is evicted: an orphan.
        try cache.write(data: try Support.object(#"{"trip":{"__typename":"Trip","id":"3","name":"Faro","place":{"__typename":"Place","city":"Faro"}}}"#),
                        for: try cache.operation("query ($id: ID!) { trip(id: $id) { id name place { city } } }"), variables: ["id": "3"])
        try cache.write(data: try Support.object(#"{"m":{"__typename":"Trip","id":"4","name":"Evora"}}"#),
                        for: try cache.operation("mutation { m: createTrip { id name } }"))
        try cache.evict("QUERY_ROOT", field: "trip(id:3)")
        try cache.write(record: "Loose:1", fields: ["next": .reference("Loose:2")])
        try cache.write(record: "Loose:2", fields: ["back": .reference("Loose:1")])
        _ = cache.takeWarnings()
        #expect(try cache.gc(retaining: ["Loose:1"]) == ["Trip:3", "Trip:3.place"])
        #expect(cache.keys() == ["Loose:1", "Loose:2", "MUTATION_ROOT", "QUERY_ROOT", "Trip:1", "Trip:2", "Trip:4"])
        #expect(try cache.gc() == ["Loose:1", "Loose:2"])
        #expect(try cache.gc().isEmpty)
        #expect(cache.keys() == ["MUTATION_ROOT", "QUERY_ROOT", "Trip:1", "Trip:2", "Trip:4"])
    }

    @Test func gcKeepsWhatOptimisticLayersReach() throws {
        try cache.writeOptimistic("pending", data: try Support.object(#"{"trips":[{"__typename":"Trip","id":"7","name":"Optimist"}]}"#), for: trips)
        try cache.write(record: "Trip:7", fields: ["id": "7"])
        #expect(try cache.gc().isEmpty)
        // Trip:1 and Trip:2, hidden by the layer, were kept: the list reads whole again.
        try cache.rollBackOptimistic("pending")
        #expect(try cache.read(trips).complete)
        #expect(try cache.gc() == ["Trip:7"])
    }

    @Test func invalidateKeepsTheDataButReportsItMissing() throws {
        let (watch, recorder) = try watch(trips)
        defer { watch.cancel() }
        try cache.invalidate("Trip:1", field: "name")
        var read = try cache.read(trips)
        #expect(!read.complete)
        #expect(read.missing == ["Trip:1.name"])
        #expect(read.stale == ["Trip:1.name"])
        #expect(read.data == nil)
        read = try cache.read(trips, partial: true)
        #expect(read.data?["trips"] == [["__typename": "Trip", "id": "1", "name": "Lisbon"], ["__typename": "Trip", "id": "2", "name": "Porto"]])
        #expect(read.stale == ["Trip:1.name"])
        #expect(cache.record("Trip:1")?["name"] == "Lisbon")
        #expect(recorder.causes == [.initial, .evict])
        #expect(recorder.last?.changed == ["Trip:1.name"])
        #expect(recorder.last?.result.stale == ["Trip:1.name"])
        // Invalidating twice changes nothing more.
        try cache.invalidate("Trip:1", field: "name")
        #expect(recorder.count == 2)
        #expect(throws: CacheError.self) { try cache.invalidate("Trip:1", field: "price") }
        #expect(throws: CacheError.self) { try cache.invalidate("Trip:404", field: "name") }
    }

    /// The refetch that follows an invalidation usually brings the same value back: it
    /// must clear the invalidation all the same.
    @Test func writingTheSameValueAgainClearsAnInvalidation() throws {
        let (watch, recorder) = try watch(trips)
        defer { watch.cancel() }
        try cache.invalidate("Trip:1", field: "name")
        try cache.write(data: try Support.object("""
            {"trips":[{"__typename":"Trip","id":"1","name":"Lisbon"},{"__typename":"Trip","id":"2","name":"Porto"}]}
            """), for: trips, cause: .refetch)
        let read = try cache.read(trips)
        #expect(read.complete)
        #expect(read.stale.isEmpty)
        #expect(recorder.causes == [.initial, .evict, .refetch])
        #expect(recorder.last?.changed == ["Trip:1.name"])
        #expect(recorder.last?.result.complete == true)
    }

    @Test func writingANewValueClearsAnInvalidation() throws {
        try cache.invalidate("Trip:2", field: "name")
        try cache.write(record: "Trip:2", fields: ["name": "Braga"])
        #expect(try cache.read(trips).complete)
        // Evicting and writing again clears it too.
        try cache.invalidate("Trip:2", field: "name")
        try cache.evict("Trip:2", field: "name")
        try cache.write(record: "Trip:2", fields: ["name": "Braga"])
        #expect(try cache.read(trips).complete)
    }

    @Test func invalidatingARootField() throws {
        let (watch, recorder) = try watch(trips)
        defer { watch.cancel() }
        try cache.invalidate("QUERY_ROOT", field: "trips")
        #expect(try cache.read(trips).missing == ["QUERY_ROOT.trips"])
        #expect(recorder.last?.cause == .evict)
        #expect(recorder.last?.changed == ["QUERY_ROOT.trips"])
    }
}
