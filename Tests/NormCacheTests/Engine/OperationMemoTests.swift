import Testing
@testable import NormCache

/// The bounded memo of compiled operations: the least recently used plan goes when a new
/// one comes to a full memo, and a plan compiled again works in a cache that used the old one.
@Suite struct OperationMemoTests {
    /// A plan compiled outside the process-wide memo, and the hash the memo files it by.
    func compiled(_ document: String) throws -> (operation: CompiledOperation, hash: UInt64) {
        (try OperationCompiler.compile(document, name: nil), UInt64(truncatingIfNeeded: document.hashValue))
    }

    @Test func theLeastRecentlyUsedPlanGoes() throws {
        let (trips, tripsHash) = try compiled("{ trips { id } }")
        let (donuts, donutsHash) = try compiled("{ donuts { id } }")
        let (purls, purlsHash) = try compiled("{ purls { id } }")
        var memo = OperationMemo(capacity: 2)
        memo.keep(trips, hash: tripsHash, name: nil)
        memo.keep(donuts, hash: donutsHash, name: nil)
        // Trips is used, so donuts is now the least recently used: purls takes its place.
        #expect(memo.find(trips.source, hash: tripsHash, name: nil) === trips)
        memo.keep(purls, hash: purlsHash, name: nil)
        #expect(memo.count == 2)
        #expect(memo.find(donuts.source, hash: donutsHash, name: nil) == nil)
        #expect(memo.find(purls.source, hash: purlsHash, name: nil) === purls)
        #expect(memo.find(trips.source, hash: tripsHash, name: nil) === trips)
        // Trips was used last, so purls goes next.
        memo.keep(donuts, hash: donutsHash, name: nil)
        #expect(memo.find(purls.source, hash: purlsHash, name: nil) == nil)
        #expect(memo.find(trips.source, hash: tripsHash, name: nil) === trips)
    }

    /// Documents sharing a hash are told apart by their text, and names are kept as the
    /// process-wide memo keeps them: the only operation serves a request by its name.
    @Test func sharedHashesAndNames() throws {
        let (a, _) = try compiled("query A { a }")
        let (b, _) = try compiled("query B { b }")
        var memo = OperationMemo(capacity: 4)
        memo.keep(a, hash: 7, name: nil)
        memo.keep(b, hash: 7, name: "B")
        #expect(memo.find(a.source, hash: 7, name: nil) === a)
        #expect(memo.find(a.source, hash: 7, name: "A") === a)
        #expect(memo.find(b.source, hash: 7, name: "B") === b)
        #expect(memo.find(b.source, hash: 7, name: nil) == nil)
    }

    /// A plan compiled again after the memo let the old one go is a new object, maybe at
    /// the freed one's address: a cache that met the old one must not take the new one for
    /// it. Each document here names another field, so a mix-up writes the wrong key.
    @Test func aPlanCompiledAgainWorksInACacheThatUsedTheOldOne() throws {
        let cache = try Support.cache()
        for round in 0..<200 {
            let field = "f\(round % 7)_\(round)"
            let operation = try OperationCompiler.compile("{ \(field) }", name: nil)
            try cache.write(data: [field: CacheValue(round)], for: operation, variables: [:])
            #expect(cache.record("QUERY_ROOT")?[field] == CacheValue(round), "round \(round)")
            #expect(try cache.read(operation, variables: [:]).data?[field] == CacheValue(round), "round \(round)")
        }
        let document = "{ trips { id } }"
        let first = try OperationCompiler.compile(document, name: nil)
        let again = try OperationCompiler.compile(document, name: nil)
        #expect(first !== again)
        try cache.write(data: ["trips": .list([])], for: first, variables: [:])
        #expect(try cache.read(again, variables: [:]).data?["trips"] == .list([]))
    }
}
