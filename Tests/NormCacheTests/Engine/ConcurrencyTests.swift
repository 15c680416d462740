import Foundation
import Testing
@testable import NormCache

/// Several tasks writing, reading, watching, evicting and snapshotting one cache at once:
/// no crash, every read sees whole commits, and the end state is what the last writes say.
@Suite struct ConcurrencyTests {
    static let writers = 4
    static let tripsPerWriter = 25
    static let rounds = 150

    /// Trip `w-i` belongs to writer `w`; its `name` and `round` always change together.
    static func tripData(writer: Int, round: Int) -> CacheObject {
        var trips: [CacheValue] = []
        for index in 0..<tripsPerWriter {
            trips.append(["__typename": "Trip", "id": .string("\(writer)-\(index)"), "name": .string("r\(round)"), "round": CacheValue(round)])
        }
        return ["trips": .list(trips)]
    }

    @Test func writersReadersAndWatchersTogether() async throws {
        let store = InMemoryStore()
        let cache = try NormalizedCache(store: store)
        let list = try cache.operation("query ($w: Int!) { trips(writer: $w) { id name round } }")
        let one = try cache.operation("query ($id: ID!) { trip(id: $id) { id name round } }")
        for writer in 0..<Self.writers {
            try cache.write(data: Self.tripData(writer: writer, round: 0), for: list, variables: ["w": CacheValue(writer)])
        }

        // A watcher per writer's list: emissions arrive in order, each a whole commit.
        let recorders = (0..<Self.writers).map { _ in Recorder() }
        var watches: [Watch] = []
        for writer in 0..<Self.writers {
            watches.append(try cache.watch(list, variables: ["w": CacheValue(writer)], onEmission: recorders[writer].callback))
        }

        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<Self.writers {
                group.addTask {
                    for round in 1...Self.rounds {
                        if round % 3 == 0 {
                            try cache.transaction { cache in
                                try cache.write(data: Self.tripData(writer: writer, round: round), for: list, variables: ["w": CacheValue(writer)])
                                try cache.write(record: "Scratch:\(writer)", fields: ["round": CacheValue(round)])
                            }
                        } else {
                            try cache.write(data: Self.tripData(writer: writer, round: round), for: list, variables: ["w": CacheValue(writer)])
                        }
                        if round % 10 == 0 { await Task.yield() }
                    }
                }
            }
            // Readers: every read is of one commit, so a list's trips are all of one round.
            for reader in 0..<2 {
                group.addTask {
                    for step in 0..<(Self.rounds * 2) {
                        let writer = (step + reader) % Self.writers
                        let result = try cache.read(list, variables: ["w": CacheValue(writer)])
                        guard case .list(let trips)? = result.data?["trips"] else {
                            throw Support.Failure("incomplete read \(result.missing)")
                        }
                        var rounds = Set<Int64>()
                        for trip in trips {
                            guard case .int(let round)? = trip["round"], trip["name"] == .string("r\(round)") else {
                                throw Support.Failure("name and round disagree in \(trip)")
                            }
                            rounds.insert(round)
                        }
                        if rounds.count != 1 { throw Support.Failure("a read saw rounds \(rounds)") }
                        _ = try cache.read(one, variables: ["id": .string("\(writer)-\(step % Self.tripsPerWriter)")])
                        if step % 10 == 0 { await Task.yield() }
                    }
                }
            }
            // Watchers come and go; evictions, gc, snapshots and optimistic layers in between.
            group.addTask {
                for step in 0..<Self.rounds {
                    let recorder = Recorder()
                    let watch = try cache.watch(one, variables: ["id": .string("0-\(step % Self.tripsPerWriter)")], onEmission: recorder.callback)
                    _ = cache.watchers
                    _ = cache.statistics
                    _ = cache.extract()
                    try cache.write(record: "Loose:\(step)", fields: ["n": CacheValue(step)])
                    if step % 5 == 0 { try cache.gc() }
                    if step % 7 == 0 {
                        try cache.writeOptimistic("o\(step)", data: Self.tripData(writer: 0, round: -1), for: list, variables: ["w": 0])
                        try cache.rollBackOptimistic("o\(step)")
                    }
                    if step % 11 == 0 { try? cache.invalidate("Scratch:1", field: "round") }
                    if step % 13 == 0 { _ = try? cache.evict("Scratch:2") }
                    watch.cancel()
                    await Task.yield()
                }
            }
            // A snapshot round trip into another cache, concurrently with everything else.
            group.addTask {
                let other = try Support.cache()
                for _ in 0..<20 {
                    try other.restore(cache.extract())
                    await Task.yield()
                }
            }
            try await group.waitForAll()
        }

