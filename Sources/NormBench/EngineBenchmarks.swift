import NormCache

/// Benchmarks of the engine: writing and reading a large list, a small cache hit, and
/// the cost of notifying one watcher among many.
enum EngineBenchmarks {
    /// `{ items { id f1 … f7 owner { id name } } }`: 8 scalar fields and a reference to one shared child.
    static let listQuery = "{ items { id f1 f2 f3 f4 f5 f6 f7 owner { id name } } }"
    static let itemCount = 10_000

    /// The response: `itemCount` keyed `Item`s, all owned by `User:1`.
    static func listData(count: Int = itemCount, tag: String = "") -> CacheObject {
        let owner: CacheValue = ["__typename": "User", "id": "1", "name": "Ada"]
        var items: [CacheValue] = []
        items.reserveCapacity(count)
        for i in 0..<count {
            items.append([
                "__typename": "Item", "id": .string("\(i)"), "f1": .string("name \(i)\(tag)"), "f2": .int(Int64(i)),
                "f3": .double(Double(i) * 0.5), "f4": .bool(i % 2 == 0), "f5": "constant", "f6": .null, "f7": .int(42),
                "owner": owner,
            ])
        }
        return ["items": .list(items)]
    }

    /// The raw work any normalizer does: each object copied into a dictionary under `Type:id`.
    static func rawNormalize(_ data: CacheObject) -> [String: CacheObject] {
        var records: [String: CacheObject] = [:]
        guard case .list(let items)? = data["items"] else { return records }
        for case .object(var item) in items {
            if case .object(let owner)? = item["owner"] {
                records["User:1"] = owner
                item["owner"] = .reference("User:1")
            }
            if case .string(let id)? = item["id"] { records["Item:" + id] = item }
        }
        return records
    }

    static func makeCache() -> NormalizedCache {
        do { return try NormalizedCache() } catch { fatalError("bench: \(error)") }
    }

    static func operation(_ cache: NormalizedCache, _ text: String) -> Operation {
        do { return try cache.operation(text) } catch { fatalError("bench: \(error)") }
    }

    static let write = Benchmark(
        name: "write.10k", unit: "records/s",
        summary: "normalize a response of 10,000 keyed objects (8 scalars + a shared child each) into a fresh cache; "
            + "baseline: copy each object into a [String: object] dictionary under Type:id"
    ) { runs in
        let data = listData()
        var sink = 0
        let (ours, raw) = Stopwatch.medians(runs: runs, {
            let cache = makeCache()
            do { sink &+= try cache.write(data: data, for: operation(cache, listQuery)).isEmpty ? 0 : 1 } catch { fatalError("write.10k: \(error)") }
        }, baseline: {
            sink &+= rawNormalize(data).count
        })
        precondition(sink > 0)
        return .rate(itemCount, (ours, raw))
    }

    static let read = Benchmark(
        name: "read.10k", unit: "records/s",
        summary: "read the 10,000-object list back (plan walk, references followed, dependencies collected); "
            + "baseline: look up each record in a [String: object] dictionary and copy its fields out"
    ) { runs in
        let data = listData()
        let cache = makeCache()
        let op = operation(cache, listQuery)
        do { try cache.write(data: data, for: op) } catch { fatalError("read.10k: \(error)") }
        let records = rawNormalize(data)
        let keys = (0..<itemCount).map { "Item:\($0)" }
        var sink = 0
        let (ours, raw) = Stopwatch.medians(runs: runs, {
            do {
                let result = try cache.read(op)
                precondition(result.complete)
                if case .list(let items)? = result.data?["items"] { sink &+= items.count }
            } catch { fatalError("read.10k: \(error)") }
        }, baseline: {
            var items: [CacheValue] = []
            items.reserveCapacity(keys.count)
            for key in keys {
                guard var item = records[key] else { continue }
                if case .reference(let owner)? = item["owner"], let child = records[owner] { item["owner"] = .object(child) }
                items.append(.object(item))
            }
            sink &+= items.count
        })
        precondition(sink > 0)
        return .rate(itemCount, (ours, raw))
    }

