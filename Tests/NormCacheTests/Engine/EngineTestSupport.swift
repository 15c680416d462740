import Foundation
import Testing
@testable import NormCache

/// Shared helpers of the engine tests: JSON text in, comparisons that ignore member order,
/// a thread-safe emission recorder, and the Apollo iOS 1.25.7 Star Wars fixture.
enum Support {
    /// Parses JSON text that must be an object (a response's `data`, variables, a record).
    static func object(_ text: String, references: JSON.ReferenceStyle = .none) throws -> CacheObject {
        guard case .object(let object) = try JSON.parse(text, references: references) else {
            throw Failure("not a JSON object: \(text)")
        }
        return object
    }

    /// JSON text with sorted keys: equal for values that differ only in member order.
    static func canonical(_ value: CacheValue?) -> String {
        value.map { JSON.string($0, sortedKeys: true) } ?? "nil"
    }

    static func canonical(_ object: CacheObject?) -> String {
        object.map { JSON.string(.object($0), sortedKeys: true) } ?? "nil"
    }

    /// A record's members as a dictionary (records have no meaningful field order).
    static func fields(_ object: CacheObject?) -> [String: CacheValue]? {
        object.map { Dictionary(uniqueKeysWithValues: Array($0.members)) }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// The cache an engine test works on: in memory, unless the environment variable
    /// `NORMCACHE_TEST_STORE` names a store (`memory`: an ``InMemoryStore``, `sqlite`: a
    /// ``SQLiteStore`` in a file of its own). Then the cache opens over that store lazily
    /// and unloads every record after each commit, so that every read and write loads what
    /// it reaches from the store: `make test-swift` runs the engine's tests this way too.
    static func cache(store: RecordStore? = nil) throws -> NormalizedCache {
        if let store { return try NormalizedCache(store: store) }
        let store: RecordStore
        switch ProcessInfo.processInfo.environment["NORMCACHE_TEST_STORE"] {
        case nil, "": return NormalizedCache()
        case "memory": store = InMemoryStore()
        case "sqlite": store = try ScratchSQLiteStore()
        case let other?: throw Failure("NORMCACHE_TEST_STORE=\(other): use memory or sqlite")
        }
        let cache = try NormalizedCache(store: store)
        cache.locked { cache.state.records.unloadsAfterCommit = true }
        return cache
    }

    /// A cache keyed the way the fixture's Apollo iOS was configured: `Human`, `Droid`
    /// and `Starship` by `id`, nothing else normalized.
    static func apolloConfiguredCache(store: RecordStore? = nil) throws -> NormalizedCache {
        let cache = try cache(store: store)
        var policies = TypePolicies()
        policies.defaultKeyFields = []
        for type in ["Human", "Droid", "Starship"] { policies[type] = .keyFields(["id"]) }
        cache.typePolicies = policies
        return cache
    }
}

/// Collects a watcher's emissions from whatever thread delivers them.
final class Recorder: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [WatchEmission] = []

    var callback: @Sendable (WatchEmission) -> Void { { [self] emission in record(emission) } }

    func record(_ emission: WatchEmission) {
        lock.lock()
        stored.append(emission)
        lock.unlock()
    }

    var emissions: [WatchEmission] {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }

    var causes: [ChangeCause] { emissions.map(\.cause) }
    var last: WatchEmission? { emissions.last }
    var count: Int { emissions.count }
}

/// The Apollo iOS 1.25.7 Star Wars fixture: the three operations and responses that
/// Apollo published, and the rows it wrote (`Tests/Fixtures/apollo-ios-1.25.7-starwars.*`).
enum StarWarsFixture {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Fixtures")

    static let markdown: String = {
        (try? String(contentsOf: directory.appendingPathComponent("apollo-ios-1.25.7-starwars.md"), encoding: .utf8)) ?? ""
    }()

    /// `key → record` as Apollo iOS wrote them.
    static let rows: [(key: String, record: String)] = {
        let text = (try? String(contentsOf: directory.appendingPathComponent("apollo-ios-1.25.7-starwars.rows.txt"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map { line in
            let bar = line.firstIndex(of: "|")!
            return (String(line[..<bar]), String(line[line.index(after: bar)...]))
        }
    }()

    /// The fenced blocks of the fixture's description, in order, by language.
    static func blocks(_ language: String) -> [String] {
        var result: [String] = []
        var current: [Substring]? = nil
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if var block = current {
                if line == "```" {
                    result.append(block.joined(separator: "\n"))
                    current = nil
                } else {
                    block.append(line)
                    current = block
                }
            } else if line == "```" + language {
                current = []
            }
        }
        return result
    }

    /// The three operations (the schema block is the first graphql block).
    static var operations: [String] { Array(blocks("graphql").dropFirst()) }
    static var schema: String { blocks("graphql")[0] }

    /// Variables then response of each operation, from the json blocks.
    static var exchanges: [(operation: String, variables: String, response: String)] {
        let json = blocks("json")
        return operations.indices.map { (operations[$0], json[2 * $0], json[2 * $0 + 1]) }
    }
}

/// A ``SQLiteStore`` in a temporary directory of its own, removed with it.
final class ScratchSQLiteStore: RecordStore {
    private let directory = TemporaryDirectory()
    private let store: SQLiteStore

    init() throws { store = try SQLiteStore(path: directory.path("cache.sqlite")) }

    deinit { store.close() }

    func keys() throws -> [String] { try store.keys() }
    func load(_ batch: RecordBatch) throws { try store.load(batch) }
    func loadAll() throws -> [Record] { try store.loadAll() }
    func write(merging changes: [RecordChange], removing: [String]) throws { try store.write(merging: changes, removing: removing) }
    func clear() throws { try store.clear() }
    func receivedTimes(of keys: [String]) throws -> [String: String] { try store.receivedTimes(of: keys) }
    var keepsReceivedTimes: Bool { store.keepsReceivedTimes }
}
