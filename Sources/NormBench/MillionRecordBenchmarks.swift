import CSQLite
import Foundation
import NormCache

/// Benchmarks of a cache file of a million records (issue 26, "Big caches"): opening it
/// for one record, then reading every record. The file is made once per benchmark with
/// raw SQLite inserts and deleted after it.
enum MillionRecordBenchmarks {
    static let count = 1_000_000
    static let probe = "Trip:500000"

    /// A fresh Apollo iOS file of `count` trips of 11 fields each, all under `QUERY_ROOT.trips`.
    static func makeFile(_ trial: Trial) -> String {
        let path = SQLiteBenchmarks.scratchFile("big", trial)
        let trips = (0..<count).lazy.map { i in
            ("Trip:\(i)", #"{"__typename":"Trip","id":"\#(i)","name":"Trip \#(i)","f1":"destination \#(i)","f2":\#(i),"#
                + #""f3":\#(Double(i) * 0.5),"f4":\#(i % 2 == 0),"f5":"constant\/with a slash","f6":null,"f7":42,"f8":"x"}"#)
        }
        let root = #"{"trips":["# + (0..<count).map { #"{"$reference":"Trip:\#($0)"}"# }.joined(separator: ",") + "]}"
        _ = RawSQLite.insert(trips + [("QUERY_ROOT", root)], into: path)
        ResidentMemory.returnFreed()   // what the making took goes back, so that resident figures measure the cache
        return path
    }

    static let open = Benchmark(
        name: "open.1m", unit: "ms",
        summary: "open a 1,000,000-record Apollo iOS file read-only and inspect one record (records load by key as "
            + "reads need them); resident = the process's RSS after it; baseline: raw SQLite opening the file and "
            + "selecting that record's row by key; ratio = ours / baseline"
    ) { trial in
        let path = makeFile(trial)
        defer { trial.must { try SQLiteStore.removeFiles(at: path) } }
        var resident = 0.0
        let seconds = trial.medians({
            let store = try SQLiteStore(path: path, mode: .readOnly)
            defer { store.close() }
            let cache = try NormalizedCache(store: store)
            let record = try cache.inspect(probe)
            precondition(record?["id"] == "500000", "open.1m: \(probe) read as \(String(describing: record))")
            resident = max(resident, ResidentMemory.megabytes())
            return record?.count ?? 0
        }, baseline: {
            RawSQLite.readOne(path, key: probe)
        })
        return .time(seconds, scale: 1e3, ratio: .oursOverBaseline).resident(resident)
    }

    static let read = Benchmark(
        name: "read.1m", unit: "records/s",
        summary: "then every record of that file: .keys, and the 1,000,000 trips through { trips { 11 fields } }, "
            + "loaded as the read reaches them; resident = RSS after it; baseline: raw SQLite reading every row's text"
    ) { trial in
        let path = makeFile(trial)
        defer { trial.must { try SQLiteStore.removeFiles(at: path) } }
        let document = "{ trips { __typename id name f1 f2 f3 f4 f5 f6 f7 f8 } }"
        var resident = 0.0
        let seconds = trial.medians(timing: {
            let store = try SQLiteStore(path: path, mode: .readOnly)
            defer { store.close() }
            let cache = try NormalizedCache(store: store)
            let start = ContinuousClock.now
            let keys = cache.keys()
            let result = try cache.read(try cache.operation(document))
            let elapsed = ContinuousClock.now - start
            guard case .list(let trips)?? = result.data?["trips"], keys.count == count + 1, trips.count == count else {
                fatalError("read.1m: \(keys.count) keys, missing \(result.missing.prefix(3))")
            }
            resident = max(resident, ResidentMemory.megabytes())
            return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        }, baseline: {
            Stopwatch.seconds { precondition(RawSQLite.readAll(path) > 0) }
        })
        return .rate(count, seconds).resident(resident)
    }
}
