import Foundation
import Testing
@testable import NormCache

/// When each field was received, kept in the cache file's `normcache_received` table
/// (issue 37): it outlives the file's closing, a file without the table (Apollo iOS's)
/// opens with every age unknown, and Apollo iOS's `records` table stays as Apollo iOS has it.
@Suite struct SQLiteReceivedTimesTests {
    let directory = TemporaryDirectory()
    var path: String { directory.path("cache.sqlite") }
    let start = Date(timeIntervalSince1970: 1_900_000_000)
    static let schema = """
        type Query { trips: [Trip!]! }
        type Trip { id: ID! name: String }
        """
    static let response = #"{"trips":[{"__typename":"Trip","id":"1","name":"Lisbon"}]}"#

    /// A cache over the file, its clock at `start` plus `seconds`.
    func open(at seconds: Double = 0, mode: SQLiteStore.Mode = .readWrite) throws -> (NormalizedCache, SQLiteStore, CompiledOperation, SchemaKnowledge) {
        let store = try SQLiteStore(path: path, mode: mode)
        let cache = try NormalizedCache(store: store)
        try cache.clock.set(to: start.addingTimeInterval(seconds))
        return (cache, store, try cache.operation("query TripList { trips { id name } }"), try SchemaKnowledge(sdl: Self.schema))
    }

