import Foundation
import Testing
@testable import NormCache

/// The file normcache writes is the file Apollo iOS writes: its schema, its tables, its row
/// JSON to the byte (up to member order), read with SQLite's C API rather than the store.
@Suite struct SQLiteFormatTests {
    let directory = TemporaryDirectory()
    var path: String { directory.path("cache.sqlite") }
    static let apolloFile = StarWarsFixture.directory.appendingPathComponent("apollo-ios-1.25.7-starwars.sqlite").path

    /// Writes the fixture's three responses through a cache over a new file, as Apollo iOS did.
    func writeTheFixtureResponses() throws {
        let cache = try Support.apolloConfiguredCache(store: try SQLiteStore(path: path))
        cache.possibleTypes = try PossibleTypes(sdl: StarWarsFixture.schema)
        for exchange in StarWarsFixture.exchanges {
            let operation = try cache.operation(exchange.operation)
            try cache.write(response: try JSON.parse(exchange.response), for: operation, variables: try Support.object(exchange.variables))
        }
    }

    /// SQL text with runs of whitespace made one space.
    static func collapsed(_ sql: String) -> String {
        sql.split(whereSeparator: \.isWhitespace).joined(separator: " ").replacingOccurrences(of: "( ", with: "(")
            .replacingOccurrences(of: " )", with: ")")
    }

    @Test func theRecordsTableIsCreatedWithApollosSchema() throws {
        _ = try SQLiteStore(path: path)
        let sql = try RawDatabase(path, readOnly: true).strings("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'records'")
        // SQLite keeps the statement as given, less its IF NOT EXISTS.
        #expect(sql == [SQLiteStore.schema.replacingOccurrences(of: "IF NOT EXISTS ", with: "")])
        let apollo = try RawDatabase(Self.apolloFile, readOnly: true).strings("SELECT sql FROM sqlite_master WHERE name = 'records'")
        #expect(sql.map(Self.collapsed) == apollo.map(Self.collapsed))
    }

    @Test func theFileHoldsExactlyApollosTablesAndIndexes() throws {
        try SQLiteStore(path: path).write(merging: [RecordChange(key: "QUERY_ROOT", fields: ["a": 1])], removing: [])
        let objects = "SELECT type || ' ' || name || ' ' || tbl_name FROM sqlite_master ORDER BY name"
        let ours = try RawDatabase(path, readOnly: true).strings(objects)
        #expect(ours == ["table records records", "index sqlite_autoindex_records_1 records", "table sqlite_sequence sqlite_sequence"])
        #expect(ours == (try RawDatabase(Self.apolloFile, readOnly: true).strings(objects)))
        #expect(try RawDatabase(path, readOnly: true).strings("SELECT name || ' ' || seq FROM sqlite_sequence") == ["records 1"])
        #expect(try RawDatabase(path, readOnly: true).strings("PRAGMA integrity_check") == ["ok"])
    }

    @Test func theJournalModeIsWAL() throws {
        let store = try SQLiteStore(path: path)
        try store.write(merging: [RecordChange(key: "QUERY_ROOT", fields: ["a": 1])], removing: [])
        #expect(store.warnings.isEmpty)
        #expect(try RawDatabase(path, readOnly: true).strings("PRAGMA journal_mode") == ["wal"])
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        store.close()
        // WAL is kept in the file's header (bytes 18 and 19 are 2), so it outlives the connection.
        let header = try #require(directory.bytes("cache.sqlite"))
        #expect(header.count > 100 && header[18] == 2 && header[19] == 2)
    }

    @Test func rowsWrittenFromApollosResponsesAreApollosRowsByteForByte() throws {
        try writeTheFixtureResponses()
        let ours = try RawDatabase.recordTexts(path)
        #expect(ours.keys.sorted() == StarWarsFixture.rows.map(\.key))
        for row in StarWarsFixture.rows {
            let text = try #require(ours[row.key])
            // Member order is arbitrary; every member's text is Apollo's to the byte.
            #expect(SQLiteSupport.memberTexts(text) == SQLiteSupport.memberTexts(row.record), "\(row.key)")
            #expect(text.utf8.count == row.record.utf8.count, "\(row.key)")
        }
    }

