import Foundation
import NormCache
import Testing

/// Every key example of Apollo iOS's format (docs/keys.md, "Formats") and of the Apollo iOS 1.25.7 fixture,
/// built through KeyBuilder and the C core.
@Suite struct KeyVectorTests {
    let keys = KeyBuilder()

    /// The fixture's rows, `key|record`, as Apollo iOS wrote them.
    static let fixtureRows: String = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Fixtures/apollo-ios-1.25.7-starwars.rows.txt")
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }()

    struct FieldVector: CustomTestStringConvertible, Sendable {
        let name: String
        let arguments: [String: ArgumentValue]
        let key: String
        /// True when Apollo iOS wrote this key into the fixture file.
        var inFixture = false
        var testDescription: String { key }
    }

    static let filter: ArgumentValue = .object([
        "includeDroids": .bool(true),
        "kinds": .list([.string("Human"), .string("Droid"), .string("Starship")]),
        "minLength": .null,
        "orderBy": .list([
            .object(["desc": .bool(false), "field": .string("name")]),
            .object(["field": .string("id")]),
        ]),
        "range": .object(["max": .float(30), "min": .float(1.5)]),
    ])

    static let fieldVectors: [FieldVector] = [
        .init(name: "hero", arguments: ["episode": .string("JEDI")], key: "hero(episode:JEDI)", inFixture: true),
        .init(name: "hero", arguments: ["episode": .string("EMPIRE")], key: "hero(episode:EMPIRE)", inFixture: true),
        .init(name: "human", arguments: ["id": .string("1000")], key: "human(id:1000)", inFixture: true),
        .init(name: "friends", arguments: ["first": .int(3)], key: "friends(first:3)", inFixture: true),
        .init(name: "modules", arguments: ["installed": .bool(true)], key: "modules(installed:true)", inFixture: true),
        .init(name: "height", arguments: ["unit": .string("FOOT")], key: "height(unit:FOOT)", inFixture: true),
        .init(name: "height", arguments: ["unit": .string("METER")], key: "height(unit:METER)", inFixture: true),
        .init(name: "height", arguments: [:], key: "height", inFixture: true),
        .init(name: "friends", arguments: [:], key: "friends", inFixture: true),
        .init(
            name: "search", arguments: ["text": .string("Padmé, R2"), "filter": filter],
            key: "search([filter:includeDroids:true,kinds:[Human, Droid, Starship],minLength:null,"
                + "orderBy:[desc:false,field:name,field:id],[range:max:30.0,min:1.5]],text:Padmé, R2)",
            inFixture: true),
        .init(
            name: "friends",
            arguments: ["first": .int(3), "filter": .object(["ids": .list([.int(1), .int(2)]), "kind": .string("A")])],
            key: "friends([filter:ids:[1, 2],kind:A],first:3)"),
        // Apollo's own cacheKey(with:) for other variable values (fixture notes).
        .init(name: "hero", arguments: ["episode": .null], key: "hero(episode:null)"),
        .init(name: "search", arguments: ["text": .string("R2")], key: "search(text:R2)"),
        .init(name: "search", arguments: ["text": .string("R2"), "filter": .null], key: "search(filter:null,text:R2)"),
        .init(name: "search", arguments: ["text": .string("R2"), "filter": .object([:])], key: "search([filter:],text:R2)"),
        .init(
            name: "search", arguments: ["text": .string("R2"), "filter": .object(["orderBy": .list([])])],
            key: "search([filter:orderBy:[]],text:R2)"),
        .init(
            name: "search",
            arguments: ["text": .string("R2"), "filter": .object(["range": .object(["min": .float(2), "unit": .string("METER")])])],
            key: "search([filter:[range:min:2.0,unit:METER]],text:R2)"),
        // Floats as Swift prints a Double; Ints as they are.
        .init(name: "f", arguments: ["x": .float(30)], key: "f(x:30.0)"),
        .init(name: "f", arguments: ["x": .int(30)], key: "f(x:30)"),
        .init(name: "f", arguments: ["x": .float(0.00001)], key: "f(x:1e-05)"),
        .init(name: "f", arguments: ["x": .int(-9_223_372_036_854_775_808)], key: "f(x:-9223372036854775808)"),
    ]

    @Test(arguments: fieldVectors)
    func fieldKey(_ vector: FieldVector) throws {
        #expect(try keys.fieldKey(vector.name, arguments: vector.arguments) == vector.key)
        if vector.inFixture {
            #expect(Self.fixtureRows.contains("\"\(vector.key)\":"), "Apollo iOS wrote \(vector.key)")
        }
    }

    @Test func entityKeys() throws {
        #expect(try keys.entityKey(type: "Human", values: ["1000"]) == "Human:1000")
        #expect(try keys.entityKey(type: "Node", values: ["42"]) == "Node:42")
        #expect(try keys.entityKey(type: "Price", values: ["EUR", "12"]) == "Price:EUR+12")
        #expect(try keys.entityKey(type: "T", values: ["a+b", "c\\d"]) == "T:a\\+b+c\\\\d")
        // One key field: the value is the whole id, nothing to escape.
        #expect(try keys.entityKey(type: "T", values: ["a+b"]) == "T:a+b")
        #expect(try keys.entityKey(type: "T", values: ["", ""]) == "T:+")
    }

    /// Every entity key of the fixture file, rebuilt from its parts. (Its path keys,
    /// `Droid:2001.modules(installed:true).0`, are the normalizer's: SQLiteFormatTests
    /// writes Apollo's responses and compares every key with the file's.)
    @Test func fixtureEntityKeys() throws {
        let built = [
            try keys.entityKey(type: "Droid", values: ["2000"]),
            try keys.entityKey(type: "Droid", values: ["2001"]),
            try keys.entityKey(type: "Human", values: ["1000"]),
            try keys.entityKey(type: "Human", values: ["1002"]),
            try keys.entityKey(type: "Human", values: ["1003"]),
            try keys.entityKey(type: "Human", values: ["1005"]),
            try keys.entityKey(type: "Starship", values: ["3001"]),
            try keys.entityKey(type: "Starship", values: ["3003"]),
        ]
        let fixtureKeys = Self.fixtureRows.split(separator: "\n").map { String($0.prefix { $0 != "|" }) }
        #expect(built == fixtureKeys.filter { $0 != "QUERY_ROOT" && !$0.contains(".") })
        #expect(fixtureKeys.count == built.count + 4)   // QUERY_ROOT and three path keys
    }

    @Test func argumentOrderDoesNotMatter() throws {
        let a = try keys.fieldKey("f", arguments: ["b": .int(1), "a": .object(["z": .null, "y": .bool(false)])])
        #expect(a == "f([a:y:false,z:null],b:1)")
    }

    @Test func listsOfListsAndMixedLists() throws {
        #expect(try keys.fieldKey("f", arguments: ["m": .list([.list([.int(1), .int(2)]), .list([])])]) == "f(m:[[1, 2], []])")
        #expect(try keys.fieldKey("f", arguments: ["m": .list([.int(1), .null, .object(["a": .int(2)])])]) == "f(m:[1, null, [a:2]])")
    }

    @Test func unicodeIsNormalizedToNFC() throws {
        let composed = try keys.fieldKey("f", arguments: ["t": .string("Padm\u{E9}")])
        let decomposed = try keys.fieldKey("f", arguments: ["t": .string("Padme\u{301}")])
        #expect(Array(composed.utf8) == Array(decomposed.utf8))
        #expect(Array(try keys.entityKey(type: "T", values: ["e\u{301}"]).utf8) == Array("T:\u{E9}".utf8))
    }

    @Test func badInputIsRefused() {
        #expect(throws: KeyError.self) { try keys.fieldKey("") }
        #expect { try keys.fieldKey("f", arguments: ["t": .string("a\u{0}b")]) } throws: {
            ($0 as? KeyError)?.reason == .embeddedNUL && "\($0)".contains("field key of \"f\"")
        }
        var deep: ArgumentValue = .null
        for _ in 0..<100 { deep = .list([deep]) }
        #expect { try keys.fieldKey("f", arguments: ["d": deep]) } throws: { ($0 as? KeyError)?.reason == .tooDeep }
        let huge = String(repeating: "x", count: 1 << 20)
        #expect { try keys.fieldKey("f", arguments: ["t": .string(huge)]) } throws: { ($0 as? KeyError)?.reason == .tooLong }
        #expect { try keys.entityKey(type: "T", values: []) } throws: { ($0 as? KeyError)?.reason == .invalidArgument }
    }
}
