import Testing
@testable import NormCache

/// A key value's text is made in one place (`KeyText`): a written object's key field and
/// a field policy's key argument give the same text, so a redirect reads the record the
/// write keyed.
@Suite struct KeyTextTests {
    @Test(arguments: [CacheValue.string("LH1+14C"), .int(2001), .int(-7), .double(2.5), .double(1e21), .double(30)])
    func aKeyFieldAndAKeyArgumentGiveTheSameText(value: CacheValue) throws {
        let argument: ArgumentValue = switch value {
        case .string(let text): .string(text)
        case .int(let number): .int(number)
        case .double(let number): .float(number)
        default: .null
        }
        #expect(Normalizer.keyText(value) != nil)
        #expect(Normalizer.keyText(value) == argument.keyText)
    }

    @Test func aBooleanNullListOrObjectMakesNoKey() {
        for value: CacheValue in [.bool(true), .null, .list([]), .object(CacheObject())] { #expect(Normalizer.keyText(value) == nil) }
    }

    /// End to end: a trip keyed by a Float id is what `trip(id: 2.5)` redirects to.
    @Test func aRedirectReadsTheRecordTheWriteKeyed() throws {
        let cache = try Support.cache()
        var trips = SchemaKnowledge(possibleTypes: try PossibleTypes(sdl: "type Trip { id: Float! name: String } type Query { trips: [Trip!]! trip(id: Float!): Trip }"))
        trips.fieldPolicies["Query", "trip"] = ["id"]
        try cache.write(data: try Support.object(#"{"trips":[{"__typename":"Trip","id":2.5,"name":"Faro"}]}"#),
                        for: try cache.operation("{ trips { id name } }"), schema: trips)
        let result = try cache.read(try cache.operation("{ trip(id: 2.5) { name } }"), schema: trips)
        #expect(result.data?["trip"]?["name"] == "Faro")
        #expect(result.redirects.map(\.description) == ["QUERY_ROOT.trip(id:2.5) → Trip:2.5"])
    }

    /// The normalizer joins `Type:` and a single plain-ASCII key value itself (its fast
    /// path); any other value goes through `KeyBuilder`. Over random values, ASCII and not,
    /// with `+`, `\\` and control characters, both give the key `KeyBuilder` gives.
    @Test func theWritersFastPathAndKeyBuilderAgree() throws {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [Character] = Array("aZ09+\\.:-_ \t\u{1}\u{7F}") + ["é", "e\u{301}", "Å", "😀"]
        let ids = (0..<300).map { _ in String((0..<Int.random(in: 1...12, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }) }
        let cache = try Support.cache()
        let op = try cache.operation("{ trips { id } }")
        let items = ids.map { CacheValue.object(["__typename": "Trip", "id": .string($0)]) }
        try cache.write(data: ["trips": .list(items)], for: op)
        let builder = KeyBuilder()
        guard case .list(let references)? = cache.record("QUERY_ROOT")?["trips"] else { Issue.record("no list"); return }
        for (id, reference) in zip(ids, references) {
            #expect(reference == .reference(try builder.entityKey(type: "Trip", values: [id])), "id \(id.debugDescription)")
        }
    }
}
