import CSQLite
import Foundation
import NormCache
import Workbench

/// Following a cache file another process writes (`normcache inspect --follow`): how long
/// after a writer's commit the session has reported it.
///
/// ```swift
/// let result = FollowBenchmarks.lag.measure(5)
/// print(result.value)   // ms at the 95th percentile, goal ≤ 250
/// ```
enum FollowBenchmarks {
    static let changedRecords = 1_000

    static let lag = Benchmark(
        name: "follow.lag", unit: "ms",
        summary: "95th percentile, goal ≤ 250 ms: a writer commits 1,000 changed records (Apollo iOS's upserts, one "
            + "transaction) to a file a session follows with a watcher over all of them; the time from its COMMIT to the "
            + "watcher's emission printed (the follow event printed before it). The writer is a SQLite connection of its own "
            + "on another thread, which SQLite cannot tell from another process's; baseline: a raw SQLite poller, "
            + "PRAGMA data_version every \(Int(Following.interval * 1000)) ms as the session polls, then every row's text read; "
            + "ratio = ours / baseline"
    ) { trial in
        let path = SQLiteBenchmarks.scratchFile("follow", trial)
        defer { trial.must { try SQLiteStore.removeFiles(at: path) } }
        let references = CacheValue.list((0..<changedRecords).map { .reference("Item:\($0)") })
        _ = RawSQLite.insert([("QUERY_ROOT", JSON.string(.object(["items": references]), references: .apollo))] + rows(round: 0), into: path)
        let rounds = max(20, trial.runs * 8)

        // Ours: a session following the file, its watcher's external emissions counted.
        let emitted = Arrivals()
        let session = trial.must {
            try Session(options: SessionOptions(inspectFile: path, follows: true, loadsBundledPlugins: false, mode: .json),
                        output: { line in if line.hasPrefix(#"{"event":"watch""#), line.contains(#""cause":"external""#) { emitted.arrive() } },
                        errors: { _ in })
        }
        session.execute(".watch { items { id name } }")
        precondition(session.failures == 0, "follow.lag: the watcher did not start")
        let ours = lags(rounds: rounds, path: path, first: 1, arrivals: emitted)
        withExtendedLifetime(session) {}

        // The baseline: a raw poller on a connection of its own.
        let polled = Arrivals()
        let poller = RawFollower(path: path, arrivals: polled)
        let raw = lags(rounds: rounds, path: path, first: rounds + 1, arrivals: polled)
        poller.stop()

        let value = Stopwatch.percentile(ours, 0.95) * 1e3, baseline = Stopwatch.percentile(raw, 0.95) * 1e3
        return Measurement(value: value, baseline: baseline, ratio: value / baseline)
    }

    /// The changed rows of `round`: every item renamed.
    static func rows(round: Int) -> [(String, String)] {
        (0..<changedRecords).map { i in ("Item:\(i)", #"{"__typename":"Item","id":"\#(i)","name":"item \#(i), round \#(round)"}"#) }
    }

    /// The seconds from each of `rounds` commits (rounds `first`, `first + 1`, …) to its arrival.
    static func lags(rounds: Int, path: String, first: Int, arrivals: Arrivals) -> [Double] {
        (first..<first + rounds).map { round in
            let rows = rows(round: round)
            let before = arrivals.count
            _ = RawSQLite.insert(rows, into: path)
            let committed = DispatchTime.now().uptimeNanoseconds
            guard let arrived = arrivals.wait(beyond: before, timeout: 10) else { fatalError("follow.lag: round \(round) was not reported within 10 s") }
            return Double(arrived - committed) / 1e9
        }
    }
}

/// Arrivals from other threads: how many, and when the last came.
final class Arrivals: @unchecked Sendable {
    private let condition = NSCondition()
    private var arrived = 0
    private var last: UInt64 = 0

    var count: Int { condition.withLock { arrived } }

    func arrive() {
        condition.withLock {
            arrived += 1
            last = DispatchTime.now().uptimeNanoseconds
            condition.broadcast()
        }
    }

    /// The time of the first arrival after `count` had arrived (nil: none within `timeout` seconds).
    func wait(beyond count: Int, timeout: TimeInterval) -> UInt64? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        return condition.withLock {
            while arrived <= count { guard condition.wait(until: deadline) else { return nil } }
            return last
        }
    }
}

/// The raw baseline of `follow.lag`: SQLite's C API on a connection of its own, asking
/// `PRAGMA data_version` every ``Following/interval`` and, when it changed, reading every
/// row's text, on a thread of its own until ``stop()``.
final class RawFollower: @unchecked Sendable {
    private let stopped = NSCondition()
    private var stopping = false, ended = false

    init(path: String, arrivals: Arrivals) {
        Thread.detachNewThread { [self] in
            let db = RawSQLite.open(path)
            defer { sqlite3_close_v2(db) }
            var version: OpaquePointer?, rows: OpaquePointer?
            sqlite3_prepare_v2(db, "PRAGMA data_version", -1, &version, nil)
            sqlite3_prepare_v2(db, #"SELECT key, record FROM "records""#, -1, &rows, nil)
            defer { sqlite3_finalize(version); sqlite3_finalize(rows) }
            func dataVersion() -> Int64 {
                defer { sqlite3_reset(version) }
                return sqlite3_step(version) == SQLITE_ROW ? sqlite3_column_int64(version, 0) : -1
            }
            var seen = dataVersion()
            stopped.lock()
            while !stopping {
                _ = stopped.wait(until: Date(timeIntervalSinceNow: Following.interval))
                let now = dataVersion()
                guard now != seen else { continue }
                seen = now
                var bytes = 0
                while sqlite3_step(rows) == SQLITE_ROW {
                    _ = sqlite3_column_text(rows, 1)
                    bytes &+= Int(sqlite3_column_bytes(rows, 1))
                }
                sqlite3_reset(rows)
                precondition(bytes > 0, "follow.lag: the raw poller read no row")
                arrivals.arrive()
            }
            ended = true
            stopped.broadcast()
            stopped.unlock()
        }
    }

    func stop() {
        stopped.withLock {
            stopping = true
            stopped.broadcast()
            while !ended { stopped.wait() }
        }
    }
}
