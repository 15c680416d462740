import Foundation
import Testing
@testable import NormCache

/// The real Apollo iOS file opens: every row loads and reads back exactly as stored, and
/// a file normcache writes holds the same rows.
@Suite struct SQLiteFixtureTests {
    static let fixture = StarWarsFixture.directory.appendingPathComponent("apollo-ios-1.25.7-starwars.sqlite").path

    @Test func everyRowOfTheApolloFileLoadsAsStored() throws {
        let store = try SQLiteStore(path: Self.fixture, mode: .readOnly)
        let records = try store.loadAll()
        #expect(records.map(\.key).sorted() == StarWarsFixture.rows.map(\.key).sorted())
        for row in StarWarsFixture.rows {
            let stored = try #require(records.first { $0.key == row.key })
            #expect(Support.fields(stored.fields) == Support.fields(try Support.object(row.record, references: .apollo)), "\(row.key)")
        }
        #expect(store.warnings.isEmpty)
    }

    @Test func openingReadOnlyLeavesTheBytesAsTheyWere() throws {
        let before = try Data(contentsOf: URL(fileURLWithPath: Self.fixture))
        let cache = try NormalizedCache(store: try SQLiteStore(path: Self.fixture, mode: .readOnly))
        #expect(cache.keys().count == StarWarsFixture.rows.count)
        #expect(cache.takeWarnings().isEmpty)
        #expect(throws: CacheError.self) { try cache.write(record: "Droid:2000", fields: ["name": "Threepio"]) }
        #expect(cache.record("Droid:2000")?["name"] == "C-3PO")
        #expect(try Data(contentsOf: URL(fileURLWithPath: Self.fixture)) == before)
    }
}
