import Testing
@testable import NormCache

/// `readPartialData` (issue 37): what the cache holds of an operation it cannot answer
/// whole, a null in each hole and a GraphQL-style error at its path, as Apollo Kotlin's
/// partial cache reads answer.
@Suite struct PartialReadTests {
    let cache: NormalizedCache
    let tripList: CompiledOperation

    init() throws {
        cache = try Support.cache()
        tripList = try cache.operation("query TripList { trips { id name owner { name } } }")
        try cache.write(data: try Support.object(#"""
            {"trips":[{"__typename":"Trip","id":"1","name":"Lisbon","owner":{"__typename":"User","id":"7","name":"Ada"}},
                      {"__typename":"Trip","id":"2","name":"Porto","owner":{"__typename":"User","id":"7","name":"Ada"}}]}
            """#), for: tripList)
    }

    @Test func eachHoleIsANullWithAnErrorAtItsPath() throws {
        try cache.evict("Trip:2", field: "name")
        try cache.evict("User:7", field: "name")
        let result = try cache.readPartialData(tripList)
        #expect(Support.canonical(result.data) == Support.canonical(try Support.object(#"""
            {"trips":[{"__typename":"Trip","id":"1","name":"Lisbon","owner":{"__typename":"User","name":null}},
                      {"__typename":"Trip","id":"2","name":null,"owner":{"__typename":"User","name":null}}]}
            """#).cacheValue))
        #expect(result.missing == ["User:7.name", "Trip:2.name"])
        let errors = result.errors.map { Support.canonical($0) }
        #expect(errors == [
            #"{"extensions":{"missing":"User:7.name"},"message":"Object 'User:7' has no field named 'name'","path":["trips",0,"owner","name"]}"#,
            #"{"extensions":{"missing":"Trip:2.name"},"message":"Object 'Trip:2' has no field named 'name'","path":["trips",1,"name"]}"#,
            #"{"extensions":{"missing":"User:7.name"},"message":"Object 'User:7' has no field named 'name'","path":["trips",1,"owner","name"]}"#,
        ])
        // The plain reads are as they were: no data, or the holes left out.
        #expect(try cache.read(tripList).data == nil)
        #expect(try cache.read(tripList, partial: true).errors.isEmpty)
    }

    @Test func aWholeReadIsTheSameAsAReadAndAMissingRootFieldIsOneNull() throws {
        #expect(try cache.readPartialData(tripList) == (try cache.read(tripList)))
        let detail = try cache.operation("query D { trip(id: \"3\") { id } }")
        let result = try cache.readPartialData(detail)
        #expect(result.data == ["trip": .null])
        #expect(result.errors.count == 1 && result.missing == ["QUERY_ROOT.trip(id:3)"])
    }
}

private extension CacheObject {
    var cacheValue: CacheValue { .object(self) }
}