    static let hit = Benchmark(
        name: "hit.small", unit: "µs/read",
        summary: "a complete read of a 5-record query (trip, owner, 3 stops); baseline: the same 5 dictionary "
            + "lookups and field copies; ratio = baseline time / ours"
    ) { runs in
        let cache = makeCache()
        let op = operation(cache, "query Trip($id: ID!) { trip(id: $id) { id name owner { id name } stops { id city } } }")
        let data: CacheValue = ["trip": [
            "__typename": "Trip", "id": "7", "name": "Lisbon", "owner": ["__typename": "User", "id": "1", "name": "Ada"],
            "stops": [["__typename": "Stop", "id": "a", "city": "Porto"], ["__typename": "Stop", "id": "b", "city": "Faro"],
                      ["__typename": "Stop", "id": "c", "city": "Évora"]],
        ]]
        let variables: CacheObject = ["id": "7"]
        guard case .object(let object) = data else { fatalError() }
        do { try cache.write(data: object, for: op, variables: variables) } catch { fatalError("hit.small: \(error)") }
        let records: [String: CacheObject] = ["Trip:7": ["name": "Lisbon", "id": "7"], "User:1": ["name": "Ada", "id": "1"],
                                              "Stop:a": ["city": "Porto", "id": "a"], "Stop:b": ["city": "Faro", "id": "b"],
                                              "Stop:c": ["city": "Évora", "id": "c"]]
        let reads = 10_000
        var sink = 0
        let (ours, raw) = Stopwatch.medians(runs: runs, {
            for _ in 0..<reads {
                do { sink &+= try cache.read(op, variables: variables).complete ? 1 : 0 } catch { fatalError("hit.small: \(error)") }
            }
        }, baseline: {
            for _ in 0..<reads {
                var out = CacheObject()
                for key in ["Trip:7", "User:1", "Stop:a", "Stop:b", "Stop:c"] { out[key] = records[key].map(CacheValue.object) }
                sink &+= out.count
            }
        })
        precondition(sink > 0)
        let perRead = ours / Double(reads) * 1e6, rawPerRead = raw / Double(reads) * 1e6
        return Measurement(value: perRead, baseline: rawPerRead, ratio: rawPerRead / perRead)
    }

    static let watchFanout = Benchmark(
        name: "watch.fanout", unit: "µs/write",
        summary: "one write that changes the one watched record of 1 watcher among 100,000 (each watching its own "
            + "record); baseline: the same among 10 watchers; ratio = ours / baseline (goal ≤ 2)"
    ) { runs in
        func setUp(_ watchers: Int) -> (NormalizedCache, () -> Void) {
            let cache = makeCache()
            let op = operation(cache, "query Item($id: ID!) { item(id: $id) { id f1 } }")
            var items: [CacheValue] = []
            for i in 0..<watchers { items.append(["__typename": "Item", "id": .string("\(i)"), "f1": .int(0)]) }
            let list = operation(cache, "{ items { id f1 } }")
            do {
                try cache.write(data: ["items": .list(items)], for: list)
                for i in 0..<watchers {
                    try cache.write(record: "QUERY_ROOT", fields: ["item(id:\(i))": .reference("Item:\(i)")])
                    _ = try cache.watch(op, variables: ["id": .string("\(i)")]) { _ in }
                }
            } catch { fatalError("watch.fanout: \(error)") }
            var value: Int64 = 0
            let target = "Item:\(watchers / 2)"
            return (cache, {
                value += 1
                do { try cache.write(record: target, fields: ["f1": .int(value)]) } catch { fatalError("watch.fanout: \(error)") }
            })
        }
        let (many, writeMany) = setUp(100_000)
        let (few, writeFew) = setUp(10)
        let writes = 2_000
        let (ours, raw) = Stopwatch.medians(runs: runs, { for _ in 0..<writes { writeMany() } },
                                            baseline: { for _ in 0..<writes { writeFew() } })
        withExtendedLifetime((many, few)) {}
        let perWrite = ours / Double(writes) * 1e6, rawPerWrite = raw / Double(writes) * 1e6
        return Measurement(value: perWrite, baseline: rawPerWrite, ratio: perWrite / rawPerWrite)
    }
}
