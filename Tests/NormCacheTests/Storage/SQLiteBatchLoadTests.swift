import Foundation
import Testing
@testable import NormCache

/// A read that reaches many records loads them in one batch: looked up by key, or, for a
/// batch of a large part of the file, found by one scan of the table. Either way the read
/// sees the same records, and a broken row fails the read naming its record.
@Suite struct SQLiteBatchLoadTests {
    let directory = TemporaryDirectory()
    var path: String { directory.path("cache.sqlite") }

    /// A file of `listed` trips under `QUERY_ROOT.trips` and `others` records no list names;
    /// the trip keyed `broken` (if any) holds text that is not JSON.
    func tripsFile(listed: Int, others: Int, broken: String? = nil) throws {
        let trips = (0..<listed).map { i in
            ("Trip:\(i)", "Trip:\(i)" == broken ? "'{\"id\":'" : RawDatabase.quote(#"{"__typename":"Trip","id":"\#(i)","name":"Trip \#(i)"}"#))
        }
        let root = #"{"trips":["# + (0..<listed).map { #"{"$reference":"Trip:\#($0)"}"# }.joined(separator: ",") + "]}"
        let rest = (0..<others).map { i in ("Place:\(i)", RawDatabase.quote(#"{"__typename":"Place","id":"\#(i)"}"#)) }
        try RawDatabase.apolloFile(path, rows: [("QUERY_ROOT", RawDatabase.quote(root))] + trips.reversed() + rest)
    }

    /// `{ trips { id name } }` over a fresh read-only store of the file.
    func readTrips() throws -> (result: ReadResult, cache: NormalizedCache) {
        let cache = try NormalizedCache(store: try SQLiteStore(path: path, mode: .readOnly))
        return (try cache.read(try cache.operation("{ trips { id name } }")), cache)
    }

    @Test(arguments: [(100, 0), (100, 2000)])   // a scan of the table; lookups by key
    func aListReadsItsRecordsInItsOrder(listed: Int, others: Int) throws {
        try tripsFile(listed: listed, others: others)
        let (result, cache) = try readTrips()
        guard case .list(let trips)?? = result.data?["trips"] else { Issue.record("no trips: \(result)"); return }
        #expect(trips.count == listed)
        for (i, trip) in trips.enumerated() {
            #expect(trip == .object(["__typename": "Trip", "id": .string("\(i)"), "name": .string("Trip \(i)")]))
        }
        #expect(cache.keys().count == 1 + listed + others)
    }

    /// Rows read straight into the engine's records: each row's fields are compared with
    /// those of the row before, so rows whose fields come in another order, fewer, more, or
    /// with a key written with an escape must each read as written.
    @Test(arguments: [(100, 0), (100, 2000)])
    func rowsOfDifferentShapesReadAsWritten(listed: Int, others: Int) throws {
        let shapes = [
            { (i: Int) in #"{"__typename":"Trip","id":"\#(i)","name":"Trip \#(i)"}"# },
            { (i: Int) in #"{"name":"Trip \#(i)","__typename":"Trip","id":"\#(i)"}"# },
            { (i: Int) in #"{"__typename":"Trip","id":"\#(i)"}"# },
            { (i: Int) in #"{"__typename":"Trip","id":"\#(i)","n\u0061me":"Trip \#(i)","seats":\#(i)}"# },
        ]
        let trips = (0..<listed).map { i in ("Trip:\(i)", RawDatabase.quote(shapes[i % shapes.count](i))) }
        let root = #"{"trips":["# + (0..<listed).map { #"{"$reference":"Trip:\#($0)"}"# }.joined(separator: ",") + "]}"
        let rest = (0..<others).map { i in ("Place:\(i)", RawDatabase.quote(#"{"__typename":"Place","id":"\#(i)"}"#)) }
        try RawDatabase.apolloFile(path, rows: [("QUERY_ROOT", RawDatabase.quote(root))] + trips + rest)
        let cache = try NormalizedCache(store: try SQLiteStore(path: path, mode: .readOnly))
        let result = try cache.read(try cache.operation("{ trips { id name } }"), partial: true)
        guard case .list(let read)?? = result.data?["trips"] else { Issue.record("no trips: \(result)"); return }
        #expect(read.count == listed)
        for (i, trip) in read.enumerated() {
            #expect(trip["id"] == .string("\(i)"))
            #expect(trip["name"] == (i % shapes.count == 2 ? nil : .string("Trip \(i)")), "Trip:\(i)")
        }
        #expect(cache.record("Trip:3")?["seats"] == 3)
        #expect(cache.record("Trip:1")?.keys == ["name", "__typename", "id"])
    }

    @Test(arguments: [(100, 0), (100, 2000)])
    func aBrokenRowInABatchFailsTheReadNamingItAndTheSessionGoesOn(listed: Int, others: Int) throws {
        try tripsFile(listed: listed, others: others, broken: "Trip:42")
        let cache = try NormalizedCache(store: try SQLiteStore(path: path, mode: .readOnly))
        let error = #expect(throws: CacheError.self) { try cache.read(try cache.operation("{ trips { id name } }")) }
        #expect(SQLiteSupport.storageMessage(error)?.contains("record Trip:42 cannot be read") == true, "\(String(describing: error))")
        #expect(cache.record("Trip:41")?["name"] == "Trip 41")
        #expect(cache.record("Trip:43")?["name"] == "Trip 43")
    }
}
