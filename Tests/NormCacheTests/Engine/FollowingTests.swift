import Foundation
import Testing
@testable import NormCache

/// Another process's commits to the store, reloaded (``NormalizedCache/reload(_:file:)``):
/// fields changed, new and gone, records new and removed, as one commit with cause
/// `external` that watchers hear, the history keeps, and nothing writes back to the store
/// (another process's writes go to the store's inner store, which counts none).
@Suite struct ReloadTests {
    let store = CountingStore()
    let cache: NormalizedCache
    let hero: CompiledOperation

    init() throws {
        store.inner.write(merging: [RecordChange(key: "QUERY_ROOT", fields: ["hero": .reference("Human:1")]),
                                    RecordChange(key: "Human:1", fields: ["__typename": "Human", "id": "1", "name": "Luke", "mass": 77])],
                          removing: [])
        cache = try NormalizedCache(store: store)
        hero = try cache.operation("{ hero { name mass } }")
    }

    @Test func changedFieldsReloadAsOneExternalCommitThatWatchersHearAndNothingWritesBack() throws {
        let recorder = Recorder()
        let watch = try cache.watch(hero, onEmission: recorder.callback)
        defer { watch.cancel() }
        // Another process rewrites the row whole: a field changed, one gone, one new.
        store.inner.write(merging: [RecordChange(key: "Human:1", fields: ["name": "Luke S.", "height": 1.72], removedFields: ["mass"])], removing: [])

        let change = try #require(try cache.reload(ChangedRows(changed: ["Human:1"]), file: "app.sqlite"))
        #expect(change.changed == [ExternalChange.Record(key: "Human:1", isNew: false, wasRead: true, fields: [
            FieldChange(field: "name", old: "Luke", new: "Luke S."),
            FieldChange(field: "height", old: nil, new: 1.72),
            FieldChange(field: "mass", old: 77, new: nil),
        ])])
        #expect(change.removed.isEmpty && change.unreadable.isEmpty)
        #expect(change.commit == cache.commitCount)

        let emission = try #require(recorder.last)
        #expect(recorder.count == 2)
        #expect(emission.cause == .external)
        #expect(emission.changed == ["Human:1.mass", "Human:1.name"])
        #expect(emission.result.missing == ["Human:1.mass"], "mass went with the row's rewrite")
        #expect(Support.fields(cache.record("Human:1")) == ["__typename": "Human", "id": "1", "name": "Luke S.", "height": 1.72])
        let history = try #require(cache.history(of: "Human:1", field: "name")).last
        #expect(history?.cause == .external && history?.origin == "follow app.sqlite" && history?.new == "Luke S.")
        #expect(store.writes == 0, "the reload wrote to the store")
    }

    @Test func aRemovedRowRemovesTheRecordAndItsWatchersHearIt() throws {
        let recorder = Recorder()
        let watch = try cache.watch(hero, onEmission: recorder.callback)
        defer { watch.cancel() }
        store.inner.write(merging: [], removing: ["Human:1"])

        let change = try #require(try cache.reload(ChangedRows(removed: ["Human:1"]), file: "app.sqlite"))
        #expect(change.removed == ["Human:1"] && change.changed.isEmpty)
        #expect(cache.record("Human:1") == nil)
        #expect(!cache.keys().contains("Human:1"))
        #expect(recorder.last?.cause == .external)
        #expect(recorder.last?.result.missing.sorted() == ["Human:1.__typename", "Human:1.mass", "Human:1.name"])
        #expect(store.writes == 0)
    }

    @Test func aRecordAWatcherFoundMissingIsReadWhenItsRowAppears() throws {
        store.inner.write(merging: [RecordChange(key: "QUERY_ROOT", fields: ["hero": .reference("Human:2")])], removing: [])
        let recorder = Recorder()
        // Reads QUERY_ROOT as the store has it now (the cache had not read it): Human:2 is missing.
        let watch = try cache.watch(hero, onEmission: recorder.callback)
        defer { watch.cancel() }
        #expect(recorder.last?.result.complete == false)

        store.inner.write(merging: [RecordChange(key: "Human:2", fields: ["__typename": "Human", "id": "2", "name": "Han", "mass": 80])], removing: [])
        let change = try #require(try cache.reload(ChangedRows(added: ["Human:2"]), file: "app.sqlite"))
        #expect(change.changed.map(\.key) == ["Human:2"] && change.changed.first?.isNew == true && change.changed.first?.wasRead == true)
        let emission = try #require(recorder.last)
        #expect(emission.cause == .external && emission.result.complete)
        #expect(Support.canonical(emission.result.data) == #"{"hero":{"__typename":"Human","mass":80,"name":"Han"}}"#)
        #expect(store.writes == 0)
    }

    @Test func recordsTheCacheNeverReadAreNamedNotReloadedAndReadAsTheyAreNow() throws {
        store.inner.write(merging: [RecordChange(key: "Droid:9", fields: ["__typename": "Droid", "name": "R9"])], removing: [])
        let before = cache.commitCount
        let change = try #require(try cache.reload(ChangedRows(added: ["Droid:9"]), file: "app.sqlite"))
        #expect(change.changed == [ExternalChange.Record(key: "Droid:9", isNew: true, wasRead: false, fields: [])])
        #expect(change.commit == nil && cache.commitCount == before, "a change to nothing the cache read needs no commit")
        #expect(cache.keys().contains("Droid:9"))
        #expect(cache.record("Droid:9")?["name"] == "R9")
    }

    @Test func nothingThatChangedIsNil() throws {
        _ = try cache.read(hero)
        #expect(try cache.reload(ChangedRows(), file: "app.sqlite") == nil)
        // A row rewritten with the values the cache holds (this process's own write, say) is no change.
        #expect(try cache.reload(ChangedRows(changed: ["Human:1"]), file: "app.sqlite") == nil)
    }

    @Test func aRowWrittenAgainAnotherWayReadsTheSameAndIsNoChange() throws {
        store.inner.write(merging: [RecordChange(key: "Human:1", fields: ["appearance": ["hair": "blond", "eyes": "blue"]])], removing: [])
        let recorder = Recorder()
        let watch = try cache.watch(hero, onEmission: recorder.callback)
        defer { watch.cancel() }
        _ = try cache.inspect("Human:1")
        // The app writes the record again: 77.0 for 77, an inline object's members in another order.
        store.inner.write(merging: [RecordChange(key: "Human:1", fields: ["mass": 77.0, "appearance": ["eyes": "blue", "hair": "blond"]])], removing: [])
        #expect(try cache.reload(ChangedRows(changed: ["Human:1"]), file: "app.sqlite") == nil)
        #expect(recorder.count == 1, "a watcher heard a change that Apollo iOS would not read as one")
        // What does read differently still is one.
        store.inner.write(merging: [RecordChange(key: "Human:1", fields: ["mass": 77.5])], removing: [])
        let change = try #require(try cache.reload(ChangedRows(changed: ["Human:1"]), file: "app.sqlite"))
        #expect(change.changed.first?.fields == [FieldChange(field: "mass", old: 77, new: 77.5)])
    }
}

