import Synchronization
import Testing
@testable import NormCache

/// Watchers: the initial emission, emissions only for changed results, causes and changed
/// keys, cancelling, fan-out to many watchers, the "refetch after mutation" rule, and the
/// AsyncStream variant.
@Suite struct WatchTests {
    let cache: NormalizedCache

    init() throws {
        cache = try Support.cache()
    }

    func write(_ document: String, _ data: String, variables: CacheObject = CacheObject(), cause: ChangeCause = .write) throws {
        try cache.write(data: try Support.object(data), for: try cache.operation(document), variables: variables, cause: cause)
    }

    @Test func theInitialEmission() throws {
        try write("{ trip(id: 1) { id name } }", #"{"trip":{"__typename":"Trip","id":"1","name":"Lisbon"}}"#)
        let recorder = Recorder()
        let watch = try cache.watch(try cache.operation("{ trip(id: 1) { id name } }"), onEmission: recorder.callback)
        defer { watch.cancel() }
        #expect(recorder.count == 1)
        let first = try #require(recorder.last)
        #expect(first.cause == .initial)
        #expect(first.number == 1)
        #expect(first.watcher == watch.id)
        #expect(first.changed.isEmpty)
        #expect(first.result.complete)
        #expect(first.result.data?["trip"]?["name"] == "Lisbon")
    }

    @Test func theInitialEmissionOfAMiss() throws {
        let recorder = Recorder()
        let watch = try cache.watch(try cache.operation("{ trip(id: 1) { id name } }"), onEmission: recorder.callback)
        defer { watch.cancel() }
        #expect(recorder.last?.result.data == nil)
        #expect(recorder.last?.result.missing == ["QUERY_ROOT.trip(id:1)"])
        // Partial watchers get what there is.
        let partial = Recorder()
        let watch2 = try cache.watch(try cache.operation("{ trip(id: 1) { id name } a }"), partial: true, onEmission: partial.callback)
        defer { watch2.cancel() }
        #expect(partial.last?.result.data == .object(CacheObject()))
        // The miss is filled: both hear of it.
        try write("{ trip(id: 1) { id name } }", #"{"trip":{"__typename":"Trip","id":"1","name":"Lisbon"}}"#)
        #expect(recorder.last?.result.complete == true)
        #expect(recorder.last?.changed == ["QUERY_ROOT.trip(id:1)"])
        #expect(partial.last?.result.data?["trip"]?["name"] == "Lisbon")
        #expect(partial.last?.result.missing == ["QUERY_ROOT.a"])
    }

    @Test func aRecordNewToTheCacheReachesTheWatcherWaitingForIt() throws {
        // QUERY_ROOT already points at Trip:1, which is not in the cache yet.
        try cache.write(record: "QUERY_ROOT", fields: ["trip(id:1)": .reference("Trip:1")])
        let recorder = Recorder()
        let watch = try cache.watch(try cache.operation("{ trip(id: 1) { id name } }"), onEmission: recorder.callback)
        defer { watch.cancel() }
        #expect(recorder.last?.result.complete == false)
        // The write adds Trip:1 whole (QUERY_ROOT's reference does not change).
        let changes = try cache.write(data: try Support.object(#"{"trip":{"__typename":"Trip","id":"1","name":"Lisbon"}}"#),
                                      for: try cache.operation("{ trip(id: 1) { id name } }"))
        #expect(changes.keys == ["Trip:1.__typename", "Trip:1.id", "Trip:1.name"])
        #expect(changes.count == 3)
        #expect(recorder.causes == [.initial, .write])
        #expect(recorder.last?.result.complete == true)
        #expect(recorder.last?.changed.contains("Trip:1.name") == true)
    }

    @Test func causeAndChangedKeys() throws {
        try write("{ trips { id name price } }", #"{"trips":[{"__typename":"Trip","id":"1","name":"Lisbon","price":10},{"__typename":"Trip","id":"2","name":"Porto","price":20}]}"#)
        let recorder = Recorder()
        let watch = try cache.watch(try cache.operation("{ trips { id name price } }"), onEmission: recorder.callback)
        defer { watch.cancel() }
        try write("{ trips { id name price } }", #"{"trips":[{"__typename":"Trip","id":"1","name":"Faro","price":11},{"__typename":"Trip","id":"2","name":"Porto","price":21}]}"#,
                  cause: .refetch)
        #expect(recorder.causes == [.initial, .refetch])
        #expect(recorder.last?.changed == ["Trip:1.name", "Trip:1.price", "Trip:2.price"])
        #expect(recorder.last?.number == 2)
        try cache.write(record: "Trip:2", fields: ["name": "Braga"])
        #expect(recorder.causes == [.initial, .refetch, .write])
        #expect(recorder.last?.changed == ["Trip:2.name"])
        #expect(recorder.last?.result.data?["trips"] == [
            ["__typename": "Trip", "id": "1", "name": "Faro", "price": 11], ["__typename": "Trip", "id": "2", "name": "Braga", "price": 21],
        ])
    }

    @Test func changesToFieldsItDoesNotReadAreNotHeard() throws {
        try write("{ trip(id: 1) { id name price } }", #"{"trip":{"__typename":"Trip","id":"1","name":"Lisbon","price":10}}"#)
        let recorder = Recorder()
        let watch = try cache.watch(try cache.operation("{ trip(id: 1) { id name } }"), onEmission: recorder.callback)
        defer { watch.cancel() }
        try cache.write(record: "Trip:1", fields: ["price": 12])
        try write("{ trip(id: 2) { id name } }", #"{"trip":{"__typename":"Trip","id":"2","name":"Porto"}}"#)
        #expect(recorder.count == 1)
        #expect(cache.watchers.first?.emissions == 1)
    }

    /// A dependency changed but the result did not: no emission; and the watcher now
    /// follows the new record, not the old one.
    @Test func emitsOnlyWhenTheResultDiffers() throws {
        let op = try cache.operation("{ hero { name } }")
        try write("{ hero { id name } }", #"{"hero":{"__typename":"Human","id":"1","name":"Luke"}}"#)
        let recorder = Recorder()
        let watch = try cache.watch(op, onEmission: recorder.callback)
        defer { watch.cancel() }
        try write("{ hero { id name } }", #"{"hero":{"__typename":"Human","id":"2","name":"Luke"}}"#)
        #expect(cache.record("QUERY_ROOT")?["hero"] == .reference("Human:2"))
        #expect(recorder.count == 1)
        try cache.write(record: "Human:1", fields: ["name": "Old Luke"])
        #expect(recorder.count == 1)
        try cache.write(record: "Human:2", fields: ["name": "New Luke"])
        #expect(recorder.count == 2)
        #expect(recorder.last?.changed == ["Human:2.name"])
        #expect(recorder.last?.result.data?["hero"]?["name"] == "New Luke")
    }

    @Test func cancelStopsEmissions() throws {
        let op = try cache.operation("{ trip(id: 1) { id name } }")
        try write("{ trip(id: 1) { id name } }", #"{"trip":{"__typename":"Trip","id":"1","name":"Lisbon"}}"#)
        let recorder = Recorder(), other = Recorder()
        let watch = try cache.watch(op, onEmission: recorder.callback)
        let stays = try cache.watch(op, onEmission: other.callback)
        defer { stays.cancel() }
        #expect(cache.watchers.map(\.id) == [watch.id, stays.id])
        #expect(cache.statistics.watchers == 2)
        watch.cancel()
        #expect(cache.watchers.map(\.id) == [stays.id])
        #expect(cache.watchers.first?.operation === op)
        try cache.write(record: "Trip:1", fields: ["name": "Porto"])
        #expect(recorder.count == 1)
        #expect(other.count == 2)
        watch.cancel()   // twice is harmless
        #expect(cache.statistics.watchers == 1)
    }

    /// 1,000 watchers, each on its own record: a write to one record re-reads that watcher only.
    @Test func aThousandWatchersAndOneWrite() throws {
        let list = try cache.operation("{ trips { id name } }")
        var trips: [CacheValue] = []
        for index in 0..<1000 { trips.append(["__typename": "Trip", "id": .string("\(index)"), "name": .string("Trip \(index)")]) }
        try cache.write(data: ["trips": .list(trips)], for: list)
        let op = try cache.operation("query ($id: ID!) { trip(id: $id) { id name } }")
        for index in 0..<1000 {
            try write("query ($id: ID!) { trip(id: $id) { id } }", #"{"trip":{"__typename":"Trip","id":"\#(index)"}}"#, variables: ["id": .string("\(index)")])
        }
        let recorders = (0..<1000).map { _ in Recorder() }
        var watches: [Watch] = []
        for index in 0..<1000 {
            watches.append(try cache.watch(op, variables: ["id": .string("\(index)")], onEmission: recorders[index].callback))
        }
        defer { for watch in watches { watch.cancel() } }
        #expect(recorders.allSatisfy { $0.count == 1 && $0.last?.result.complete == true })
        try cache.write(record: "Trip:417", fields: ["name": "Changed"])
        #expect(recorders.indices.filter { recorders[$0].count != 1 } == [417])
        #expect(recorders[417].last?.result.data?["trip"]?["name"] == "Changed")
        let counts = cache.watchers.map(\.emissions)
        #expect(counts.count == 1000)
        #expect(counts.filter { $0 == 2 }.count == 1)
        #expect(counts.filter { $0 == 1 }.count == 999)
        #expect(cache.watchers.first { $0.emissions == 2 }?.id == watches[417].id)
    }

    /// Apollo iOS's watch semantics (docs/engine.md, "Watchers"): a mutation returning an updated entity updates
    /// a watched list; a mutation that creates an object does not add it to the list until the
    /// list is refetched.
    @Test func refetchAfterMutation() throws {
        let list = try cache.operation("{ trips { id name } }")
        try write("{ trips { id name } }", #"{"trips":[{"__typename":"Trip","id":"1","name":"Lisbon"},{"__typename":"Trip","id":"2","name":"Porto"}]}"#)
        let recorder = Recorder()
        let watch = try cache.watch(list, onEmission: recorder.callback)
        defer { watch.cancel() }

        try write(#"mutation { renameTrip(id: 2, name: "Braga") { id name } }"#, #"{"renameTrip":{"__typename":"Trip","id":"2","name":"Braga"}}"#)
        #expect(recorder.causes == [.initial, .write])
        #expect(recorder.last?.changed == ["Trip:2.name"])
        #expect(recorder.last?.result.data?["trips"] == [["__typename": "Trip", "id": "1", "name": "Lisbon"], ["__typename": "Trip", "id": "2", "name": "Braga"]])

        try write(#"mutation { createTrip(name: "Faro") { id name } }"#, #"{"createTrip":{"__typename":"Trip","id":"3","name":"Faro"}}"#)
        #expect(cache.record("Trip:3")?["name"] == "Faro")
        #expect(recorder.count == 2)
        #expect(try cache.read(list).data?["trips"].map { if case .list(let items) = $0 { items.count } else { 0 } } == 2)

        try write("{ trips { id name } }", """
            {"trips":[{"__typename":"Trip","id":"1","name":"Lisbon"},{"__typename":"Trip","id":"2","name":"Braga"},{"__typename":"Trip","id":"3","name":"Faro"}]}
            """, cause: .refetch)
        #expect(recorder.causes == [.initial, .write, .refetch])
        #expect(recorder.last?.changed == ["QUERY_ROOT.trips"])
        #expect(recorder.last?.result.data?["trips"]?.listCount == 3)
    }

    @Test func setVariablesRereadsAsARefetch() throws {
        let op = try cache.operation("query ($id: ID!) { trip(id: $id) { id name } }")
        try write("{ a: trip(id: 1) { id name } b: trip(id: 2) { id name } }",
                  #"{"a":{"__typename":"Trip","id":"1","name":"Lisbon"},"b":{"__typename":"Trip","id":"2","name":"Porto"}}"#)
        let recorder = Recorder()
        let watch = try cache.watch(op, variables: ["id": "1"], onEmission: recorder.callback)
        defer { watch.cancel() }
        try cache.setVariables(of: watch, to: ["id": "2"])
        #expect(recorder.causes == [.initial, .refetch])
        #expect(recorder.last?.result.data?["trip"]?["name"] == "Porto")
        // Now it follows Trip:2, not Trip:1.
        try cache.write(record: "Trip:1", fields: ["name": "X"])
        #expect(recorder.count == 2)
        try cache.write(record: "Trip:2", fields: ["name": "Y"])
        #expect(recorder.count == 3)
        watch.cancel()
        #expect(throws: CacheError.self) { try cache.setVariables(of: watch, to: ["id": "1"]) }
    }

    @Test func aCallbackMayCallTheCache() throws {
        try write("{ trip(id: 1) { id name } trip2: trip(id: 2) { id name } }",
                  #"{"trip":{"__typename":"Trip","id":"1","name":"Lisbon"},"trip2":{"__typename":"Trip","id":"2","name":"Porto"}}"#)
        let second = Recorder()
        let watch2 = try cache.watch(try cache.operation("{ trip(id: 2) { id name } }"), onEmission: second.callback)
        defer { watch2.cancel() }
        let cache = self.cache
        let first = Recorder()
        let watch1 = try cache.watch(try cache.operation("{ trip(id: 1) { id name } }")) { emission in
            first.record(emission)
            if emission.cause == .write { _ = try? cache.write(record: "Trip:2", fields: ["name": "Echo"]) }
            _ = try? cache.read(try cache.operation("{ trip(id: 1) { id name } }"))
        }
        defer { watch1.cancel() }
        try cache.write(record: "Trip:1", fields: ["name": "Faro"])
        #expect(first.causes == [.initial, .write])
        #expect(second.causes == [.initial, .write])
        #expect(second.last?.result.data?["trip"]?["name"] == "Echo")
    }

    @Test func asyncStreamDeliversEmissions() async throws {
        let op = try cache.operation("{ trip(id: 1) { id name } }")
        try write("{ trip(id: 1) { id name } }", #"{"trip":{"__typename":"Trip","id":"1","name":"Lisbon"}}"#)
        let (watch, emissions) = try cache.watch(op)
        var iterator = emissions.makeAsyncIterator()
        let first = await iterator.next()
        #expect(first?.cause == .initial)
        #expect(first?.result.data?["trip"]?["name"] == "Lisbon")
        try cache.write(record: "Trip:1", fields: ["name": "Porto"])
        try cache.write(record: "Trip:1", fields: ["name": "Faro"])
        let second = await iterator.next(), third = await iterator.next()
        #expect(second?.cause == .write)
        #expect(second?.result.data?["trip"]?["name"] == "Porto")
        #expect(third?.result.data?["trip"]?["name"] == "Faro")
        #expect(cache.watchers.map(\.id) == [watch.id])
        watch.cancel()
        #expect(cache.watchers.isEmpty)
    }

    /// Ending the stream (the consumer goes away) cancels the watcher.
    @Test func theStreamsEndCancelsTheWatcher() async throws {
        let op = try cache.operation("{ trip(id: 1) { id name } }")
        do {
            let (_, emissions) = try cache.watch(op)
            #expect(cache.watchers.count == 1)
            for await emission in emissions {
                #expect(emission.cause == .initial)
                break
            }
        }
        // The stream is gone once its last reference is: onTermination cancels the watcher.
        for _ in 0..<100 where !cache.watchers.isEmpty { try await Task.sleep(nanoseconds: 1_000_000) }
        #expect(cache.watchers.isEmpty)
    }

    @Test func aWatcherOnARefusedOperationIsNotKept() throws {
        // The variable makes a key the interner refuses (a NUL byte).
        let op = try cache.operation("query ($id: ID!) { trip(id: $id) { id } }")
        #expect(throws: CacheError.self) { try cache.watch(op, variables: ["id": "a\u{0}b"]) { _ in } }
        #expect(cache.watchers.isEmpty)
    }

    @Test func aWatchersDependenciesAreTheRecordsItsReadFollowed() throws {
        try write("{ trip(id: 1) { id name } }", #"{"trip":{"__typename":"Trip","id":"1","name":"Lisbon"}}"#)
        let watch = try cache.watch(try cache.operation("{ trip(id: 1) { id name } other { id } }"), partial: true) { _ in }
        defer { watch.cancel() }
        #expect(cache.dependencies(ofWatcher: watch.id) == ["QUERY_ROOT", "Trip:1"])
        #expect(cache.dependencies(ofWatcher: watch.id + 1) == nil)
    }

    /// The monitor lists, besides the watchers a commit reached, those that read a record it
    /// touched but none of the fields it changed.
    @Test func theMonitorNamesTheWatchersACommitDidNotReach() throws {
        try write("{ trip(id: 1) { id name price } }", #"{"trip":{"__typename":"Trip","id":"1","name":"Lisbon","price":3}}"#)
        let names = try cache.watch(try cache.operation("query TripName { trip(id: 1) { name } }")) { _ in }
        let prices = try cache.watch(try cache.operation("{ trip(id: 1) { price } }")) { _ in }
        defer { names.cancel(); prices.cancel() }
        let commits = Mutex<[Commit]>([])
        cache.monitor { commit in commits.withLock { $0.append(commit) } }
        try cache.write(record: "Trip:1", fields: ["price": 4])
        try cache.write(record: "Other:1", fields: ["x": 1])
        cache.monitor(nil)
        let (price, other) = commits.withLock { ($0[0], $0[1]) }
        #expect(price.watchers == [prices.id])
        #expect(price.unreached == [Commit.Unreached(id: names.id, operation: "TripName", records: ["Trip:1"])])
        #expect(other.watchers.isEmpty && other.unreached.isEmpty)
    }
}

extension CacheValue {
    var listCount: Int? {
        if case .list(let items) = self { return items.count }
        return nil
    }
}
