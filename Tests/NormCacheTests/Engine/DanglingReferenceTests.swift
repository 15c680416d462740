import Testing
@testable import NormCache

/// Removing dangling references (`removeDanglingReferences`, the workbench's `.gc
/// dangling`): a field holding one goes, a list drops those items, a record left empty
/// goes and the references to it then dangle too, the roots stay; one commit with cause
/// `gc` that reaches the store, the watchers and the record history.
@Suite struct DanglingReferenceTests {
    let cache: NormalizedCache
    let repository: CompiledOperation

    init() throws {
        cache = try Support.cache()
        repository = try cache.operation("{ repository { id owner { id } stargazers { id name } } }")
        try cache.write(data: try Support.object("""
            {"repository":{"__typename":"Repository","id":"0","owner":{"__typename":"User","id":"0"},
              "stargazers":[{"__typename":"User","id":"0","name":"Ada"},{"__typename":"User","id":"1","name":"Bo"}]}}
            """), for: repository)
    }

    @Test func aSingleReferenceGoesAndAListDropsTheItem() throws {
        try cache.evict("User:0")
        // What .gc alone leaves: the reference to User:0 is still in the list.
        #expect(try cache.gc().isEmpty)
        #expect(cache.record("Repository:0")?["stargazers"] == [.reference("User:0"), .reference("User:1")])
        let removed = try cache.removeDanglingReferences()
        #expect(removed == RemovedReferences(fields: ["Repository:0.owner", "Repository:0.stargazers"]))
        #expect(Support.fields(cache.record("Repository:0")) == ["__typename": "Repository", "id": "0", "stargazers": [.reference("User:1")]])
        #expect(cache.keys() == ["QUERY_ROOT", "Repository:0", "User:1"])
        #expect(cache.referrers(of: "User:0").isEmpty)
        #expect(try cache.removeDanglingReferences().isEmpty)
    }

    @Test func listsOfListsDropTheItemsAndKeepTheirShape() throws {
        try cache.write(record: "Board:1", fields: [
            "grid": [[.reference("User:0"), .reference("User:1")], [.reference("User:0")]],
            "stars": [.reference("User:0")],
            "name": "b",
        ])
        try cache.evict("User:0")
        let removed = try cache.removeDanglingReferences()
        #expect(removed.fields == ["Board:1.grid", "Board:1.stars", "Repository:0.owner", "Repository:0.stargazers"])
        #expect(removed.records.isEmpty)
        // An emptied list stays, empty: the list was written, it now holds nothing.
        #expect(Support.fields(cache.record("Board:1")) == ["grid": [[.reference("User:1")], []], "stars": [], "name": "b"])
    }

    @Test func recordsLeftEmptyGoAndTheReferencesToThemDangleInTurn() throws {
        // Box:1 holds only a reference to Post:1; Post:1 only its typename and a reference to
        // User:0; Note:1 holds Box:1. When User:0 goes, each goes in turn, up to the root's list.
        try cache.write(record: "Note:1", fields: ["box": .reference("Box:1")])
        try cache.write(record: "Box:1", fields: ["post": .reference("Post:1")])
        try cache.write(record: "Post:1", fields: ["__typename": "Post", "author": .reference("User:0")])
        try cache.write(record: "QUERY_ROOT", fields: ["feed": [.reference("Post:1"), .reference("Repository:0")]])
        try cache.evict("User:0")
        let removed = try cache.removeDanglingReferences()
        #expect(removed.records == ["Box:1", "Note:1", "Post:1"])
        #expect(removed.fields == ["Box:1.post", "Note:1.box", "Post:1.author", "QUERY_ROOT.feed", "Repository:0.owner", "Repository:0.stargazers"])
        #expect(cache.record("QUERY_ROOT")?["feed"] == [.reference("Repository:0")])
        #expect(cache.keys() == ["QUERY_ROOT", "Repository:0", "User:1"])
    }

    @Test func theRootsStayThoughEmptied() throws {
        try cache.write(record: "MUTATION_ROOT", fields: ["follow": .reference("User:0")])
        try cache.write(record: "Link:1", fields: ["root": .reference("QUERY_ROOT"), "mutation": .reference("MUTATION_ROOT")])
        try cache.evict("User:0")
        try cache.evict("QUERY_ROOT", field: "repository")
        let removed = try cache.removeDanglingReferences()
        #expect(removed.fields == ["MUTATION_ROOT.follow", "Repository:0.owner", "Repository:0.stargazers"])
        #expect(removed.records.isEmpty)
        // Both roots are emptied, not removed: each is kept as its typename, as an evicted
        // one is, and a reference to one does not dangle.
        #expect(cache.record("MUTATION_ROOT") == nil)
        #expect(cache.extract()["ROOT_MUTATION"] == ["__typename": "Mutation"])
        #expect(cache.extract()["ROOT_QUERY"] == ["__typename": "Query"])
        #expect(Support.fields(cache.record("Link:1")) == ["root": .reference("QUERY_ROOT"), "mutation": .reference("MUTATION_ROOT")])
    }

