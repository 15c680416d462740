import NormAPI
import NormCache

/// The typed read: what an app pays to see a cache read as its generated types.
enum GeneratedTypeBenchmarks {
    static let read = Benchmark(
        name: "typed.read.10k", unit: "records/s",
        summary: "read.10k's list read and decoded into the generated ItemListQuery.Data (Sources/NormBench/Generated); "
            + "baseline: the same read of the same document, left untyped"
    ) { trial in
        let (cache, operation) = trial.must {
            let cache = NormalizedCache(), operation = try cache.operation(ItemListQuery.operationDocument, name: ItemListQuery.operationName)
            try cache.write(data: EngineBenchmarks.listData(), for: operation)
            return (cache, operation)
        }
        let seconds = trial.medians({
            let data = try cache.read(operation).data ?? .null
            return try ItemListQuery.Data(response: data).items.count
        }, baseline: {
            guard case .list(let items)? = try cache.read(operation).data?["items"] else { return 0 }
            return items.count
        })
        return .rate(EngineBenchmarks.itemCount, seconds)
    }
}
