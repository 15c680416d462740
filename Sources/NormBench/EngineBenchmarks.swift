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
                "__typename": "Item", "id": .string("\(i)"), "f1": .string("name \(i)\(tag)"), "f2": CacheValue(i),
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

    /// A new cache holding `data` written for `query` with `variables`, and the query's operation.
    static func makeCache(holding data: CacheObject, for query: String, variables: CacheObject = [:],
                          _ trial: Trial) -> (NormalizedCache, CompiledOperation) {
        trial.must {
            let cache = NormalizedCache(), operation = try cache.operation(query)
            try cache.write(data: data, for: operation, variables: variables)
            return (cache, operation)
        }
    }

    /// Writes `response` for `listQuery` into a new cache (keeping no record history when
    /// `history` is false); 1 when records changed.
    static func writeIntoNewCache(_ response: CacheValue, history: Bool = true) throws -> Int {
        let cache = NormalizedCache()
        if !history { cache.historyLimit = 0 }
        return try cache.write(response: response, for: cache.operation(listQuery)).isEmpty ? 0 : 1
    }

    static let write = Benchmark(
        name: "write.10k", unit: "records/s",
        summary: "normalize a response of 10,000 keyed objects (8 scalars + a shared child each) into a fresh cache; "
            + "baseline: copy each object into a [String: object] dictionary under Type:id"
    ) { trial in
        let data = listData(), response: CacheValue = ["data": .object(data)]
        let seconds = trial.medians({ try writeIntoNewCache(response) }, baseline: {
            rawNormalize(data).count
        })
        return .rate(itemCount, seconds)
    }

    /// `listData()` as the body of a GraphQL response, `{"data":{"items":[…]}}`, in UTF-8.
    static func listResponseBytes() -> [UInt8] {
        Array(JSON.string(["data": .object(listData())], references: .none).utf8)
    }

    static let writeBytes = Benchmark(
        name: "write.10k.bytes", unit: "records/s",
        summary: "write.10k's response from its JSON bytes (as a transport hands it over) to normalized records in a "
            + "fresh cache; baseline: the same response written from its already decoded tree (write.10k's work)"
    ) { trial in
        let bytes = listResponseBytes()
        let response = trial.must { try bytes.withUnsafeBufferPointer { try JSON.parse(bytes: $0) } }
        let seconds = trial.medians({
            let cache = NormalizedCache()
            return try cache.write(responseJSON: bytes, for: cache.operation(listQuery)).isEmpty ? 0 : 1
        }, baseline: { try writeIntoNewCache(response) })
        return .rate(itemCount, seconds)
    }

    static let read = Benchmark(
        name: "read.10k", unit: "records/s",
        summary: "read the 10,000-object list back (plan walk, references followed, dependencies collected); "
            + "baseline: look up each record in a [String: object] dictionary and copy its fields out"
    ) { trial in
        let data = listData()
        let (cache, operation) = makeCache(holding: data, for: listQuery, trial)
        let records = rawNormalize(data)
        let keys = (0..<itemCount).map { "Item:\($0)" }
        let seconds = trial.medians({ try readItems(operation, from: cache) }, baseline: {
            var items: [CacheValue] = []
            items.reserveCapacity(keys.count)
            for key in keys {
                guard var item = records[key] else { continue }
                if case .reference(let owner)? = item["owner"], let child = records[owner] { item["owner"] = .object(child) }
                items.append(.object(item))
            }
            return items.count
        })
        return .rate(itemCount, seconds)
    }

    static let hit = Benchmark(
        name: "hit.small", unit: "µs/read",
        summary: "a complete read of a 5-record query (trip, owner, 3 stops); baseline: the same 5 dictionary "
            + "lookups and field copies; ratio = baseline time / ours"
    ) { trial in
        let variables: CacheObject = ["id": "7"]
        let (cache, operation) = makeCache(holding: ["trip": [
            "__typename": "Trip", "id": "7", "name": "Lisbon", "owner": ["__typename": "User", "id": "1", "name": "Ada"],
            "stops": [["__typename": "Stop", "id": "a", "city": "Porto"], ["__typename": "Stop", "id": "b", "city": "Faro"],
                      ["__typename": "Stop", "id": "c", "city": "Évora"]],
        ]], for: "query Trip($id: ID!) { trip(id: $id) { id name owner { id name } stops { id city } } }", variables: variables, trial)
        let records: [String: CacheObject] = ["Trip:7": ["name": "Lisbon", "id": "7"], "User:1": ["name": "Ada", "id": "1"],
                                              "Stop:a": ["city": "Porto", "id": "a"], "Stop:b": ["city": "Faro", "id": "b"],
                                              "Stop:c": ["city": "Évora", "id": "c"]]
        let reads = 10_000
        let seconds = trial.medians({
            var complete = 0
            for _ in 0..<reads { complete &+= try cache.read(operation, variables: variables).complete ? 1 : 0 }
            return complete
        }, baseline: {
            var copied = 0
            for _ in 0..<reads {
                var out = CacheObject()
                for key in ["Trip:7", "User:1", "Stop:a", "Stop:b", "Stop:c"] { out[key] = records[key].map(CacheValue.object) }
                copied &+= out.count
            }
            return copied
        })
        return .time(seconds, scale: 1e6, per: reads, ratio: .baselineOverOurs)
    }

    /// A cache of `watchers` items, each watched by a query of its own (keeping no record
    /// history when `history` is false), and a write that changes the middle one.
    static func fanout(_ watchers: Int, history: Bool = true, _ trial: Trial) -> (NormalizedCache, () throws -> Int) {
        let items = (0..<watchers).map { i -> CacheValue in ["__typename": "Item", "id": .string("\(i)"), "f1": .int(0)] }
        let cache = NormalizedCache()
        if !history { cache.historyLimit = 0 }
        trial.must {
            try cache.write(data: ["items": .list(items)], for: cache.operation("{ items { id f1 } }"))
            let item = try cache.operation("query Item($id: ID!) { item(id: $id) { id f1 } }")
            for i in 0..<watchers {
                try cache.write(record: "QUERY_ROOT", fields: ["item(id:\(i))": .reference("Item:\(i)")])
                _ = try cache.watch(item, variables: ["id": .string("\(i)")]) { _ in }
            }
        }
        var value: Int64 = 0
        let target = "Item:\(watchers / 2)"
        return (cache, {
            value += 1
            return try cache.write(record: target, fields: ["f1": .int(value)]).isEmpty ? 0 : 1
        })
    }

    /// µs per write of 2,000 writes into each of two ``fanout(_:history:_:)`` caches, `ours` against `baseline`.
    static func fanoutWrites(_ ours: (NormalizedCache, () throws -> Int), against baseline: (NormalizedCache, () throws -> Int),
                             _ trial: Trial) -> Measurement {
        let writes = 2_000
        func repeated(_ write: () throws -> Int) throws -> Int { try (0..<writes).reduce(0) { changed, _ in try changed + write() } }
        let seconds = trial.medians({ try repeated(ours.1) }, baseline: { try repeated(baseline.1) })
        withExtendedLifetime((ours.0, baseline.0)) {}
        return .time(seconds, scale: 1e6, per: writes, ratio: .oursOverBaseline)
    }

    static let watchFanout = Benchmark(
        name: "watch.fanout", unit: "µs/write",
        summary: "one write that changes the one watched record of 1 watcher among 100,000 (each watching its own "
            + "record); baseline: the same among 10 watchers; ratio = ours / baseline (goal ≤ 2)"
    ) { trial in
        fanoutWrites(fanout(100_000, trial), against: fanout(10, trial), trial)
    }

    static let freshnessRead = Benchmark(
        name: "freshness.read.10k", unit: "records/s",
        summary: "read.10k's read with a max age on every field it reads (each field's age judged, none stale); "
            + "baseline: the same read with no max age; ratio = ours / baseline (goal ≥ 0.9)"
    ) { trial in
        let data = listData()
        let (plain, operation) = makeCache(holding: data, for: listQuery, trial)
        let (judged, judgedOperation) = makeCache(holding: data, for: listQuery, trial)
        judged.maxAges.defaultMaxAge = 86_400
        for field in ["Query.items", "Item.id", "Item.f1", "Item.f2", "Item.f3", "Item.f4", "Item.f5", "Item.f6", "Item.f7", "Item.owner", "User.id", "User.name"] {
            judged.maxAges[field] = .seconds(86_400)
        }
        return .rate(itemCount, trial.medians({ try readItems(judgedOperation, from: judged) }, baseline: { try readItems(operation, from: plain) }))
    }

    /// How many items a read of `listQuery` found, which must be all of them, none stale.
    private static func readItems(_ operation: CompiledOperation, from cache: NormalizedCache) throws -> Int {
        let result = try cache.read(operation)
        precondition(result.complete && result.stale.isEmpty)
        guard case .list(let items)? = result.data?["items"] else { return 0 }
        return items.count
    }

    static let historyWrite = Benchmark(
        name: "history.write.10k", unit: "ms/write",
        summary: "write.10k's work (10,000 keyed objects into a fresh cache) keeping the record history at its default "
            + "limit; baseline: the same with the history off (limit 0); ratio = ours / baseline (goal ≤ 1.10)"
    ) { trial in
        let response: CacheValue = ["data": .object(listData())]
        let seconds = trial.medians({ try writeIntoNewCache(response) }, baseline: { try writeIntoNewCache(response, history: false) })
        return .time(seconds, scale: 1e3, ratio: .oursOverBaseline)
    }

    static let historyFanout = Benchmark(
        name: "history.watch.fanout", unit: "µs/write",
        summary: "watch.fanout's write (1 watcher among 100,000 hears it) keeping the record history at its default "
            + "limit; baseline: the same with the history off (limit 0); ratio = ours / baseline (goal ≤ 1.10)"
    ) { trial in
        fanoutWrites(fanout(100_000, trial), against: fanout(100_000, history: false, trial), trial)
    }
}
