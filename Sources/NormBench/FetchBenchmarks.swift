import Foundation
import NormCache
import NormClient

/// A fetch as an app makes it: a cache-first query that misses, sent by ``Client`` over
/// ``HTTPTransport`` to a server on the loopback, its answer written into the cache from
/// its bytes and returned as the result.
///
/// ```swift
/// let result = FetchBenchmarks.fetch.measure(5)
/// print(result.value, result.ratio)   // ms a fetch, and the raw transfer's share of it
/// ```
enum FetchBenchmarks {
    static let tripCount = 10_000
    static let userCount = 100
    static let query = "query TripList { trips { id name kind startsOn owner { id name } } }"

    /// The server's answer to ``query``: `tripCount` trips, each owned by one of `userCount`
    /// users, with the `__typename`s the client's network document asks for.
    static func responseBytes() -> [UInt8] {
        let kinds = ["CITY", "BEACH", "HIKE"]
        var trips: [CacheValue] = []
        trips.reserveCapacity(tripCount)
        for trip in 1...tripCount {
            let user = trip % userCount
            trips.append([
                "__typename": "Trip", "id": .string("\(trip)"), "name": .string("Trip \(trip)"),
                "kind": .string(kinds[trip % kinds.count]), "startsOn": .string("2026-\(trip % 12 + 1)-\(trip % 28 + 1)"),
                "owner": ["__typename": "User", "id": .string("\(user)"), "name": .string("User \(user)")],
            ])
        }
        return Array(JSON.string(["data": ["trips": .list(trips)]], references: .none).utf8)
    }

    static let fetch = Benchmark(
        name: "fetch.10k", unit: "ms",
        summary: "a cache-first miss of a 10,000-trip list through Client and HTTPTransport from a server on 127.0.0.1 "
            + "(send, receive, write into a new cache, the result's data), ms; baseline: the raw transfer of the same "
            + "request and answer over the same loopback; ratio = baseline / ours (goal ≥ 0.5)"
    ) { trial in
        let body = responseBytes()
        let server = LoopbackServer(body: body)
        let request = Array(JSON.string(GraphQLRequest(document: query, operationName: "TripList").body).utf8)
        let seconds = trial.medians(timing: {
            let client = Client(cache: NormalizedCache(), endpoint: HTTPTransport(url: server.url))
            let operation = try client.cache.operation(query)
            let (seconds, trips) = try awaiting {
                let start = ContinuousClock.now
                let result = try await client.fetch(operation)
                let elapsed = ContinuousClock.now - start
                guard case .list(let trips)? = result.data?["trips"], result.source == .network else { return (elapsed, 0) }
                return (elapsed, trips.count)
            }
            precondition(trips == tripCount, "fetch.10k: the result has \(trips) trips")
            return Double(seconds.components.seconds) + Double(seconds.components.attoseconds) * 1e-18
        }, baseline: {
            var received = 0
            let seconds = Stopwatch.seconds { received = server.rawTransfer(posting: request) }
            precondition(received == body.count, "fetch.10k: the raw transfer received \(received) of \(body.count) bytes")
            return seconds
        })
        return .time(seconds, scale: 1e3, ratio: .baselineOverOurs)
    }

    /// Runs `body` on a task and waits for it: the benchmarks' bodies are synchronous.
    private static func awaiting<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        nonisolated(unsafe) var outcome: Result<T, any Error>?
        let done = DispatchSemaphore(value: 0)
        Task {
            outcome = await Result { try await body() }
            done.signal()
        }
        done.wait()
        return try outcome!.get()
    }
}
