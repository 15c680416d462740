import Foundation
import Testing
@testable import NormCache

/// Records written through a SQLite file by one cache read back exactly, byte for byte, in a new store and cache.
@Suite struct SQLiteRoundTripTests {
    let directory = TemporaryDirectory()
    var path: String { directory.path("cache.sqlite") }

    /// Every kind of value a record holds, with the strings and numbers a JSON writer or
    /// reader is most likely to get wrong.
    static let records: [(key: String, fields: CacheObject)] = [
        ("QUERY_ROOT", [
            "hero(episode:JEDI)": .reference("Human:1000"),
            "search(text:Padmé, R2)": [.reference("Human:1002"), nil, .reference("Droid:2000")],
            "note(path:/a/b)": .reference(#"Note:a/"b"\c"#),
        ]),
        ("Human:1000", [
            "__typename": "Human", "id": "1000",
            "name": "Padmé 🔌",
            "decomposed": "Padme\u{301}",          // e + combining acute: canonically equal to the next, not the same bytes
            "precomposed": "Padm\u{E9}",
            "flag": "🇵🇹 👩🏽‍🚀",
            "meta": nil,
            "friends": [.reference("Human:1002"), nil, .reference("Droid:2000")],
            "grid": [[1, 2], [], [nil, [.reference("Human:1002"), "x"]]],
            "height": 1.72, "feet": 5.64, "tiny": 1e-5, "third": 0.30000000000000004, "negative": -273.15,
            "negativeZero": -0.0, "huge": 1e300, "smallest": .double(.leastNonzeroMagnitude), "wholeFloat": 30.0,
            "mass": 77, "maxInt": .int(.max), "minInt": .int(.min), "minusOne": -1, "zero": 0,
            "isForceSensitive": true, "isDroid": false,
            "geo": ["lat": 38.72, "lng": -9.14, "tags": ["a", nil, ["deep": true]], "z": nil],   // custom scalar: an object
            "bounds": [[0.5, 1], ["x": nil], []],                                                  // custom scalar: a list
            "notAReference": ["$reference": "Human:1002", "extra": 1],
            "emptyObject": [:],
            "path": "a/b/../c", "html": "</script>", "quote": #"say "hi""#, "backslash": #"C:\dir\file"#,
            "escapeText": #"\n is not a newline, \u0041 is not A"#,
            "controls": "\u{0}\u{1}\u{8}\u{9}\u{A}\u{C}\u{D}\u{1B}\u{1F}\u{7F}", "separators": "\u{2028}\u{2029}", "empty": "",
        ]),
        ("Human:1002", ["__typename": "Human", "id": "1002", "name": "Han Solo"]),
        ("Droid:2000", ["__typename": "Droid", "id": "2000", "name": "C-3PO", "primaryFunction": "Protocol/Etiquette"]),
        (#"Note:a/"b"\c"#, ["text": "a key with a slash, a quote and a backslash", "a/b": "a field key with a slash", #"q"uote\"#: 1]),
    ]

    @Test func everyKindOfValueReadsBackByteForByteFromANewStore() throws {
        do {
            let (cache, store) = try SQLiteSupport.cache(path)
            for record in Self.records { try cache.write(record: record.key, fields: record.fields) }
            store.close()
        }
        let store = try SQLiteStore(path: path)
        let cache = try NormalizedCache(store: store)
        #expect(cache.keys() == Self.records.map(\.key).sorted())
        for record in Self.records {
            SQLiteSupport.expectIdentical(cache.record(record.key), record.fields, "\(record.key)")
        }
        #expect(cache.takeWarnings().isEmpty)
        #expect(store.warnings.isEmpty)
        // One row per record, nothing else.
        #expect(try RawDatabase(path, readOnly: true).records().map(\.key).sorted() == Self.records.map(\.key).sorted())
    }

    @Test func theStoreHandsBackWhatItWasGivenWithoutACache() throws {
        let written = Self.records.map { RecordChange(key: $0.key, fields: $0.fields) }
        try SQLiteStore(path: path).write(merging: written, removing: [])
        let store = try SQLiteStore(path: path)
        #expect(try store.keys() == written.map(\.key).sorted())
        for record in try store.loadAll() + (try store.load(written.map(\.key))) {
            SQLiteSupport.expectIdentical(record.fields, written.first { $0.key == record.key }?.fields, "\(record.key)")
        }
        #expect(try store.load(["Human:404"]).isEmpty)
    }

    @Test func aNullIsAFetchedValueAndAMissingFieldIsACacheMissAfterReopening() throws {
        do {
            let (cache, _) = try SQLiteSupport.cache(path)
            try cache.write(record: "QUERY_ROOT", fields: ["hero": .reference("Human:1")])
            try cache.write(record: "Human:1", fields: ["__typename": "Human", "name": "Luke", "meta": nil])
        }
        let (cache, _) = try SQLiteSupport.cache(path)
        #expect(cache.record("Human:1")?["meta"] == .null)
        #expect(cache.record("Human:1")?["absent"] == nil)
        let result = try cache.read(try cache.operation("{ hero { name meta absent } }"), partial: true)
        #expect(result.missing == ["Human:1.absent"])
        #expect(Support.canonical(result.data) == #"{"hero":{"__typename":"Human","meta":null,"name":"Luke"}}"#)
        // The row holds the null and leaves the missing field out.
        let text = try #require(try RawDatabase.recordTexts(path)["Human:1"])
        #expect(SQLiteSupport.memberTexts(text) == [#""__typename":"Human""#, #""meta":null"#, #""name":"Luke""#])
    }

    @Test func rewritesAndEvictionsReachTheFile() throws {
        do {
            let (cache, _) = try SQLiteSupport.cache(path)
            for record in Self.records { try cache.write(record: record.key, fields: record.fields) }
            try cache.write(record: "Human:1002", fields: ["name": "Han", "ship": "Falcon"])
            try cache.write(record: "Human:1002", fields: ["name": "Han Solo"])
            _ = try cache.evict("Droid:2000")
            _ = try cache.evict("Human:1000", field: "meta")
        }
        let (cache, _) = try SQLiteSupport.cache(path)
        #expect(Support.fields(cache.record("Human:1002")) == ["__typename": "Human", "id": "1002", "name": "Han Solo", "ship": "Falcon"])
        #expect(cache.record("Droid:2000") == nil)
        #expect(cache.record("Human:1000")?["meta"] == nil)
        #expect(cache.record("Human:1000")?["name"] == "Padmé 🔌")
        // Rewrites replace the row in place: one row per key.
        let keys = try RawDatabase(path, readOnly: true).records().map(\.key)
        #expect(keys.sorted() == Self.records.map(\.key).filter { $0 != "Droid:2000" }.sorted())
    }
}
