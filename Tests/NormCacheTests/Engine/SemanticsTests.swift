import Testing
@testable import NormCache

/// The engine's rules where Apollo iOS and Apollo Client answer differently, each under
/// both semantics (docs/engine.md, "Apollo iOS and Apollo Client"). Like every engine test,
/// they run over each store (`NORMCACHE_TEST_STORE`).
@Suite struct SemanticsTests {
    let cache: NormalizedCache
    let trips: CompiledOperation

    init() throws {
        cache = try Support.cache()
        trips = try cache.operation("{ trips { id name } }")
        try cache.write(data: try Support.object("""
            {"trips":[{"__typename":"Trip","id":"1","name":"Lisbon"},{"__typename":"Trip","id":"2","name":"Porto"}]}
            """), for: trips)
    }

    @Test func apolloIOSIsTheDefault() {
        #expect(NormalizedCache().semantics == .apolloIOS)
        #expect(cache.semantics == .apolloIOS)
        #expect(Semantics(rawValue: "apollo-client") == .apolloClient)
        #expect(Semantics.allCases.map(\.name) == ["apollo-ios", "apollo-client"])
    }

    // MARK: a list's reference to a record that is gone

    /// Apollo iOS: the cache read fails on the record it cannot load (ApolloStore's
    /// `loadObject` throws `missingValue`), so the query misses and goes to the network.
    @Test func apolloIOSMissesAListWhoseItemIsGone() throws {
        try cache.evict("Trip:2")
        let result = try cache.read(trips)
        #expect(!result.complete)
        #expect(result.data == nil)
        #expect(result.missing == ["Trip:2.__typename", "Trip:2.id", "Trip:2.name"])
        // A partial read keeps the list's shape: the gone item reads as an empty object.
        let partial = try cache.read(trips, partial: true)
        #expect(partial.data?["trips"] == [["__typename": "Trip", "id": "1", "name": "Lisbon"], [:]])
    }

    /// Apollo Client: a list filters out its dangling references (readFromStore's `canRead`).
    @Test func apolloClientLeavesTheGoneItemOut() throws {
        cache.semantics = .apolloClient
        try cache.evict("Trip:2")
        let result = try cache.read(trips)
        #expect(result.complete)
        #expect(Support.canonical(result.data) == #"{"trips":[{"__typename":"Trip","id":"1","name":"Lisbon"}]}"#)
    }

    /// The semantics is read by each read: switching needs no rewrite.
    @Test func switchingChangesTheNextRead() throws {
        try cache.evict("Trip:2")
        #expect(try !cache.read(trips).complete)
        cache.semantics = .apolloClient
        #expect(try cache.read(trips).complete)
        cache.semantics = .apolloIOS
        #expect(try !cache.read(trips).complete)
    }

    /// A watcher of the engine hears the eviction under both (the client decides what a
    /// view is told), reads it each one's way, and completes again when the record returns.
    @Test(arguments: Semantics.allCases) func aWatcherReadsTheGoneItemEachWayAndHearsItComeBack(semantics: Semantics) throws {
        cache.semantics = semantics
        let recorder = Recorder()
        let watch = try cache.watch(trips, onEmission: recorder.callback)
        defer { watch.cancel() }
        try cache.evict("Trip:2")
        #expect(recorder.causes == [.initial, .evict])
        switch semantics {
        case .apolloIOS:
            #expect(recorder.last?.result.data == nil)
            #expect(recorder.last?.result.missing == ["Trip:2.__typename", "Trip:2.id", "Trip:2.name"])
        case .apolloClient:
            #expect(recorder.last?.result.data?["trips"] == [["__typename": "Trip", "id": "1", "name": "Lisbon"]])
        }
        try cache.write(record: "Trip:2", fields: ["__typename": "Trip", "id": "2", "name": "Porto"])
        #expect(recorder.causes == [.initial, .evict, .write])
        #expect(recorder.last?.result.complete == true)
        #expect(recorder.last?.result.data?["trips"] == [["__typename": "Trip", "id": "1", "name": "Lisbon"], ["__typename": "Trip", "id": "2", "name": "Porto"]])
    }