    @Test func aRecordAnOptimisticLayerHoldsExists() throws {
        try cache.write(record: "Repository:0", fields: ["pending": .reference("User:9")])
        try cache.writeOptimistic("pending", data: try Support.object("""
            {"repository":{"__typename":"Repository","id":"0","owner":{"__typename":"User","id":"9"},"stargazers":[]}}
            """), for: repository)
        #expect(try cache.removeDanglingReferences().isEmpty)
        try cache.rollBackOptimistic("pending")
        #expect(try cache.removeDanglingReferences() == RemovedReferences(fields: ["Repository:0.pending"]))
    }

    @Test func watchersHearItAsGCAndTheHistoryKeepsIt() throws {
        let recorder = Recorder()
        let watch = try cache.watch(repository, onEmission: recorder.callback)
        defer { watch.cancel() }
        try cache.evict("User:1")
        #expect(recorder.last?.result.complete == false)
        try cache.removeDanglingReferences()
        #expect(recorder.causes == [.initial, .evict, .gc])
        #expect(recorder.last?.changed == ["Repository:0.stargazers"])
        #expect(recorder.last?.result.complete == true)
        #expect(recorder.last?.result.data?["repository"]?["stargazers"] == [["__typename": "User", "id": "0", "name": "Ada"]])
        let kept = try #require(cache.history(of: "Repository:0", field: "stargazers")?.last)
        #expect(kept.cause == .gc)
        #expect(kept.origin == "gc dangling")
        #expect(kept.old == [.reference("User:0"), .reference("User:1")])
        #expect(kept.new == [.reference("User:0")])
    }

    @Test func nothingDanglingChangesNothing() throws {
        let recorder = Recorder()
        let watch = try cache.watch(repository, onEmission: recorder.callback)
        defer { watch.cancel() }
        let before = cache.extract()
        #expect(try cache.removeDanglingReferences().isEmpty)
        #expect(cache.extract() == before)
        #expect(recorder.causes == [.initial])
    }

    /// The references removed were what still named User:0; the record history's old values
    /// name it too until it lets them go, so it keeps none here.
    @Test func theKeysOfTheReferencesRemovedAreGivenBack() throws {
        cache.historyLimit = 0
        try cache.evict("User:0")
        let held = cache.statistics.recordKeys
        try cache.removeDanglingReferences()
        #expect(cache.statistics.recordKeys == held - 1)
    }

    @Test func aFailingStoreChangesNothing() throws {
        let failing = CountingStore()
        let cache = try NormalizedCache(store: failing)
        try cache.write(record: "Repository:0", fields: ["stargazers": [.reference("User:0"), .reference("User:1")]])
        try cache.write(record: "User:1", fields: ["name": "Bo"])
        let before = JSON.string(cache.extract(), sortedKeys: true)
        failing.fail = true
        #expect(throws: CacheError.storage("disk full")) { try cache.removeDanglingReferences() }
        #expect(JSON.string(cache.extract(), sortedKeys: true) == before)
        failing.fail = false
        #expect(try cache.removeDanglingReferences() == RemovedReferences(fields: ["Repository:0.stargazers"]))
    }

    /// Over a store opened lazily (nothing loaded), the removal loads every record first
    /// and writes what it changed through; a cache opened again reads the result.
    @Test(arguments: ["memory", "sqlite"])
    func aStoreIsWrittenThrough(_ kind: String) throws {
        let store: RecordStore = kind == "memory" ? InMemoryStore() : try ScratchSQLiteStore()
        let writer = try NormalizedCache(store: store)
        try writer.write(record: "Repository:0", fields: ["stargazers": [.reference("User:0"), .reference("User:1")], "owner": .reference("User:0")])
        try writer.write(record: "User:1", fields: ["name": "Bo"])
        try writer.write(record: "Box:1", fields: ["__typename": "Box", "item": .reference("User:0")])
        let lazy = try NormalizedCache(store: store)
        let removed = try lazy.removeDanglingReferences()
        #expect(removed == RemovedReferences(fields: ["Box:1.item", "Repository:0.owner", "Repository:0.stargazers"], records: ["Box:1"]))
        #expect(try store.keys().sorted() == ["Repository:0", "User:1"])
        let reopened = try NormalizedCache(store: store)
        #expect(Support.fields(reopened.record("Repository:0")) == ["stargazers": [.reference("User:1")]])
    }
}
