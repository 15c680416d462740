import Foundation
import NormCache

/// Benchmarks of caches whose `QUERY_ROOT` is wide (issue 26): 100,000 trips, each under
/// its own root field `trip(id:N)` as an app that opens many detail screens keeps them,
/// against the same trips under one list field `trips`. Reading a record must cost what
/// its fields cost, however many fields it has, so the two shapes open and import in
/// about the same time.
///
/// ```swift
/// let result = BigCacheBenchmarks.loadWide.measure(5)
/// print(result.ratio)   // wide-root open time / list-root open time
/// ```
enum BigCacheBenchmarks {
    static let tripCount = 100_000
    static let userCount = 100

    /// The two shapes of one cache: the same `Trip:N` and `User:N` records, reached from
    /// `QUERY_ROOT` by 100,000 fields or by one list.
    enum Shape: CaseIterable {
        case wide, list

        var root: RecordChange {
            let trips = (0..<BigCacheBenchmarks.tripCount).map { (id: $0, trip: CacheValue.reference("Trip:\($0)")) }
            switch self {
            case .wide: return RecordChange(key: "QUERY_ROOT", fields: CacheObject(members: trips.map { ("trip(id:\($0.id))", $0.trip) }))
            case .list: return RecordChange(key: "QUERY_ROOT", fields: ["trips": .list(trips.map(\.trip))])
            }
        }
    }

    /// Trips of 4 fields with an owner among 100 users, and the users.
    static var records: [RecordChange] {
        (0..<tripCount).map { i in
            RecordChange(key: "Trip:\(i)", fields: ["__typename": "Trip", "id": .string("\(i)"), "name": .string("Trip \(i)"),
                                              "owner": .reference("User:\(i % userCount)")])
        } + (0..<userCount).map { i in RecordChange(key: "User:\(i)", fields: ["__typename": "User", "id": .string("\(i)")]) }
    }

    /// Each shape as an Apollo iOS file and as its cache's extract() JSON, made in this
    /// run; the files go when the benchmark ends.
    struct Fixture {
        let files: [Shape: String]
        let snapshots: [Shape: String]

        init(_ trial: Trial) {
            var files: [Shape: String] = [:], snapshots: [Shape: String] = [:]
            let records = BigCacheBenchmarks.records
            for shape in Shape.allCases {
                let path = SQLiteBenchmarks.scratchFile("big-\(shape)", trial)
                trial.must {
                    let writer = try SQLiteStore(path: path)
                    try writer.write(merging: [shape.root] + records, removing: [])
                    writer.close()
                    let reader = try SQLiteStore(path: path)
                    snapshots[shape] = JSON.string(try NormalizedCache(store: reader).extract(), references: .none)
                    reader.close()
                }
                files[shape] = path
            }
            self.files = files
            self.snapshots = snapshots
        }

        func remove(_ trial: Trial) {
            for path in files.values { trial.must { try SQLiteStore.removeFiles(at: path) } }
        }

        /// Seconds to open the list-root file and read every trip and its owner through
        /// `QUERY_ROOT.trips`: every record loaded, as `.import` makes every one.
        func openEveryRecord() throws -> Double {
            let store = try SQLiteStore(path: files[.list]!)
            defer { store.close() }
            var count = 0
            let seconds = try Stopwatch.seconds {
                let cache = try NormalizedCache(store: store)
                let result = try cache.read(try cache.operation("{ trips { __typename id name owner { __typename id } } }"))
                if case .list(let trips)?? = result.data?["trips"] { count = trips.count }
            }
            precondition(count == BigCacheBenchmarks.tripCount, "the list root read \(count) trips")
            return seconds
        }

        /// Seconds to open the file of `shape`, load every record and read one trip in full.
        func open(_ shape: Shape) throws -> Double {
            var store: SQLiteStore?, cache: NormalizedCache?, records = 0, trip: CacheObject?
            defer { store?.close() }
            let seconds = try Stopwatch.seconds {
                let opened = try SQLiteStore(path: files[shape]!)
                store = opened
                cache = try NormalizedCache(store: opened)
                // Every record, as opening loaded them before the cache opened lazily (a lazy
                // open alone never reaches the root, whose width is what is measured).
                records = cache?.statistics.records ?? 0
                trip = cache?.record("Trip:77")
            }
            precondition(records == BigCacheBenchmarks.tripCount + BigCacheBenchmarks.userCount + 1 && trip?["name"] == "Trip 77",
                         "\(shape): \(records) records loaded, or Trip:77 did not load")
            return seconds
        }

        /// Seconds for `.import`'s work on the snapshot of `shape`: its JSON read and
        /// restored into a new cache; the root is checked to hold every trip.
        func importSnapshot(_ shape: Shape) throws -> Double {
            let cache = NormalizedCache()
            let seconds = try Stopwatch.seconds { try cache.restore(try JSON.parse(snapshots[shape]!)) }
            let root = cache.record("QUERY_ROOT")
            var trips = root?.count
            if shape == .list, case .list(let items)? = root?["trips"] { trips = items.count }
            precondition(trips == tripCount, "\(shape): the imported root holds \(trips ?? 0) trips")
            return seconds
        }
    }

    /// A benchmark of one ``Fixture`` made for it: `measured` and `baseline` each return
    /// the seconds of one use of it; ratio = ours / baseline.
    private static func comparing(_ name: String, _ summary: String, _ measured: @escaping @Sendable (Fixture) throws -> Double,
                                  against baseline: @escaping @Sendable (Fixture) throws -> Double) -> Benchmark {
        Benchmark(name: name, unit: "ms", summary: summary) { trial in
            let fixture = Fixture(trial)
            defer { fixture.remove(trial) }
            let seconds = trial.medians(timing: { try measured(fixture) }, baseline: { try baseline(fixture) })
            return .time(seconds, scale: 1e3, ratio: .oursOverBaseline)
        }
    }

    static let loadWide = comparing(
        "load.wide", "open an Apollo iOS file whose QUERY_ROOT has 100,000 fields trip(id:N), each referring to Trip:N, "
            + "load every record (.stats) and read Trip:77; baseline: the same for the same trips under one list field QUERY_ROOT.trips (files made in "
            + "this run); ratio = ours / baseline, goal ≤ 2",
        { try $0.open(.wide) }, against: { try $0.open(.list) })

    static let importWide = comparing(
        "import.wide", ".import of the extract() JSON (Apollo Client format: ROOT_QUERY, __ref) of load.wide's wide-root "
            + "cache (the JSON parsed, then restored into a new cache); baseline: the same for the list-root cache; "
            + "ratio = ours / baseline, goal ≤ 2",
        { try $0.importSnapshot(.wide) }, against: { try $0.importSnapshot(.list) })

    static let importList = comparing(
        "import.100k", ".import of the extract() JSON of load.wide's list-root cache (100,100 records); baseline: opening "
            + "the same records from its Apollo iOS file and reading every one (the trips and their owners through "
            + "QUERY_ROOT.trips: a cache opens lazily); ratio = ours / baseline, goal ≤ 3",
        { try $0.importSnapshot(.list) }, against: { try $0.openEveryRecord() })
}
