import Testing
@testable import NormCache

/// Without a schema, the cases of a selection that one response key answers differently
/// (`... on Human { property: name } ... on Droid { property: primaryFunction }`) are
/// object types, and only the case the object's `__typename` names is written and read;
/// a type a response named as a `__typename` is an object type too. The writer and the
/// reader decide by the same rule, so a read after the write is complete.
@Suite struct TypeConditionTests {
    let cache: NormalizedCache

    init() throws { cache = try Support.cache() }

    static let property = "{ hero { __typename ... on Human { property: name } ... on Droid { property: primaryFunction } } }"
    static let height = """
        { hero { __typename ... on Human { friend { height(unit: FOOT) } } ... on Droid { friend { height(unit: METER) } } } }
        """

    @Test func oneResponseKeyForTwoFieldsIsWrittenOnlyForTheCaseThatHolds() throws {
        let op = try cache.operation(Self.property)
        let human = #"{"hero":{"__typename":"Human","property":"Han Solo"}}"#
        try cache.write(data: try Support.object(human), for: op)
        #expect(Support.fields(cache.record("QUERY_ROOT.hero")) == ["__typename": "Human", "name": "Han Solo"])
        let read = try cache.read(op)
        #expect(read.complete)
        #expect(Support.canonical(read.data) == Support.canonical(try JSON.parse(human)))
        // The other case, answered by a Droid, is written under its own field.
        let droid = #"{"hero":{"__typename":"Droid","property":"Astromech"}}"#
        try cache.write(data: try Support.object(droid), for: op)
        #expect(Support.fields(cache.record("QUERY_ROOT.hero")) == ["__typename": "Droid", "primaryFunction": "Astromech"])
        #expect(Support.canonical(try cache.read(op).data) == Support.canonical(try JSON.parse(droid)))
    }

    @Test func oneResponseKeyWithOtherArgumentsBelowIsWrittenOnlyForTheCaseThatHolds() throws {
        let op = try cache.operation(Self.height)
        let human = #"{"hero":{"__typename":"Human","friend":{"__typename":"Human","height":6}}}"#
        try cache.write(data: try Support.object(human), for: op)
        #expect(Support.fields(cache.record("QUERY_ROOT.hero.friend")) == ["__typename": "Human", "height(unit:FOOT)": 6])
        let read = try cache.read(op)
        #expect(read.complete)
        #expect(Support.canonical(read.data) == Support.canonical(try JSON.parse(human)))
    }

    /// A type a response named as a `__typename` is an object type: no other type
    /// satisfies it, so its case is not read for another type's record, and a response
    /// that carries a field only that case selects is refused, not taken as evidence.
    @Test func aTypeSeenAsATypenameIsSatisfiedByNoOtherType() throws {
        let op = try cache.operation("{ hero { __typename name ... on Droid { primaryFunction } } }")
        try cache.write(data: try Support.object(#"{"hero":{"__typename":"Droid","name":"R2-D2","primaryFunction":"Astromech"}}"#), for: op)
        #expect(cache.possibleTypes.satisfies("Human", condition: "Droid") == false)
        try cache.write(record: "QUERY_ROOT.hero", fields: ["__typename": "Human", "name": "Han"])
        let read = try cache.read(op)
        #expect(read.complete)
        #expect(Support.canonical(read.data) == Support.canonical(try JSON.parse(#"{"hero":{"__typename":"Human","name":"Han"}}"#)))
        do {
            try cache.write(data: try Support.object(#"{"hero":{"__typename":"Human","name":"Han","primaryFunction":"Pilot"}}"#), for: op)
            Issue.record("the write should have been refused")
        } catch CacheError.response(let error) {
            #expect(error.path == "data.hero.primaryFunction")
            #expect(error.message.contains("a Human is not a Droid"), "\(error.message)")
            #expect(!error.message.contains("the schema says"), "\(error.message)")
        }
        #expect(!cache.possibleTypes.matches("Human", condition: "Droid"))
    }

    /// An object without `__typename` is of no known type: its cases stay undecided.
    @Test func anObjectWithoutTypenameLeavesTheCasesUndecided() throws {
        let op = try cache.operation("{ hero { name ... on Droid { primaryFunction } } }")
        try cache.write(data: try Support.object(#"{"hero":{"__typename":"Droid","name":"R2-D2","primaryFunction":"Astromech"}}"#), for: op)
        try cache.write(record: "QUERY_ROOT", fields: ["hero": .reference("Thing:1")])
        try cache.write(record: "Thing:1", fields: ["name": "Thing", "primaryFunction": "Unknown"])
        let read = try cache.read(op)
        #expect(read.complete)
        #expect(read.data?["hero"]?["primaryFunction"] == "Unknown")
    }

    /// A watcher of the query sees the case that holds, complete after each write, and
    /// does not depend on the other case's field.
    @Test func aWatcherSeesOnlyTheCaseThatHolds() throws {
        let op = try cache.operation(Self.property)
        let recorder = Recorder()
        let watch = try cache.watch(op, onEmission: recorder.callback)
        defer { watch.cancel() }
        try cache.write(data: try Support.object(#"{"hero":{"__typename":"Human","property":"Han Solo"}}"#), for: op)
        #expect(recorder.last?.result.complete == true)
        // A new name changes the name, and nothing under the case that does not hold.
        try cache.write(data: try Support.object(#"{"hero":{"__typename":"Human","property":"Han"}}"#), for: op)
        #expect(recorder.count == 3)
        #expect(recorder.last?.changed == ["QUERY_ROOT.hero.name"])
        #expect(recorder.last?.result.data?["hero"]?["property"] == "Han")
        // A change to the field of the case that does not hold reaches no one.
        try cache.write(record: "QUERY_ROOT.hero", fields: ["primaryFunction": "Pilot"])
        #expect(recorder.count == 3)
        try cache.write(data: try Support.object(#"{"hero":{"__typename":"Droid","property":"Astromech"}}"#), for: op)
        #expect(recorder.count == 4)
        #expect(recorder.last?.result.complete == true)
        #expect(recorder.last?.result.data?["hero"]?["property"] == "Astromech")
    }
}
