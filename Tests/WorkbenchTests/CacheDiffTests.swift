import Foundation
import NormCache
import Testing
@testable import Workbench

/// `CacheDiff`, the one comparison of `normcache diff A B` and `.diff FILE` (issue 39):
/// records only in A, only in B, changed fields old → new; values as Apollo iOS reads them.
@Suite struct CacheDiffTests {
    /// A cache over a store that holds `records` as given: fields in their order, numbers
    /// of the kind given, as a file's rows would parse.
    func cache(_ records: KeyValuePairs<String, CacheObject>) throws -> NormalizedCache {
        let store = InMemoryStore()
        store.write(merging: records.map { RecordChange(key: $0.key, fields: $0.value) }, removing: [])
        return try NormalizedCache(store: store)
    }

    @Test func recordsOnlyInEachSideAndChangedFieldsSortedByKey() throws {
        let a = try cache([
            "QUERY_ROOT": ["hero": .reference("Human:1000")],
            "Human:1000": ["name": "Luke", "mass": 77, "__typename": "Human"],
            "Droid:2000": ["name": "C-3PO"],
            "Droid:2001": ["name": "R2-D2"],
        ])
        let b = try cache([
            "Starship:3000": ["name": "Falcon"],
            "Human:1000": ["__typename": "Human", "name": "Luke Skywalker", "height": 1.72],
            "QUERY_ROOT": ["hero": .reference("Human:1000")],
            "Human:1003": ["name": "Leia"],
        ])
        let diff = try CacheDiff(a, b)
        #expect(diff.onlyA == ["Droid:2000", "Droid:2001"])
        #expect(diff.onlyB == ["Human:1003", "Starship:3000"])
        #expect(diff.changed == [CacheDiff.Change(key: "Human:1000", fields: [
            FieldChange(field: "height", old: nil, new: 1.72),
            FieldChange(field: "mass", old: 77, new: nil),
            FieldChange(field: "name", old: "Luke", new: "Luke Skywalker"),
        ])])
        #expect(diff.same == 1)
        #expect(!diff.isEmpty)
        // The other way round, everything swaps sides.
        let back = try CacheDiff(b, a)
        #expect(back.onlyA == diff.onlyB && back.onlyB == diff.onlyA)
        #expect(back.changed.first?.fields.map { [$0.old, $0.new] } == diff.changed.first?.fields.map { [$0.new, $0.old] })
    }

    /// Member order and number formatting, which Apollo iOS reads the same, are no difference.
    @Test func whatApolloIOSReadsTheSameIsNoDifference() throws {
        let a = try cache(["Human:1000": ["__typename": "Human", "mass": .int(77), "height": .double(1.5),
                                          "appearance": ["eyeColor": "blue", "hairColor": "blond", "scars": [1, 2.5]],
                                          "friends": [.reference("Human:1002"), .null]]])
        let b = try cache(["Human:1000": ["friends": [.reference("Human:1002"), .null], "height": .double(1.50),
                                          "appearance": ["scars": [.double(1), 2.5], "hairColor": "blond", "eyeColor": "blue"],
                                          "mass": .double(77), "__typename": "Human"]])
        let diff = try CacheDiff(a, b)
        #expect(diff.isEmpty, "\(diff)")
        #expect(diff.same == 1)
    }

    /// Two values of a field, A's and B's.
    struct Values: Sendable, CustomTestStringConvertible {
        let old: CacheValue
        let new: CacheValue
        init(_ old: CacheValue, _ new: CacheValue) { (self.old, self.new) = (old, new) }
        var testDescription: String { "\(JSON.string(old, references: .apollo)) → \(JSON.string(new, references: .apollo))" }
    }

    /// Each of these pairs reads differently, and shows as a change of the field.
    @Test(arguments: [
        Values(.reference("Human:1"), .string("Human:1")),
        Values(.reference("Human:1"), .reference("Human:2")),
        Values([.reference("Human:1"), .reference("Human:2")], [.reference("Human:2"), .reference("Human:1")]),
        Values(.int(77), .double(77.5)),
        Values(.bool(true), .int(1)),
        Values(.null, .string("")),
        Values(["a": 1], ["a": 1, "b": 2]),
        Values(["a": 1], ["b": 1]),
        Values([1, 2], [1, 2, 3]),
    ])
    func differentValuesAreAChange(values: Values) throws {
        let (old, new) = (values.old, values.new)
        let diff = try CacheDiff(try cache(["Trip:1": ["value": old]]), try cache(["Trip:1": ["value": new]]))
        #expect(diff.changed == [CacheDiff.Change(key: "Trip:1", fields: [FieldChange(field: "value", old: old, new: new)])])
        #expect(diff.same == 0)
    }

    /// A stored null is a value; a field a record lacks is absent (nil), which differs from it.
    @Test func aNullFieldAndAnAbsentOneDiffer() throws {
        let diff = try CacheDiff(try cache(["Trip:1": ["name": nil, "id": "1"]]), try cache(["Trip:1": ["id": "1"]]))
        #expect(diff.changed == [CacheDiff.Change(key: "Trip:1", fields: [FieldChange(field: "name", old: .null, new: nil)])])
    }

    @Test func aGlobNarrowsBothSidesToTheRecordKeysItMatches() throws {
        let a = try cache(["Human:1000": ["name": "Luke"], "Human:1002": ["name": "Han"], "Droid:2000": ["name": "C-3PO"]])
        let b = try cache(["Human:1000": ["name": "Luke Skywalker"], "Human:1003": ["name": "Leia"], "Droid:2001": ["name": "R2-D2"]])
        let humans = try CacheDiff(a, b, keys: "Human:*")
        #expect(humans.onlyA == ["Human:1002"] && humans.onlyB == ["Human:1003"] && humans.changed.map(\.key) == ["Human:1000"])
        #expect(humans.pattern == "Human:*")
        let droids = try CacheDiff(a, b, keys: "Droid:200?")
        #expect(droids.onlyA == ["Droid:2000"] && droids.onlyB == ["Droid:2001"] && droids.changed.isEmpty)
        let none = try CacheDiff(a, b, keys: "Starship:*")
        #expect(none.isEmpty && none.same == 0)
        let error = #expect(throws: CommandError.self) { try CacheDiff(a, b, keys: "") }
        #expect(error?.message.contains("the glob of record keys is empty") == true)
    }

    /// A's side is the cache as `.keys` lists it: an optimistic layer's records count.
    @Test func theCurrentCacheIsReadWithItsLayers() throws {
        let a = try cache(["Trip:1": ["name": "Porto"]])
        let create = try a.operation(#"mutation { createTrip { __typename id name } }"#)
        try a.writeOptimistic("layer", data: ["createTrip": ["__typename": "Trip", "id": "2", "name": "Faro"]], for: create)
        let diff = try CacheDiff(a, try cache(["Trip:1": ["name": "Porto"]]))
        #expect(diff.onlyA == ["MUTATION_ROOT", "Trip:2"] && diff.changed.isEmpty && diff.same == 1, "\(diff)")
    }

    @Test func textSaysWhichSideEachRecordIsOnAndHowEachFieldChanged() throws {
        let a = try cache(["Droid:2000": ["name": "C-3PO"], "Human:1000": ["name": "Luke", "mass": 77, "ship": .reference("Starship:1")]])
        let b = try cache(["Human:1000": ["name": "Luke", "mass": 80, "home": "Tatooine"], "Starship:3002": ["name": "Falcon"], "X-wing:1": ["id": "1"]])
        let renderer = TextRenderer(tables: false, style: TextStyle(colour: false))
        let (lines, errors) = renderer.render(.diff(a: "a.sqlite", b: "b.sqlite", try CacheDiff(a, b)))
        #expect(errors.isEmpty)
        #expect(lines == [
            "--- a.sqlite", "+++ b.sqlite",
            "- Droid:2000",
            "~ Human:1000",
            #"    home: (absent) → "Tatooine""#,
            "    mass: 77 → 80",
            #"    ship: {"$reference":"Starship:1"} → (absent)"#,
            "+ Starship:3002",
            "+ X-wing:1",
            "1 record only in a.sqlite, 2 only in b.sqlite, 1 changed, 0 the same",
        ])
        let same = renderer.render(.diff(a: "a.sqlite", b: "b.sqlite", try CacheDiff(a, a, keys: "Human:*"))).output
        #expect(same == ["a.sqlite and b.sqlite hold the same 1 record matching Human:*"])
        let table = TextRenderer(tables: true, style: TextStyle(colour: false)).render(.diff(a: "a", b: "b", try CacheDiff(a, b, keys: "Human:*"))).output
        #expect(table.contains("| ~ | Human:1000 | mass  | 77                          | 80         |"), "\(table)")
    }

    @Test func jsonIsTheContractsDiffEvent() throws {
        let a = try cache(["Droid:2000": ["name": "C-3PO"], "Human:1000": ["name": "Luke", "ship": .reference("Starship:1")]])
        let b = try cache(["Human:1000": ["name": "Luke Skywalker"], "Starship:3002": ["name": "Falcon"]])
        let line = JSONRenderer.line(.diff(a: "a.sqlite", b: "b.sqlite", try CacheDiff(a, b)))
        #expect(line == #"{"event":"diff","a":"a.sqlite","b":"b.sqlite","onlyA":["Droid:2000"],"onlyB":["Starship:3002"],"#
            + #""changed":{"Human:1000":{"name":["Luke","Luke Skywalker"],"ship":[{"$reference":"Starship:1"},null]}}}"#)
    }
}
