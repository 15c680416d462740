import Testing
@testable import NormCache

/// What a write reports as changed: only fields whose value really changed, and nothing
/// (and no notification) for the same data written twice.
@Suite struct ChangeSetTests {
    let cache: NormalizedCache
    let trips: CompiledOperation
    let data: CacheObject

    init() throws {
        cache = try Support.cache()
        trips = try cache.operation("{ trips { id name price { amount } } }")
        data = try Support.object("""
            {"trips":[{"__typename":"Trip","id":"1","name":"Lisbon","price":{"__typename":"Money","amount":10}},
                      {"__typename":"Trip","id":"2","name":"Porto","price":null}]}
            """)
    }

    @Test func theFirstWriteChangesEveryField() throws {
        let changed = try cache.write(data: data, for: trips).keys
        #expect(changed == [
            "QUERY_ROOT.trips", "Trip:1.__typename", "Trip:1.id", "Trip:1.name", "Trip:1.price",
            "Trip:1.price.__typename", "Trip:1.price.amount", "Trip:2.__typename", "Trip:2.id", "Trip:2.name", "Trip:2.price",
        ])
    }

    /// New records with the same fields (a list's items) are noted as one run, and
    /// expand to every pair in the order noted.
    @Test func newRecordsWithTheSameFieldsShareARun() {
        var changes = ChangeSet()
        let fields: [UInt32] = [1, 2]
        changes.noteNewRecord(10, fields: fields)
        changes.noteNewRecord(11, fields: [1, 2])  // equal, though not the same array
        changes.noteNewRecord(12, fields: [3])
        changes.noteNewRecord(13, fields: fields)  // a run is of consecutive records only
        #expect(changes.newRecords.map(\.records) == [[10, 11], [12], [13]])
        var pairs: [[UInt32]] = []
        changes.forEachField { pairs.append([$0.record, $0.field]) }
        #expect(pairs == [[10, 1], [10, 2], [11, 1], [11, 2], [12, 3], [13, 1], [13, 2]])
        #expect(changes.changedFields.count == 7)
    }

    @Test func theSameDataTwiceChangesNothingAndNotifiesNobody() throws {
        try cache.write(data: data, for: trips)
        let recorder = Recorder()
        let watch = try cache.watch(trips, onEmission: recorder.callback)
        defer { watch.cancel() }
        let again = try cache.write(data: data, for: trips)
        #expect(again.isEmpty)
        #expect(again.keys.isEmpty)
        #expect(recorder.causes == [.initial])
        // The same through write(response:) and write(record:).
        #expect(try cache.write(response: .object(["data": .object(data)]), for: trips).isEmpty)
        #expect(try cache.write(record: "Trip:1", fields: ["name": "Lisbon"]).isEmpty)
        #expect(recorder.count == 1)
        #expect(cache.watchers.first?.emissions == 1)
    }

    /// Records keep references as record ids; a value written through a response and the
    /// same value written as a record compare equal, whatever path made them.
    @Test func theSameReferencesThroughAnotherPathChangeNothing() throws {
        try cache.write(data: data, for: trips)
        let lists: CacheObject = ["trips": [.reference("Trip:1"), .reference("Trip:2")]]
        #expect(try cache.write(record: "QUERY_ROOT", fields: lists).isEmpty)
        #expect(try cache.write(record: "Trip:2", fields: ["price": nil]).isEmpty)
        #expect(try cache.write(record: "Trip:1", fields: ["price": .reference("Trip:1.price")]).isEmpty)
        // Nulls in a list of objects, and a list holding no reference at all.
        let stops = try cache.operation("{ trip(id: 1) { id stops { id } } }")
        let withNulls = try Support.object(#"{"trip":{"__typename":"Trip","id":"1","stops":[null,{"__typename":"Stop","id":"a"}]}}"#)
        #expect(try !cache.write(data: withNulls, for: stops).isEmpty)
        #expect(try cache.write(record: "Trip:1", fields: ["stops": [nil, .reference("Stop:a")]]).isEmpty)
        let allNull = try Support.object(#"{"trip":{"__typename":"Trip","id":"1","stops":[null,null]}}"#)
        #expect(try cache.write(data: allNull, for: stops).keys == ["Trip:1.stops"])
        #expect(try cache.write(record: "Trip:1", fields: ["stops": [nil, nil]]).isEmpty)
        #expect(try cache.write(data: allNull, for: stops).isEmpty)
    }

    @Test func onlyReallyChangedFieldsAreReported() throws {
        try cache.write(data: data, for: trips)
        let recorder = Recorder()
        let watch = try cache.watch(trips, onEmission: recorder.callback)
        defer { watch.cancel() }
        var changedData = data
        changedData["trips"] = try JSON.parse("""
            [{"__typename":"Trip","id":"1","name":"Lisbon","price":{"__typename":"Money","amount":12}},
             {"__typename":"Trip","id":"2","name":"Porto","price":null}]
            """)
        let changed = try cache.write(data: changedData, for: trips)
        #expect(changed.keys == ["Trip:1.price.amount"])
        #expect(changed.count == 1)
        #expect(recorder.causes == [.initial, .write])
        #expect(recorder.last?.changed == ["Trip:1.price.amount"])
    }

    @Test func aNumberOfAnotherKindIsAChange() throws {
        let op = try cache.operation("{ trip(id: 1) { id size } }")
        try cache.write(data: try Support.object(#"{"trip":{"__typename":"Trip","id":"1","size":20}}"#), for: op)
        #expect(try cache.write(data: try Support.object(#"{"trip":{"__typename":"Trip","id":"1","size":20.0}}"#), for: op).keys == ["Trip:1.size"])
        #expect(try cache.write(data: try Support.object(#"{"trip":{"__typename":"Trip","id":"1","size":20.0}}"#), for: op).isEmpty)
    }

    @Test func listOrderAndNullsAreChanges() throws {
        try cache.write(data: data, for: trips)
        var reversed = data
        guard case .list(let items)? = data["trips"] else { Issue.record("no list"); return }
        reversed["trips"] = .list(items.reversed())
        #expect(try cache.write(data: reversed, for: trips).keys == ["QUERY_ROOT.trips"])
        let op = try cache.operation("{ trip(id: 1) { id name } }")
        #expect(try cache.write(data: try Support.object(#"{"trip":{"__typename":"Trip","id":"1","name":null}}"#), for: op).keys == ["QUERY_ROOT.trip(id:1)", "Trip:1.name"])
    }

    @Test func newFieldsOfAnExistingRecordAreChanges() throws {
        try cache.write(data: data, for: trips)
        let op = try cache.operation("{ trip(id: 1) { id seats } }")
        let changed = try cache.write(data: try Support.object(#"{"trip":{"__typename":"Trip","id":"1","seats":4}}"#), for: op)
        #expect(changed.keys == ["QUERY_ROOT.trip(id:1)", "Trip:1.seats"])
    }

    @Test func evictionsReportWhatTheyRemoved() throws {
        try cache.write(data: data, for: trips)
        #expect(try cache.evict("Trip:2", field: "name") == ["Trip:2.name"])
        #expect(try cache.evict("Trip:2") == ["Trip:2.__typename", "Trip:2.id", "Trip:2.price"])
    }
}