/// Following a real file (``StoreFollower``): another connection's commits, found by
/// `PRAGMA data_version` and the rows' hashes, whichever way it writes them, and the file
/// going away under it.
@Suite struct StoreFollowerTests {
    let directory = TemporaryDirectory()

    /// A read-only cache over a copy of the Apollo iOS fixture, its follower after its
    /// first look, and a connection of its own that writes the file.
    func follow(mode: SQLiteStore.Mode = .readOnly) throws -> (cache: NormalizedCache, follower: StoreFollower, writer: RawDatabase) {
        let path = directory.apolloFixture()
        let cache = try Support.apolloConfiguredCache(store: try SQLiteStore(path: path, mode: mode))
        let follower = try #require(try StoreFollower(cache: cache))
        #expect(try follower.poll() == nil, "the cache had read nothing, so nothing differs")
        return (cache, follower, try RawDatabase(path))
    }

    @Test func noCommitNoChange() throws {
        let (cache, follower, _) = try follow()
        #expect(try follower.poll() == nil)
        #expect(follower.rows == 12)
        #expect(cache.commitCount == 0)
    }

    @Test func theFirstLookBringsWhatTheCacheReadUpToDateWithTheFile() throws {
        let path = directory.apolloFixture()
        let cache = try Support.apolloConfiguredCache(store: try SQLiteStore(path: path, mode: .readOnly))
        let recorder = Recorder()
        let watch = try cache.watch(try cache.operation("{ hero(episode: EMPIRE) { name friends { name } } }"), onEmission: recorder.callback)
        defer { watch.cancel() }
        // Written while no one followed the file (between .follow off and .follow on, say).
        let writer = try RawDatabase(path)
        try writer.execute(#"UPDATE records SET record = '{"name":"Han","__typename":"Human","id":"1002"}' WHERE key = 'Human:1002'"#)
        try writer.execute(#"DELETE FROM records WHERE key = 'Human:1003'"#)
        try writer.execute(#"UPDATE records SET record = '{"name":"Threepio","__typename":"Droid","id":"2000"}' WHERE key = 'Droid:2000'"#)
        let follower = try #require(try StoreFollower(cache: cache))
        let change = try #require(try follower.poll())
        #expect(change.changed.map(\.key) == ["Droid:2000", "Human:1002"] && change.changed.allSatisfy(\.wasRead))
        #expect(change.removed == ["Human:1003"])
        #expect(recorder.last?.cause == .external)
        #expect(try follower.poll() == nil)
    }

    @Test func anUpsertThatKeepsTheRowIDIsFoundByItsText() throws {
        let (cache, follower, writer) = try follow()
        let hero = try cache.operation("{ hero(episode: EMPIRE) { name } }")
        let recorder = Recorder()
        let watch = try cache.watch(hero, onEmission: recorder.callback)
        defer { watch.cancel() }
        let id = try writer.strings(#"SELECT _id FROM records WHERE key = 'Human:1000'"#)
        let text = try #require(try RawDatabase.recordTexts(directory.path("apollo.sqlite"))["Human:1000"])
        let renamed = text.replacingOccurrences(of: #""name":"Luke Skywalker""#, with: #""name":"Luke""#)
        #expect(renamed != text)
        try writer.execute("BEGIN; " + #"INSERT INTO records (key, record) VALUES ('Human:1000', \#(RawDatabase.quote(renamed))) ON CONFLICT(key) DO UPDATE SET record = excluded.record"# + "; COMMIT")
        #expect(try writer.strings(#"SELECT _id FROM records WHERE key = 'Human:1000'"#) == id)

        var announced: ExternalChange?
        let change = try #require(try follower.poll { announced = $0 })
        #expect(announced == change)
        #expect(change.changed == [ExternalChange.Record(key: "Human:1000", isNew: false, wasRead: true,
                                                         fields: [FieldChange(field: "name", old: "Luke Skywalker", new: "Luke")])])
        #expect(recorder.last?.cause == .external && recorder.last?.changed == ["Human:1000.name"])
        #expect(recorder.last?.result.data?["hero"]?["name"] == "Luke")
        #expect(try RawDatabase.recordTexts(directory.path("apollo.sqlite"))["Human:1000"] == renamed, "the follower wrote the file")
        #expect(try follower.poll() == nil)
    }

    @Test func insertOrReplaceAndDeleteAreFound() throws {
        let (cache, follower, writer) = try follow()
        _ = try cache.read(try cache.operation("{ hero(episode: EMPIRE) { friends { name } } }"))   // reads Human:1002 and Human:1003
        try writer.execute(#"INSERT OR REPLACE INTO records (key, record) VALUES ('Human:1002', '{"name":"Han","__typename":"Human","id":"1002"}')"#)
        try writer.execute(#"DELETE FROM records WHERE key = 'Human:1003'"#)
        try writer.execute(#"INSERT INTO records (key, record) VALUES ('Human:1004', '{"name":"Tarkin","__typename":"Human","id":"1004"}')"#)
        let change = try #require(try follower.poll())
        #expect(change.changed.map(\.key) == ["Human:1002", "Human:1004"])
        #expect(change.changed[0].fields == [FieldChange(field: "name", old: "Han Solo", new: "Han")])
        #expect(change.changed[1].isNew && !change.changed[1].wasRead)
        #expect(change.removed == ["Human:1003"])
        #expect(cache.record("Human:1003") == nil && cache.record("Human:1004")?["name"] == "Tarkin")
        #expect(cache.keys().contains("Human:1004") && !cache.keys().contains("Human:1003"))
    }

    @Test func aRowThatNoLongerParsesIsNamedAndItsRecordKept() throws {
        let (cache, follower, writer) = try follow()
        _ = try cache.read(try cache.operation("{ hero(episode: EMPIRE) { name friends { name } } }"))
        try writer.execute(#"BEGIN; UPDATE records SET record = '{"name": broken' WHERE key = 'Human:1000'; UPDATE records SET record = '{"name":"Han","__typename":"Human","id":"1002"}' WHERE key = 'Human:1002'; COMMIT"#)
        let change = try #require(try follower.poll())
        #expect(change.unreadable.map(\.key) == ["Human:1000"])
        #expect(change.unreadable.first?.problem.contains("Human:1000") == true)
        #expect(change.changed.map(\.key) == ["Human:1002"])
        #expect(cache.record("Human:1000")?["name"] == "Luke Skywalker")
        #expect(cache.record("Human:1002")?["name"] == "Han")
    }

    @Test func aFileOpenedReadWriteIsNotWrittenByTheReloadAndItsOwnWritesAreNotAnotherProcesss() throws {
        let (cache, follower, writer) = try follow(mode: .readWrite)
        try cache.write(record: "Droid:2000", fields: ["name": "Threepio"])   // this process's own write
        try writer.execute(#"UPDATE records SET record = '{"name": "X-wing T-65","__typename":"Starship","id":"3001","length":12.5}' WHERE key = 'Starship:3001'"#)
        _ = cache.record("Starship:3001")   // loaded: the new text, so not a change of the cache
        try writer.execute(#"UPDATE records SET record = '{"name": "R2", "__typename": "Droid", "id": "2001"}' WHERE key = 'Droid:2001'"#)
        _ = try #require(cache.record("Droid:2001"))
        try writer.execute(#"UPDATE records SET record = '{"name": "R2-D2", "__typename": "Droid", "id": "2001"}' WHERE key = 'Droid:2001'"#)
        let change = try #require(try follower.poll())
        #expect(change.changed.map(\.key) == ["Droid:2001"], "this process's write of Droid:2000 is not another process's")
        #expect(try RawDatabase.recordTexts(directory.path("apollo.sqlite"))["Droid:2001"] == #"{"name": "R2-D2", "__typename": "Droid", "id": "2001"}"#,
                "the reload wrote the row back")
    }

    @Test func aDeletedFileStopsFollowing() throws {
        let (_, follower, _) = try follow()
        try FileManager.default.removeItem(atPath: directory.path("apollo.sqlite"))
        #expect { try follower.poll() } throws: { "\($0)".contains("apollo.sqlite: was deleted") }
    }

    @Test func aFileReplacedByAnotherStopsFollowing() throws {
        let (_, follower, _) = try follow()
        let other = directory.apolloFixture("other.sqlite")
        try FileManager.default.removeItem(atPath: directory.path("apollo.sqlite"))
        try FileManager.default.moveItem(atPath: other, toPath: directory.path("apollo.sqlite"))
        #expect { try follower.poll() } throws: { "\($0)".contains("apollo.sqlite: was replaced by another file") }
    }

    @Test func aFileReplacedBeforeFollowingBeganIsNoticedAtOnce() throws {
        // Opened, then the app reinstalled (another file at the path), then followed: the
        // store still reads the first file, so the follower must not follow the second.
        let path = directory.apolloFixture()
        let cache = try NormalizedCache(store: try SQLiteStore(path: path, mode: .readOnly))
        let other = directory.apolloFixture("other.sqlite")
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.moveItem(atPath: other, toPath: path)
        let follower = try #require(try StoreFollower(cache: cache))
        #expect { try follower.poll() } throws: { "\($0)".contains("apollo.sqlite: was replaced by another file") }
    }

    @Test func aWALResetStopsFollowing() throws {
        let path = directory.apolloFixture()
        let writer = try RawDatabase(path)
        #expect(try writer.strings("PRAGMA journal_mode = WAL") == ["wal"])
        try writer.execute(#"UPDATE records SET record = '{"name":"C3"}' WHERE key = 'Droid:2000'"#)
        let cache = try NormalizedCache(store: try SQLiteStore(path: path, mode: .readOnly))
        let follower = try #require(try StoreFollower(cache: cache))
        #expect(try follower.poll() == nil)
        try FileManager.default.removeItem(atPath: path + "-wal")
        #expect { try follower.poll() } throws: { "\($0)".contains("apollo.sqlite-wal was deleted (a WAL reset)") }
    }
}
