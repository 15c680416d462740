import Testing
@testable import NormCache

/// Cache redirects: a read of a field with a field policy that finds the field absent reads
/// the record its arguments name (`trip(id: "3")` → `Trip:3`), says so, and is watched on
/// both the absent field and the record.
@Suite struct CacheRedirectTests {
    let cache: NormalizedCache
    let trips: SchemaKnowledge

    init() throws {
        cache = try Support.cache()
        var trips = SchemaKnowledge(possibleTypes: try PossibleTypes(sdl: """
            interface Node { id: ID! }
            type Trip implements Node { id: ID! name: String! seats: Int }
            type Seat { flight: String! number: String! row: Int }
            input TripInput { id: ID! }
            type Query {
              trips(ids: [ID!]): [Trip!]!
              trip(id: ID!): Trip
              search(input: TripInput!): Trip
              node(id: ID!): Node
              seats: [Seat!]!
              seat(flight: String!, number: String!): Seat
            }
            """))
        trips.typePolicies["Seat"] = .keyFields(["flight", "number"])
        trips.fieldPolicies["Query", "trip"] = ["id"]
        trips.fieldPolicies["Query", "trips"] = ["ids"]
        trips.fieldPolicies["Query", "search"] = ["input.id"]
        trips.fieldPolicies["Query", "node"] = ["id"]
        trips.fieldPolicies["Query", "seat"] = ["flight", "number"]
        self.trips = trips
    }

