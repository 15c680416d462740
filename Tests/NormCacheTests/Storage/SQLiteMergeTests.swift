import Foundation
import Testing
@testable import NormCache

/// A commit reaches the file field by field: two caches over one file (two processes, as
/// far as SQLite can tell) keep each other's writes, and what a cache removed stays removed.
@Suite struct SQLiteMergeTests {
    let directory = TemporaryDirectory()
    var path: String { directory.path("cache.sqlite") }

    /// The fields the file holds for `key`, in no order.
    func stored(_ key: String) throws -> [String: CacheValue]? {
        let store = try SQLiteStore(path: path, mode: .readOnly)
        defer { store.close() }
        return try store.load([key]).first.map { Dictionary(uniqueKeysWithValues: $0.fields.members.map { ($0, $1) }) }
    }

    @Test func aCacheThatOpenedEarlierDoesNotPutBackWhatItRead() throws {
        let (first, _) = try SQLiteSupport.cache(path)
        try first.write(record: "Trip:1", fields: ["name": "Porto", "seats": 2, "owner": .reference("User:1")])
        let (second, _) = try SQLiteSupport.cache(path)
        try second.write(record: "Trip:1", fields: ["seats": 3])
        try first.write(record: "Trip:1", fields: ["name": "Lisbon"])
        #expect(try stored("Trip:1") == ["name": "Lisbon", "seats": 3, "owner": .reference("User:1")])
        // A field one cache evicts goes; the other's fields stay.
        _ = try second.evict("Trip:1", field: "owner")
        try first.write(record: "Trip:1", fields: ["seats": 4])
        #expect(try stored("Trip:1") == ["name": "Lisbon", "seats": 4])
    }

    @Test func aRecordRemovedAndMadeAgainInOneCommitIsStoredAsMadeAgain() throws {
        let (cache, _) = try SQLiteSupport.cache(path)
        try cache.write(record: "Trip:1", fields: ["name": "Porto", "seats": 2])
        try cache.transaction { cache in
            _ = try cache.evict("Trip:1")
            try cache.write(record: "Trip:1", fields: ["name": "Faro"])
        }
        #expect(try stored("Trip:1") == ["name": "Faro"])
        _ = try cache.evict("Trip:1")
        #expect(try stored("Trip:1") == nil)
    }

    @Test func aStoredRecordThatCannotBeReadIsNotOverwritten() throws {
        let (cache, _) = try SQLiteSupport.cache(path)
        try cache.write(record: "Trip:1", fields: ["name": "Porto"])
        try RawDatabase(path).execute(#"UPDATE records SET record = '{"name": broken' WHERE key = 'Trip:1'"#)
        #expect(throws: CacheError.self) { try cache.write(record: "Trip:1", fields: ["seats": 3]) }
        #expect(try RawDatabase(path, readOnly: true).records().first?.record == Data(#"{"name": broken"#.utf8))
        #expect(cache.extract()["Trip:1"]?["seats"] == nil, "the failed commit is undone in memory too")
    }
}
