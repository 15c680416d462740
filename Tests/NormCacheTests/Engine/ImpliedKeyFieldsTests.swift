import Testing
@testable import NormCache

/// What a cache's record keys show of how the app that wrote it keys each type.
@Suite struct ImpliedKeyFieldsTests {
    let cache: NormalizedCache

    init() throws { cache = try Support.cache() }

    func write(_ records: [String: String]) throws {
        for (key, text) in records { try cache.write(record: key, fields: try Support.object(text, references: .apollo)) }
    }

    @Test func keysByOneFieldByTwoAndInASharedKeySpace() throws {
        try write([
            "Trip:1": #"{"__typename": "Trip", "id": "1", "name": "Lisbon", "legs": 2}"#,
            "Trip:2": #"{"__typename": "Trip", "id": "2", "name": "2"}"#,
            "Trip:1.owner": #"{"__typename": "Person", "name": "Ada"}"#,
            "Airport:LIS": #"{"__typename": "Airport", "code": "LIS", "name": "Lisbon"}"#,
            "Seat:LH123+14C": #"{"__typename": "Seat", "flight": "LH123", "number": "14C", "window": true}"#,
            "Seat:LH123+1": #"{"__typename": "Seat", "flight": "LH123", "number": 1}"#,
            "Animal:7": #"{"__typename": "Dog", "id": 7}"#,
            "Animal:8": #"{"__typename": "Cat", "id": 8}"#,
            "QUERY_ROOT": #"{"trip(id:1)": {"__ref": "Trip:1"}}"#,
        ])
        #expect(ImpliedKeyFields.find(in: cache) == [
            ImpliedKeyFields(typename: "Airport", fields: ["code"], group: nil),
            ImpliedKeyFields(typename: "Cat", fields: ["id"], group: "Animal"),
            ImpliedKeyFields(typename: "Dog", fields: ["id"], group: "Animal"),
            ImpliedKeyFields(typename: "Seat", fields: ["flight", "number"], group: nil),
            ImpliedKeyFields(typename: "Trip", fields: ["id"], group: nil),
        ])
    }

    /// Keys the app computed otherwise (a hash, a prefix of its own) show nothing, and a
    /// type whose records disagree shows nothing.
    @Test func keysNoFieldsMakeShowNothing() throws {
        try write([
            "User:a1b2": #"{"__typename": "User", "id": "1", "email": "a@b.c"}"#,
            "Note:1": #"{"__typename": "Note", "id": "1", "slug": "x"}"#,
            "Note:y": #"{"__typename": "Note", "id": "2", "slug": "y"}"#,
        ])
        #expect(ImpliedKeyFields.find(in: cache).isEmpty)
    }

    /// A key field's value with a `+` or `\` in it is escaped in the key, as the engine
    /// escapes it; the same builder reads it back.
    @Test func escapedValues() throws {
        let key = try KeyBuilder().entityKey(type: "Tag", values: ["a+b", #"c\d"#])
        try write([key: #"{"__typename": "Tag", "left": "a+b", "right": "c\\d"}"#])
        #expect(ImpliedKeyFields.find(in: cache) == [ImpliedKeyFields(typename: "Tag", fields: ["left", "right"], group: nil)])
    }

    /// Only the first `sampled` keys of a type, in key order with path keys last, are
    /// looked at: a record further on that disagrees changes nothing, one among them does.
    @Test func onlyTheFirstKeysInOrderAreSampled() throws {
        var records: [String: String] = ["Trip:1.owner": #"{"__typename": "Person", "name": "Ada"}"#]
        for id in 10..<(10 + ImpliedKeyFields.sampled) { records["Trip:\(id)"] = #"{"__typename": "Trip", "id": "\#(id)"}"# }
        records["Trip:99"] = #"{"__typename": "Trip", "id": "x", "code": "99"}"#   // keyed by code
        try write(records)
        #expect(ImpliedKeyFields.find(in: cache) == [ImpliedKeyFields(typename: "Trip", fields: ["id"], group: nil)])
        try write(["Trip:0": #"{"__typename": "Trip", "id": "x", "code": "0"}"#])
        #expect(ImpliedKeyFields.find(in: cache).isEmpty)
    }
}