    /// A list inside an object kept inline (an Apollo Client snapshot's unnormalized
    /// object) reads its references by the same rule.
    @Test(arguments: Semantics.allCases) func aListInsideAnInlineObjectFollowsTheSameRule(semantics: Semantics) throws {
        cache.semantics = semantics
        try cache.restore(try JSON.parse(#"""
            {"ROOT_QUERY":{"__typename":"Query","feed":{"__typename":"Feed","items":[{"__ref":"Trip:1"},{"__ref":"Trip:9"}]}},
             "Trip:1":{"__typename":"Trip","id":"1","name":"Lisbon"}}
            """#, references: .apolloClient))
        let result = try cache.read(try cache.operation("{ feed { items { id name } } }"))
        switch semantics {
        case .apolloIOS:
            #expect(result.data == nil)
            #expect(result.missing == ["Trip:9.__typename", "Trip:9.id", "Trip:9.name"])
        case .apolloClient:
            #expect(result.complete)
            #expect(result.data?["feed"]?["items"] == [["__typename": "Trip", "id": "1", "name": "Lisbon"]])
        }
    }

    /// A single reference to a gone record is missing under both.
    @Test(arguments: Semantics.allCases) func aSingleReferenceToAGoneRecordMissesUnderBoth(semantics: Semantics) throws {
        cache.semantics = semantics
        let trip = try cache.operation("query ($id: ID!) { trip(id: $id) { id name } }")
        try cache.write(data: ["trip": ["__typename": "Trip", "id": "2", "name": "Porto"]], for: trip, variables: ["id": "2"])
        try cache.evict("Trip:2")
        #expect(try cache.read(trip, variables: ["id": "2"]).missing == ["Trip:2.__typename", "Trip:2.id", "Trip:2.name"])
    }

    // MARK: a key field the response lacks

    private func tripWithoutID() throws -> (CompiledOperation, CacheObject) {
        (try cache.operation("{ trip { name } }"), try Support.object(#"{"trip":{"__typename":"Trip","name":"Faro"}}"#))
    }

    /// Apollo iOS: the key cannot be made (SchemaMetadata.cacheKey's `try?`), so the
    /// object is stored under its path key; the engine warns.
    @Test func apolloIOSStoresAnObjectWithoutItsKeyFieldUnderItsPathKey() throws {
        cache.typePolicies["Trip"] = .keyFields(["id"])
        let (op, data) = try tripWithoutID()
        try cache.write(data: data, for: op)
        #expect(cache.record("QUERY_ROOT.trip")?["name"] == "Faro")
        #expect(cache.takeWarnings() == ["Trip at QUERY_ROOT.trip has no id: stored under its path key"])
        #expect(try cache.read(op).data?["trip"] == ["__typename": "Trip", "name": "Faro"])
    }

    /// Apollo Client: a type policy's key field missing from the object is an error
    /// ("Missing field 'id' while extracting keyFields"), and nothing is written.
    @Test func apolloClientRefusesAnObjectWithoutItsKeyField() throws {
        cache.semantics = .apolloClient
        cache.typePolicies["Trip"] = .keyFields(["id"])
        let (op, data) = try tripWithoutID()
        let before = cache.keys()
        #expect {
            try cache.write(data: data, for: op)
        } throws: { error in
            guard case .response(let response) = error as? CacheError else { return false }
            return response.path == "data.trip.id"
                && response.message.hasPrefix(#"missing field "id", a key field of Trip (its type policy keys it by id"#)
        }
        #expect(cache.keys() == before)
        #expect(cache.takeWarnings().isEmpty)
    }

    /// Apollo Client refuses only what a policy declares: without one, an object without
    /// `id` is stored unnormalized, under both.
    @Test(arguments: Semantics.allCases) func withoutAPolicyAMissingIDIsStoredUnderItsPathKey(semantics: Semantics) throws {
        cache.semantics = semantics
        let (op, data) = try tripWithoutID()
        try cache.write(data: data, for: op)
        #expect(cache.record("QUERY_ROOT.trip")?["name"] == "Faro")
    }

    /// An endpoint's policy counts as declared, and a key field the response carries
    /// without the query selecting it keys the object under both.
    @Test(arguments: Semantics.allCases) func anEndpointPolicyIsDeclaredAndAnUnselectedKeyFieldTheResponseCarriesKeys(semantics: Semantics) throws {
        cache.semantics = semantics
        var endpoint = SchemaKnowledge()
        endpoint.typePolicies["Trip"] = .keyFields(["id"])
        let (op, data) = try tripWithoutID()
        var carried = data
        carried["trip"] = ["__typename": "Trip", "id": "7", "name": "Faro"]
        try cache.write(data: carried, for: op, schema: endpoint)
        #expect(cache.record("Trip:7")?["name"] == "Faro")
        if semantics == .apolloClient {
            #expect(throws: CacheError.self) { try cache.write(data: data, for: op, schema: endpoint) }
        } else {
            try cache.write(data: data, for: op, schema: endpoint)
            #expect(cache.record("QUERY_ROOT.trip")?["name"] == "Faro")
        }
    }

    // MARK: what a watcher depends on after a clear

    /// Apollo iOS's watcher keeps the dependent keys of its last result over reads that
    /// fail: after a clear, a write of a field its last complete read met reaches it, and
    /// the read, incomplete and unchanged, is delivered again (what makes Apollo iOS's
    /// watcher refetch). Apollo Client's watch depends on what its last read met alone. A
    /// complete read again ends it.
    @Test(arguments: Semantics.allCases) func afterAClearAWriteOfWhatTheLastCompleteReadMetReachesTheWatcherUnderApolloIOS(semantics: Semantics) throws {
        cache.semantics = semantics
        let recorder = Recorder()
        let watch = try cache.watch(trips, partial: true, onEmission: recorder.callback)
        defer { watch.cancel() }
        try cache.clear()
        #expect(recorder.causes == [.initial, .clear])
        try cache.write(record: "Trip:2", fields: ["name": "Faro"])
        switch semantics {
        case .apolloIOS:
            #expect(recorder.causes == [.initial, .clear, .write])
            #expect(recorder.last?.result.complete == false)
            #expect(recorder.last?.result.data == recorder.emissions.dropLast().last?.result.data)
        case .apolloClient:
            #expect(recorder.causes == [.initial, .clear])
        }
        try cache.write(data: try Support.object(#"{"trips":[{"__typename":"Trip","id":"3","name":"Kyoto"}]}"#), for: trips)
        #expect(recorder.last?.result.complete == true)
        let count = recorder.causes.count
        try cache.write(record: "Trip:2", fields: ["name": "Porto"])   // no longer in the list
        #expect(recorder.causes.count == count)
    }

    // MARK: a null where the schema declares non-null

    static let nonNullSDL = """
        type Trip { id: ID! name: String! stops: [String!] }
        type Query { trips: [Trip!]! trip: Trip! }
        """

    /// A null the schema forbids (a response with errors may leave one, `write(record:)`
    /// may set one): Apollo iOS's read fails on it (`JSONDecodingError.nullValue`), so the
    /// field is missing; Apollo Client reads the null. A nullable field's null reads under both.
    @Test(arguments: Semantics.allCases) func aNullInANonNullFieldMissesUnderApolloIOS(semantics: Semantics) throws {
        cache.semantics = semantics
        cache.possibleTypes = try PossibleTypes(sdl: Self.nonNullSDL)
        try cache.write(record: "Trip:1", fields: ["stops": ["Faro"]])
        try cache.write(record: "Trip:2", fields: ["name": .null, "stops": .null])
        let result = try cache.read(trips)
        let withStops = try cache.read(try cache.operation("{ trips { id stops } }"))
        #expect(withStops.complete)
        switch semantics {
        case .apolloIOS:
            #expect(!result.complete)
            #expect(result.missing == ["Trip:2.name"])
        case .apolloClient:
            #expect(result.complete)
            #expect(result.data?["trips"] == [["__typename": "Trip", "id": "1", "name": "Lisbon"], ["__typename": "Trip", "id": "2", "name": nil]])
        }
    }

    /// The items of a list are checked as its type says: `[String!]` refuses a null item,
    /// `[Trip!]!` a null in place of a trip; a null root field of type `Trip!` misses too.
    @Test(arguments: Semantics.allCases) func aNullItemOrObjectTheSchemaForbidsMissesUnderApolloIOS(semantics: Semantics) throws {
        cache.semantics = semantics
        cache.possibleTypes = try PossibleTypes(sdl: Self.nonNullSDL)
        try cache.write(record: "Trip:1", fields: ["stops": ["Faro", .null]])
        try cache.write(record: "Trip:2", fields: ["stops": []])
        try cache.write(record: "QUERY_ROOT", fields: ["trip": .null])
        let stops = try cache.read(try cache.operation("{ trips { id stops } }"))
        let trip = try cache.read(try cache.operation("{ trip { id } }"))
        #expect(stops.complete == (semantics == .apolloClient))
        #expect(trip.complete == (semantics == .apolloClient))
        if semantics == .apolloIOS {
            #expect(stops.missing == ["Trip:1.stops"])
            #expect(trip.missing == ["QUERY_ROOT.trip"])
        }
        try cache.write(record: "QUERY_ROOT", fields: ["trips": .list([.reference("Trip:1"), .null])])
        #expect(try cache.read(trips).complete == (semantics == .apolloClient))
    }

    /// Without a schema that types the field, a null reads as null under both: only the
    /// schema says a field is non-null.
    @Test func withoutASchemaANullReads() throws {
        try cache.write(record: "Trip:2", fields: ["name": .null])
        #expect(try cache.read(trips).complete)
    }

    // MARK: a deferred part not in the cache (@defer)

    private func detail() throws -> CompiledOperation {
        try cache.operation("""
            query Detail { trips { id ... @defer(label: "more") { name } ...Extra @defer(label: "extra") } }
            fragment Extra on Trip { notes }
            """)
    }

    /// A response's initial part lacks its deferred fields: no error, and they are not written.
    @Test func aDeferredFieldMissingFromAResponseIsNoError() throws {
        let detail = try detail()
        try cache.write(response: ["data": ["trips": [["__typename": "Trip", "id": "1"]]], "hasNext": true], for: detail)
        #expect(try cache.read(detail).data?["trips"] == [["__typename": "Trip", "id": "1", "name": "Lisbon"]])
        #expect(!(try cache.operation("{ trips { id notes } }").readsWhole(from: cache)))
    }

    /// Apollo iOS: a deferred fragment whose fields are missing is pending, and the read a
    /// hit without them (DeferOperationCacheReadTests); cache-first sends nothing.
    @Test func apolloIOSReadsAMissingDeferredPartAsPending() throws {
        let result = try cache.read(try detail())
        #expect(result.complete)
        #expect(result.missing.isEmpty)
        #expect(result.data?["trips"] == [["__typename": "Trip", "id": "1", "name": "Lisbon"], ["__typename": "Trip", "id": "2", "name": "Porto"]])
        #expect(result.pending == ["Trip:1.notes", "Trip:2.notes"], "what `.why` says is pending")
        let whole = try cache.read(trips)
        #expect(whole.pending.isEmpty)
    }

    /// Apollo iOS shows a deferred fragment whole or not at all: one field of it missing
    /// leaves the fragment pending, the fields it has too; another fragment whole is shown.
    @Test func apolloIOSLeavesAFragmentWithAMissingFieldPendingWhole() throws {
        let halves = try cache.operation("""
            query Halves { trips { id ... @defer(label: "half") { name notes } ... @defer(label: "whole") { name } } }
            """)
        let result = try cache.read(halves)
        #expect(result.complete)
        #expect(result.data?["trips"] == [["__typename": "Trip", "id": "1", "name": "Lisbon"], ["__typename": "Trip", "id": "2", "name": "Porto"]])
        let alone = try cache.operation(#"query Half { trips { id ... @defer(label: "half") { name notes } } }"#)
        #expect(try cache.read(alone).data?["trips"] == [["__typename": "Trip", "id": "1"], ["__typename": "Trip", "id": "2"]])
        #expect(try cache.read(alone).pending == ["Trip:1.notes", "Trip:2.notes"])
    }

    /// Apollo Client: a read missing deferred fields is partial, and cache-first goes to the network.
    @Test func apolloClientMissesAMissingDeferredPart() throws {
        cache.semantics = .apolloClient
        let result = try cache.read(try detail())
        #expect(!result.complete)
        #expect(result.missing == ["Trip:1.notes", "Trip:2.notes"])
    }

    /// `@defer(if: false)` defers nothing: its fields are required like any other.
    @Test func aDeferThatDoesNotHoldDefersNothing() throws {
        let conditional = try cache.operation("query C($d: Boolean!) { trips { id ... @defer(if: $d) { notes } ... @defer(if: false) { name } } }")
        #expect(try cache.read(conditional, variables: ["d": true]).complete)
        #expect(try cache.read(conditional, variables: ["d": false]).missing == ["Trip:1.notes", "Trip:2.notes"])
        #expect(!(try cache.operation("{ trips { ... @defer(if: false) { notes } } }")).defers)
        #expect(conditional.defers)
    }
}

private extension CompiledOperation {
    func readsWhole(from cache: NormalizedCache) throws -> Bool { try cache.read(self).complete }
}