    @Test func referencesSlashesAndUnicodeAreWrittenAsApolloWritesThem() throws {
        try SQLiteStore(path: path).write(merging: [
            RecordChange(key: "Droid:2001", fields: [
                "primaryFunction": "Astromech/Navigation", "name": "Scomp link 🔌 Padmé",
                "friends(first:3)": [.reference("Human:1000"), nil, .reference("Human:1005")],
                "url(path:/a/b)": .reference("Page:/a/b"), "mass": 77, "height": 1.72, "quote": #"a "b" \c"#,
            ]),
        ], removing: [])
        let row = try #require(try RawDatabase(path, readOnly: true).records().first)
        #expect(row.key == "Droid:2001")
        let text = try #require(row.text)
        #expect(SQLiteSupport.memberTexts(text) == [
            #""friends(first:3)":[{"$reference":"Human:1000"},null,{"$reference":"Human:1005"}]"#,
            #""height":1.72"#,
            #""mass":77"#,
            #""name":"Scomp link 🔌 Padmé""#,
            #""primaryFunction":"Astromech\/Navigation""#,
            #""quote":"a \"b\" \\c""#,
            #""url(path:\/a\/b)":{"$reference":"Page:\/a\/b"}"#,
        ].sorted())
        #expect(!text.replacingOccurrences(of: #"\/"#, with: "").contains("/"), "every slash is escaped")
        #expect(!text.contains(#"\u"#), "non-ASCII text is raw UTF-8")
    }

    @Test func keysAreStoredAsTheyAreWithoutJSONEscapes() throws {
        let key = #"Page:/a/"b"\c Padmé"#
        try SQLiteStore(path: path).write(merging: [RecordChange(key: key, fields: ["a": 1])], removing: [])
        #expect(try RawDatabase(path, readOnly: true).records().map(\.key) == [key])
    }
}

/// A copy of the Apollo iOS file opened read-write: an edit rewrites the one record it
/// changes, and every other row stays Apollo's to the byte.
@Suite struct SQLiteApolloFileEditTests {
    let directory = TemporaryDirectory()

    @Test func editingOneFieldLeavesEveryOtherRowByteIdentical() throws {
        let path = directory.apolloFixture()
        let before = try RawDatabase(path, readOnly: true).records()
        #expect(before.count == 12)
        do {
            let (cache, _) = try SQLiteSupport.cache(path)
            #expect(cache.takeWarnings().isEmpty)
            try cache.write(record: "Human:1002", fields: ["name": "Han Solo (Captain)"])
        }
        let after = try RawDatabase(path, readOnly: true).records()
        #expect(after.map(\.id) == before.map(\.id), "rows keep their _id")
        for (old, new) in zip(before, after) where old.key != "Human:1002" {
            #expect(new == old, "\(old.key)")
        }
        let edited = try #require(after.first { $0.key == "Human:1002" })
        #expect(Support.fields(try Support.object(#require(edited.text), references: .apollo))
                == ["name": "Han Solo (Captain)", "__typename": "Human", "id": "1002"])
        // Reopened, the cache reads the new value and Apollo's rows as they were.
        let (cache, _) = try SQLiteSupport.cache(path)
        #expect(cache.record("Human:1002")?["name"] == "Han Solo (Captain)")
        #expect(cache.record("Droid:2001.modules(installed:true).1")?["name"] == "Scomp link 🔌")
        #expect(try RawDatabase(path, readOnly: true).strings("PRAGMA integrity_check") == ["ok"])
    }

    @Test func aNewRecordTakesTheNextIdOfApollosSequence() throws {
        let path = directory.apolloFixture()
        let sequence = try RawDatabase(path, readOnly: true).strings("SELECT seq FROM sqlite_sequence WHERE name = 'records'")
        #expect(sequence == ["16"])
        do {
            let (cache, _) = try SQLiteSupport.cache(path)
            try cache.write(record: "Human:1004", fields: ["__typename": "Human", "id": "1004", "name": "Wilhuff Tarkin"])
        }
        let rows = try RawDatabase(path, readOnly: true).records()
        #expect(rows.last?.key == "Human:1004")
        #expect(rows.last?.id == 17)
        #expect(rows.count == 13)
    }
}
