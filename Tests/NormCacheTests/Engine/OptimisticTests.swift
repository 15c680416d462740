import Testing
@testable import NormCache

/// Optimistic layers: visible to reads and watchers at once, replaced by the server's
/// result on commit, and gone without a trace on rollback.
@Suite struct OptimisticTests {
    let cache: NormalizedCache
    let trips: CompiledOperation
    let rename: CompiledOperation
    let create: CompiledOperation

    init() throws {
        cache = try Support.cache()
        trips = try cache.operation("{ trips { id name } }")
        rename = try cache.operation("mutation ($id: ID!, $name: String!) { renameTrip(id: $id, name: $name) { id name } }")
        create = try cache.operation("mutation ($name: String!) { createTrip(name: $name) { id name } }")
        try cache.write(data: try Support.object(#"{"trips":[{"__typename":"Trip","id":"1","name":"Lisbon"},{"__typename":"Trip","id":"2","name":"Porto"}]}"#), for: trips)
    }

    func renamed(_ id: String, _ name: String) throws -> CacheObject {
        try Support.object(#"{"renameTrip":{"__typename":"Trip","id":"\#(id)","name":"\#(name)"}}"#)
    }

    var names: [String] {
        get throws {
            guard case .list(let items)? = try cache.read(trips, partial: true).data?["trips"] else { return [] }
            return items.map { if case .string(let name)? = $0["name"] { name } else { "?" } }
        }
    }

    @Test func anOptimisticWriteIsSeenAtOnce() throws {
        let recorder = Recorder()
        let watch = try cache.watch(trips, onEmission: recorder.callback)
        defer { watch.cancel() }
        let changed = try cache.writeOptimistic("m1", data: try renamed("1", "Faro"), for: rename, variables: ["id": "1", "name": "Faro"])
        // Only what became visibly different: Trip:1's __typename and id are what they were.
        #expect(changed.keys == ["MUTATION_ROOT.renameTrip(id:1,name:Faro)", "Trip:1.name"])
        #expect(try names == ["Faro", "Porto"])
        #expect(cache.record("Trip:1")?["name"] == "Faro")
        #expect(recorder.causes == [.initial, .optimistic])
        #expect(recorder.last?.changed == ["Trip:1.name"])
        #expect(cache.statistics.layers == 1)
        // Snapshots and the base records leave layers out.
        #expect(cache.extract()["Trip:1"]?["name"] == "Lisbon")
    }

    @Test func commitReplacesTheLayerWithTheServersResult() throws {
        let recorder = Recorder()
        let watch = try cache.watch(trips, onEmission: recorder.callback)
        defer { watch.cancel() }
        try cache.writeOptimistic("m1", data: try renamed("1", "Faro"), for: rename, variables: ["id": "1", "name": "Faro"])
        // The server agrees: nothing visible changes, so the watcher stays quiet.
        try cache.commitOptimistic("m1", response: .object(["data": .object(try renamed("1", "Faro"))]), for: rename,
                                   variables: ["id": "1", "name": "Faro"])
        #expect(cache.statistics.layers == 0)
        #expect(cache.extract()["Trip:1"]?["name"] == "Faro")
        #expect(recorder.causes == [.initial, .optimistic])
        // The server corrects the optimistic guess: one emission, cause write.
        try cache.writeOptimistic("m2", data: try renamed("2", "Braga"), for: rename, variables: ["id": "2", "name": "Braga"])
        try cache.commitOptimistic("m2", response: .object(["data": .object(try renamed("2", "Braga (Minho)"))]), for: rename,
                                   variables: ["id": "2", "name": "Braga"])
        #expect(try names == ["Faro", "Braga (Minho)"])
        #expect(recorder.causes == [.initial, .optimistic, .optimistic, .write])
        #expect(recorder.last?.changed == ["Trip:2.name"])
    }

    @Test func rollBackRestoresTheOldValue() throws {
        let recorder = Recorder()
        let watch = try cache.watch(trips, onEmission: recorder.callback)
        defer { watch.cancel() }
        try cache.writeOptimistic("m1", data: try renamed("1", "Faro"), for: rename, variables: ["id": "1", "name": "Faro"])
        let changed = try cache.rollBackOptimistic("m1")
        #expect(changed.keys.contains("Trip:1.name"))
        #expect(try names == ["Lisbon", "Porto"])
        #expect(cache.record("Trip:1")?["name"] == "Lisbon")
        #expect(recorder.causes == [.initial, .optimistic, .rollback])
        #expect(recorder.last?.changed == ["Trip:1.name"])
        #expect(cache.keys().contains("MUTATION_ROOT") == false)
        #expect(cache.statistics.layers == 0)
    }

    @Test func anOptimisticallyCreatedRecordIsGoneAfterRollback() throws {
        try cache.writeOptimistic("create", data: try Support.object(#"{"createTrip":{"__typename":"Trip","id":"temp-1","name":"Faro"}}"#),
                                  for: create, variables: ["name": "Faro"])
        #expect(cache.record("Trip:temp-1")?["name"] == "Faro")
        #expect(cache.keys().contains("Trip:temp-1"))
        try cache.rollBackOptimistic("create")
        #expect(cache.record("Trip:temp-1") == nil)
        #expect(!cache.keys().contains("Trip:temp-1"))
    }

    @Test func layersStackAndRollBackIndependently() throws {
        let recorder = Recorder()
        let watch = try cache.watch(trips, onEmission: recorder.callback)
        defer { watch.cancel() }
        try cache.writeOptimistic("a", data: try renamed("1", "A"), for: rename, variables: ["id": "1", "name": "A"])
        try cache.writeOptimistic("b", data: try renamed("1", "B"), for: rename, variables: ["id": "1", "name": "B"])
        #expect(try names == ["B", "Porto"])
        // Removing the lower layer changes nothing visible: the upper one still wins.
        try cache.rollBackOptimistic("a")
        #expect(try names == ["B", "Porto"])
        #expect(recorder.causes == [.initial, .optimistic, .optimistic])
        try cache.rollBackOptimistic("b")
        #expect(try names == ["Lisbon", "Porto"])
        #expect(recorder.causes == [.initial, .optimistic, .optimistic, .rollback])
    }

    @Test func baseWritesUnderALayerStayHiddenUntilItGoes() throws {
        try cache.writeOptimistic("m1", data: try renamed("1", "Faro"), for: rename, variables: ["id": "1", "name": "Faro"])
        let recorder = Recorder()
        let watch = try cache.watch(trips, onEmission: recorder.callback)
        defer { watch.cancel() }
        try cache.write(record: "Trip:1", fields: ["name": "Sintra"])
        #expect(try names == ["Faro", "Porto"])
        #expect(recorder.count == 1)
        try cache.rollBackOptimistic("m1")
        #expect(try names == ["Sintra", "Porto"])
        #expect(recorder.causes == [.initial, .rollback])
    }

    @Test func badLayerRequestsAreRefused() throws {
        try cache.writeOptimistic("m1", data: try renamed("1", "Faro"), for: rename, variables: ["id": "1", "name": "Faro"])
        #expect(throws: CacheError.self) {
            try cache.writeOptimistic("m1", data: try renamed("1", "Faro"), for: rename, variables: ["id": "1", "name": "Faro"])
        }
        #expect(throws: CacheError.self) { try cache.rollBackOptimistic("nope") }
        #expect(throws: CacheError.self) {
            try cache.commitOptimistic("nope", response: .object(["data": .object(try renamed("1", "Faro"))]), for: rename)
        }
        // A server result that does not fit: refused, and the layer is still there.
        #expect(throws: CacheError.self) {
            try cache.commitOptimistic("m1", response: try JSON.parse(#"{"data":{"renameTrip":{"__typename":"Trip","id":"1"}}}"#), for: rename,
                                       variables: ["id": "1", "name": "Faro"])
        }
        #expect(cache.statistics.layers == 1)
        #expect(try names == ["Faro", "Porto"])
    }

    @Test func optimisticDataMayBePartial() throws {
        try cache.writeOptimistic("m1", data: try Support.object(#"{"renameTrip":{"__typename":"Trip","id":"1"}}"#), for: rename,
                                  variables: ["id": "1", "name": "Faro"])
        #expect(try names == ["Lisbon", "Porto"])
    }

    @Test func optimisticWritesAreNotWrittenThrough() throws {
        let store = InMemoryStore()
        let cache = try NormalizedCache(store: store)
        try cache.write(data: try Support.object(#"{"trips":[{"__typename":"Trip","id":"1","name":"Lisbon"}]}"#), for: trips)
        let before = store.load(store.keys())
        try cache.writeOptimistic("m1", data: try renamed("1", "Faro"), for: rename, variables: ["id": "1", "name": "Faro"])
        #expect(store.load(store.keys()) == before)
        try cache.rollBackOptimistic("m1")
        #expect(store.load(store.keys()) == before)
        try cache.writeOptimistic("m2", data: try renamed("1", "Faro"), for: rename, variables: ["id": "1", "name": "Faro"])
        try cache.commitOptimistic("m2", response: .object(["data": .object(try renamed("1", "Faro"))]), for: rename, variables: ["id": "1", "name": "Faro"])
        #expect(store.load(["Trip:1"]).first?.fields["name"] == "Faro")
    }
}