    /// Writes `{ trips { id name } }` with these trips (id → name).
    private func writeTripList(_ names: [(String, String)]) throws {
        let list = names.map { #"{"__typename":"Trip","id":"\#($0.0)","name":"\#($0.1)"}"# }.joined(separator: ",")
        try cache.write(data: try Support.object(#"{"trips":[\#(list)]}"#), for: try cache.operation("{ trips { id name } }"), schema: trips)
    }

    private func read(_ document: String, _ variables: String = "{}", schema: SchemaKnowledge? = nil, partial: Bool = false) throws -> ReadResult {
        try cache.read(try cache.operation(document), variables: try Support.object(variables), schema: schema ?? trips, partial: partial)
    }

    private static let tripDetail = "query TripDetail($id: ID!) { trip(id: $id) { id name } }"

    /// (The stored `__typename` comes back in the data, as in every read.)
    @Test func aTripTheListWroteAnswersTheDetailRead() throws {
        try writeTripList([("1", "Lisbon"), ("3", "Porto")])
        let result = try read(Self.tripDetail, #"{"id":"3"}"#)
        #expect(result.complete)
        #expect(Support.canonical(result.data) == #"{"trip":{"__typename":"Trip","id":"3","name":"Porto"}}"#)
        #expect(result.redirects == [CacheRedirect(field: "QUERY_ROOT.trip(id:3)", records: ["Trip:3"])])
        #expect(result.redirects.map(\.description) == ["QUERY_ROOT.trip(id:3) → Trip:3"])
        // An Int literal names the same record; without the endpoint's policies nothing redirects.
        #expect(try read("{ trip(id: 3) { name } }").data?["trip"]?["name"] == "Porto")
        let plain = try read(Self.tripDetail, #"{"id":"3"}"#, schema: SchemaKnowledge(possibleTypes: trips.possibleTypes))
        #expect(plain.missing == ["QUERY_ROOT.trip(id:3)"])
        #expect(plain.redirects.isEmpty)
    }

    /// What the server answered for the field itself wins, null included: a redirect only
    /// stands in for an absent field.
    @Test func aStoredFieldWinsOverItsPolicy() throws {
        try writeTripList([("3", "Porto")])
        try cache.write(data: try Support.object(#"{"trip":null}"#), for: try cache.operation("{ trip(id: 3) { id name } }"), schema: trips)
        let result = try read(Self.tripDetail, #"{"id":"3"}"#)
        #expect(result.complete)
        #expect(result.data?["trip"] == .null)
        #expect(result.redirects.isEmpty)
    }

    @Test func compositeKeyArgumentsInPolicyOrderWithTheKeyEscaped() throws {
        let seats = #"{"seats":[{"__typename":"Seat","flight":"LH123","number":"14C","row":14},{"__typename":"Seat","flight":"LH123","number":"1+A","row":1}]}"#
        try cache.write(data: try Support.object(seats), for: try cache.operation("{ seats { flight number row } }"), schema: trips)
        #expect(cache.keys(matching: "Seat:*") == [#"Seat:LH123+14C"#, #"Seat:LH123+1\+A"#])
        let result = try read(#"query ($n: String!) { seat(number: $n, flight: "LH123") { row } }"#, #"{"n":"1+A"}"#)
        #expect(result.data?["seat"]?["row"] == 1)
        #expect(result.redirects.map(\.records) == [[#"Seat:LH123+1\+A"#]])
    }

    @Test func aListArgumentReadsOneRecordPerItemInOrder() throws {
        try writeTripList([("1", "Lisbon"), ("2", "Porto"), ("3", "Faro")])
        let result = try read("query ($ids: [ID!]) { trips(ids: $ids) { name } }", #"{"ids":["3","1"]}"#)
        #expect(Support.canonical(result.data) == #"{"trips":[{"__typename":"Trip","name":"Faro"},{"__typename":"Trip","name":"Lisbon"}]}"#)
        #expect(result.redirects.map(\.description) == ["QUERY_ROOT.trips(ids:[3, 1]) → Trip:3, Trip:1"])
        // One item's record is absent: the list would have a hole, so the field is missing.
        let holed = try read("{ trips(ids: [1, 9]) { name } }")
        #expect(holed.missing == ["QUERY_ROOT.trips(ids:[1, 9])"])
        #expect(holed.redirects.isEmpty)
    }

    @Test func anInputObjectPathAndAnInterfaceReturningField() throws {
        try writeTripList([("3", "Porto")])
        #expect(try read(#"{ search(input: {id: "3"}) { name } }"#).data?["search"]?["name"] == "Porto")
        // node returns Node: the key is its implementation's, Trip:3 (never Node:3).
        let node = try read(#"{ node(id: "3") { id ... on Trip { name } } }"#)
        #expect(Support.canonical(node.data) == #"{"node":{"__typename":"Trip","id":"3","name":"Porto"}}"#)
        #expect(node.redirects.map(\.records) == [["Trip:3"]])
    }

    /// When the record the policy names does not exist, nothing is redirected: the field
    /// itself is what the network must answer, so it is the missing one.
    @Test func anAbsentTargetLeavesTheFieldMissing() throws {
        try writeTripList([("1", "Lisbon")])
        let result = try read(Self.tripDetail, #"{"id":"9"}"#)
        #expect(result.missing == ["QUERY_ROOT.trip(id:9)"])
        #expect(result.redirects.isEmpty)
        #expect(result.data == nil)
    }

    /// A record that exists but lacks a selected field: the read is redirected and names
    /// the record's missing field, which is what would send it to the network.
    @Test func anIncompleteTargetNamesItsMissingFields() throws {
        try writeTripList([("3", "Porto")])
        let result = try read("query ($id: ID!) { trip(id: $id) { id name seats } }", #"{"id":"3"}"#, partial: true)
        #expect(result.missing == ["Trip:3.seats"])
        #expect(result.redirects.map(\.description) == ["QUERY_ROOT.trip(id:3) → Trip:3"])
        #expect(Support.canonical(result.data) == #"{"trip":{"__typename":"Trip","id":"3","name":"Porto"}}"#)
    }

    /// A watcher over a redirected field hears of the record's arrival, of its changes, and
    /// of a later write of the field itself, which then wins.
    @Test func aWatcherFollowsTheRecordAndTheFieldItself() throws {
        let recorder = Recorder()
        let watch = try cache.watch(try cache.operation(Self.tripDetail), variables: ["id": "9"], schema: trips,
                                    onEmission: recorder.callback)
        defer { watch.cancel() }
        #expect(recorder.last?.result.missing == ["QUERY_ROOT.trip(id:9)"])
        try writeTripList([("9", "Braga")])
        #expect(recorder.count == 2)
        #expect(recorder.last?.result.data?["trip"]?["name"] == "Braga")
        #expect(recorder.last?.result.redirects.map(\.records) == [["Trip:9"]])
        try cache.write(record: "Trip:9", fields: ["name": "Guimarães"])
        #expect(recorder.last?.result.data?["trip"]?["name"] == "Guimarães")
        try cache.write(record: "QUERY_ROOT", fields: ["trip(id:9)": .null])
        #expect(recorder.count == 4)
        #expect(recorder.last?.changed == ["QUERY_ROOT.trip(id:9)"])
        #expect(recorder.last?.result.data?["trip"] == .null)
        #expect(recorder.last?.result.redirects == [])
    }
}