        for watch in watches { watch.cancel() }
        #expect(cache.watchers.isEmpty)

        // The end state: every writer's last round, complete.
        for writer in 0..<Self.writers {
            let result = try cache.read(list, variables: ["w": CacheValue(writer)])
            #expect(result.complete)
            #expect(result.data == .object(Self.expectedRead(writer: writer, round: Self.rounds)))
            // Each watcher's emissions came in order, and the last one is the final state.
            let emissions = recorders[writer].emissions
            #expect(emissions.map(\.number) == Array(1...emissions.count))
            #expect(emissions.first?.cause == .initial)
            #expect(emissions.last?.result == result)
            #expect(emissions.allSatisfy { $0.result.complete })
        }
        // The store holds what the cache holds.
        let reopened = try NormalizedCache(store: store)
        #expect(reopened.keys() == cache.keys())
        for key in cache.keys() where Support.fields(reopened.record(key)) != Support.fields(cache.record(key)) {
            Issue.record("the store's \(key) differs")
        }
    }

    /// Restoring snapshots while other tasks write with arguments: every field key ends up
    /// beside its own value (keys are built with one shared key builder).
    @Test func restoreWhileWriting() async throws {
        let cache = try Support.cache()
        let op = try cache.operation("query ($id: ID!) { trip(id: $id) { id } }")
        var root = CacheObject()
        var records = CacheObject()
        for index in 0..<200 {
            root[#"trip({"id":"\#(index)"})"#] = ["__ref": .string("Trip:\(index)")]
            records["Trip:\(index)"] = ["__typename": "Trip", "id": .string("\(index)")]
        }
        records["ROOT_QUERY"] = .object(root)
        let snapshot = CacheValue.object(records)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for _ in 0..<40 {
                    try cache.restore(snapshot)
                    await Task.yield()
                }
            }
            for writer in 0..<2 {
                group.addTask {
                    for index in 0..<2_000 {
                        let id = "w\(writer)-\(index % 100)-\(String(repeating: "x", count: index % 25))"
                        try cache.write(data: ["trip": ["__typename": "Trip", "id": .string(id)]], for: op, variables: ["id": .string(id)])
                    }
                }
            }
            try await group.waitForAll()
        }
        let fields = try #require(cache.record("QUERY_ROOT"))
        var mismatches: [String] = []
        for (key, value) in fields.members {
            let id = key.dropFirst("trip(id:".count).dropLast()
            if value != .reference("Trip:\(id)") { mismatches.append("\(key) → \(value)") }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    static func expectedRead(writer: Int, round: Int) -> CacheObject {
        var trips: [CacheValue] = []
        for index in 0..<tripsPerWriter {
            trips.append(["__typename": "Trip", "id": .string("\(writer)-\(index)"), "name": .string("r\(round)"), "round": CacheValue(round)])
        }
        return ["trips": .list(trips)]
    }

    /// Many threads on one watcher: callbacks never overlap and arrive in commit order.
    @Test func callbacksNeverOverlap() async throws {
        let cache = try Support.cache()
        let op = try cache.operation("{ counter { id value } }")
        try cache.write(data: ["counter": ["__typename": "Counter", "id": "1", "value": 0]], for: op)
        final class Overlap: @unchecked Sendable {
            let lock = NSLock()
            var inside = 0, overlaps = 0, numbers: [Int] = []
        }
        let overlap = Overlap()
        let watch = try cache.watch(op) { emission in
            overlap.lock.lock()
            overlap.inside += 1
            if overlap.inside > 1 { overlap.overlaps += 1 }
            overlap.numbers.append(emission.number)
            overlap.lock.unlock()
            usleep(50)
            overlap.lock.lock()
            overlap.inside -= 1
            overlap.lock.unlock()
        }
        defer { watch.cancel() }
        let counter = Counter()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<100 {
                        _ = try? cache.write(record: "Counter:1", fields: ["value": .int(counter.next())])
                    }
                }
            }
        }
        #expect(overlap.overlaps == 0)
        #expect(overlap.numbers == Array(1...overlap.numbers.count))
        #expect(overlap.numbers.count == 401)
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value: Int64 = 0
        func next() -> Int64 {
            lock.lock()
            defer { lock.unlock() }
            value += 1
            return value
        }
    }
}