    func tables() throws -> [String] {
        try RawDatabase(path, readOnly: true).strings("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    }

    @Test func aFieldIsStaleAfterReopeningAsItWouldHaveBeen() throws {
        do {
            let (cache, store, trips, schema) = try open()
            try cache.write(response: ["data": .object(try Support.object(Self.response))], for: trips, schema: schema)
            try cache.clock.advance(by: 100)
            try cache.write(record: "Trip:1", fields: ["name": "Porto"])   // name received apart, 100 s later
            store.close()
        }
        let (cache, _, trips, schema) = try open(at: 120)
        cache.maxAges["Trip.name"] = .seconds(30)
        cache.maxAges["Trip.id"] = .seconds(110)
        let ages = try #require(try cache.ages(of: "Trip:1"))
        #expect(ages.map(\.field) == ["__typename", "id", "name"])
        #expect(ages.map(\.received) == [start, start, start.addingTimeInterval(100)])
        #expect(ages.map(\.stale) == [false, true, false])
        #expect(try cache.read(trips, schema: schema).missing == ["Trip:1.id"])
        try cache.clock.advance(by: 10)   // name is 30 s old
        #expect(try cache.read(trips, schema: schema).missing == ["Trip:1.id", "Trip:1.name"])
    }

    @Test func aResponsesOwnMaxAgeOutlivesTheFileToo() throws {
        do {
            let (cache, store, trips, schema) = try open()
            try cache.write(response: ["data": .object(try Support.object(Self.response))], for: trips, schema: schema, maxAge: 60)
            store.close()
        }
        let (cache, _, trips, schema) = try open(at: 59)
        #expect(try cache.read(trips, schema: schema).complete)
        try cache.clock.advance(by: 1)
        #expect(try cache.read(trips, schema: schema).stale.sorted() == ["QUERY_ROOT.trips", "Trip:1.id", "Trip:1.name"])
    }

    @Test func theFirstReadAfterReopeningFindsWhatIsStale() throws {
        do {
            let (cache, store, trips, schema) = try open()
            try cache.write(response: ["data": .object(try Support.object(Self.response))], for: trips, schema: schema, maxAge: 60)
            store.close()
        }
        // Nothing is loaded yet: the times come with the records the read loads.
        let (cache, _, trips, schema) = try open(at: 90)
        let first = try cache.read(trips, schema: schema)
        #expect(first.missing == ["QUERY_ROOT.trips", "Trip:1.id", "Trip:1.name"], "the response's max-age=60 is past for all it wrote")
        let (ruled, _, _, _) = try open(at: 20)
        ruled.maxAges["Trip.name"] = .seconds(10)
        #expect(try ruled.read(trips, schema: schema).missing == ["Trip:1.name"])
    }

    @Test func theTimesAreNormcachesOwnTableAndApollosRecordsTableIsUntouched() throws {
        let (cache, store, trips, schema) = try open()
        try cache.write(response: ["data": .object(try Support.object(Self.response))], for: trips, schema: schema, maxAge: 60)
        store.close()
        let raw = try RawDatabase(path, readOnly: true)
        #expect(try tables() == ["normcache_received", "records", "sqlite_sequence"])
        #expect(try raw.strings("SELECT sql FROM sqlite_master WHERE name = 'records'") == [SQLiteStore.schema.replacingOccurrences(of: "IF NOT EXISTS ", with: "")])
        // The records are Apollo iOS's rows, no time among their fields.
        #expect(try raw.records().compactMap(\.text).sorted() == [#"{"__typename":"Trip","id":"1","name":"Lisbon"}"#, #"{"trips":[{"$reference":"Trip:1"}]}"#])
        #expect(try raw.strings("SELECT key || ' ' || received FROM normcache_received ORDER BY key")
                == [#"QUERY_ROOT {"at":1900000000,"maxAge":60}"#, #"Trip:1 {"at":1900000000,"maxAge":60}"#])
        #expect(try raw.strings("PRAGMA integrity_check") == ["ok"])
    }

    @Test func aFileWithoutTheTableOpensWithEveryAgeUnknownAndGetsItOnlyByAWrite() throws {
        try RawDatabase.apolloFile(path, rows: [("Trip:1", #"'{"__typename":"Trip","id":"1","name":"Lisbon"}'"#),
                                                ("QUERY_ROOT", #"'{"trips":[{"$reference":"Trip:1"}]}'"#)])
        do {
            let (cache, _, trips, schema) = try open(at: 1_000_000)
            cache.maxAges["Trip"] = .seconds(1)
            #expect(try cache.ages(of: "Trip:1")?.allSatisfy { $0.received == nil && !$0.stale } == true)
            #expect(try cache.read(trips, schema: schema).complete)
            #expect(try tables() == ["records", "sqlite_sequence"], "reading made no table")
            try cache.write(record: "Trip:2", fields: ["name": "Porto"])
        }
        #expect(try tables() == ["normcache_received", "records", "sqlite_sequence"])
        let (cache, _, _, _) = try open(at: 10)
        #expect(try cache.ages(of: "Trip:1")?.map(\.received) == [nil, nil, nil])
        #expect(try cache.ages(of: "Trip:2")?.map(\.received) == [start.addingTimeInterval(1_000_000)])
    }

    @Test func aReadOnlyStoreReadsTheTimesAndMakesNoTable() throws {
        try RawDatabase.apolloFile(path, rows: [("Trip:1", #"'{"name":"Lisbon"}'"#)])
        do {
            let (cache, _, _, _) = try open(mode: .readOnly)
            #expect(try cache.ages(of: "Trip:1")?.map(\.received) == [nil])
        }
        #expect(try tables() == ["records", "sqlite_sequence"])
        do {
            let (cache, store, _, _) = try open()
            try cache.write(record: "Trip:1", fields: ["name": "Porto"])
            store.close()
        }
        let (cache, _, _, _) = try open(at: 5, mode: .readOnly)
        #expect(try cache.ages(of: "Trip:1")?.map(\.received) == [start])
    }

    /// Loading every record reads the times by one scan of the table, as the records.
    @Test func loadingEveryRecordLoadsEveryTime() throws {
        let count = SQLiteStore.scanFrom + 6
        do {
            let (cache, store, _, _) = try open()
            try cache.transaction { cache in
                for id in 0..<count { try cache.write(record: "Trip:\(id)", fields: ["name": .string("Trip \(id)")]) }
            }
            try cache.clock.advance(by: 30)
            try cache.write(record: "Trip:3", fields: ["name": "Porto"])
            store.close()
        }
        let (cache, _, _, _) = try open(at: 60)
        let received = try #require(cache.extract(receivedTimes: true)[NormalizedCache.snapshotMetadataKey]?["normcacheReceived"])
        guard case .object(let byRecord) = received else { Issue.record("not an object: \(received)"); return }
        #expect(byRecord.count == count)
        #expect(byRecord["Trip:3"] == ["at": 1_900_000_030])
        #expect(byRecord["Trip:4"] == ["at": 1_900_000_000])
    }

    @Test func removedRecordsAndAClearTakeTheirTimesWithThem() throws {
        let (cache, _, _, _) = try open()
        try cache.write(record: "Trip:1", fields: ["name": "Lisbon"])
        try cache.write(record: "Trip:2", fields: ["name": "Porto"])
        try cache.evict("Trip:1")
        #expect(try RawDatabase(path, readOnly: true).strings("SELECT key FROM normcache_received ORDER BY key") == ["Trip:2"])
        try cache.clear()
        #expect(try RawDatabase(path, readOnly: true).strings("SELECT count(*) FROM normcache_received") == ["0"])
    }

    @Test func timesThatDoNotReadAsTimesAreUnknownWithAWarning() throws {
        do {
            let (cache, store, _, _) = try open()
            try cache.write(record: "Trip:1", fields: ["name": "Lisbon"])
            store.close()
        }
        try RawDatabase(path).execute(#"UPDATE normcache_received SET received = '{"at":"yesterday"}'"#)
        let (cache, _, _, _) = try open(at: 5)
        #expect(try cache.ages(of: "Trip:1")?.map(\.received) == [nil])
        #expect(cache.takeWarnings().contains {
            $0.contains("received times of Trip:1 cannot be read") && $0.contains(#""at" must be a number of seconds, not a string"#)
        })
    }
}
