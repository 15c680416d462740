import NormCache

/// A deterministic workbench script of cache-only commands, as a `.repl` test that seeds
/// and checks a cache writes them, and the same work as direct calls of the engine API.
///
/// After `.policy cache-only`, blocks of ten lines repeat for trips 1, 2, 3, …, with one
/// of 100 users as each trip's owner: four writes (the trip, the root field that finds
/// it, its owner, a rename), three queries (two distinct texts per trip), two inspects and
/// one key listing:
///
/// ```
/// .write Trip:7 {"__typename":"Trip","id":"7","name":"Trip 7","owner":{"$reference":"User:7"}}
/// .write QUERY_ROOT {"trip(id:7)":{"$reference":"Trip:7"}}
/// .write User:7 {"__typename":"User","id":"7","name":"User 7 of trip 7"}
/// { trip(id: "7") { id name } }
/// .inspect Trip:7
/// { trip(id: "7") { id name owner { id name } } }
/// .write Trip:7 {"name":"Trip 7, renamed"}
/// { trip(id: "7") { id name } }
/// .inspect User:7
/// .keys Trip:1*
/// ```
///
/// ```swift
/// let script = BatchScript(lineCount: 10_000)
/// for line in script.lines { session.execute(line) }   // through the workbench
/// script.replay(on: NormalizedCache())            // the same calls, raw
/// ```
struct BatchScript {
    /// One cache-only command, as the engine call it comes down to.
    enum Step {
        case write(key: String, fields: CacheObject)
        case inspect(key: String)
        case keys(pattern: String)
        case query(document: String)

        /// The workbench line for this step.
        var line: String {
            switch self {
            case .write(let key, let fields): ".write \(key) \(JSON.string(.object(fields), references: .apollo))"
            case .inspect(let key): ".inspect \(key)"
            case .keys(let pattern): ".keys \(pattern)"
            case .query(let document): document
            }
        }
    }

    static let users = 100

    /// Every line but the first, `.policy cache-only`, which has no engine call.
    let steps: [Step]

    /// The script's lines: `.policy cache-only`, then one per step.
    var lines: [String] { [".policy cache-only"] + steps.map(\.line) }

    init(lineCount: Int) {
        var steps: [Step] = []
        var trip = 0
        while steps.count < lineCount - 1 {
            trip += 1
            let user = trip % Self.users
            steps += [
                .write(key: "Trip:\(trip)", fields: ["__typename": "Trip", "id": .string("\(trip)"), "name": .string("Trip \(trip)"),
                                                     "owner": .reference("User:\(user)")]),
                .write(key: "QUERY_ROOT", fields: ["trip(id:\(trip))": .reference("Trip:\(trip)")]),
                .write(key: "User:\(user)", fields: ["__typename": "User", "id": .string("\(user)"), "name": .string("User \(user) of trip \(trip)")]),
                .query(document: #"{ trip(id: "\#(trip)") { id name } }"#),
                .inspect(key: "Trip:\(trip)"),
                .query(document: #"{ trip(id: "\#(trip)") { id name owner { id name } } }"#),
                .write(key: "Trip:\(trip)", fields: ["name": .string("Trip \(trip), renamed")]),
                .query(document: #"{ trip(id: "\#(trip)") { id name } }"#),
                .inspect(key: "User:\(user)"),
                .keys(pattern: "Trip:1*"),
            ]
        }
        self.steps = Array(steps.prefix(lineCount - 1))
    }

    /// Does each step's engine call on `cache`, checking that every read is complete and
    /// every inspected record exists; returns a count of what was read, so no call is idle.
    @discardableResult
    func replay(on cache: NormalizedCache) -> Int {
        var count = 0
        do {
            for step in steps {
                switch step {
                case .write(let key, let fields):
                    count &+= try cache.write(record: key, fields: fields).isEmpty ? 0 : 1
                case .inspect(let key):
                    guard let record = cache.record(key) else { fatalError("batch: no record \(key)") }
                    count &+= record.count
                case .keys(let pattern):
                    count &+= cache.keys(matching: pattern).count
                case .query(let document):
                    let result = try cache.read(try cache.operation(document))
                    precondition(result.complete, "batch: \(document) missed \(result.missing)")
                    count &+= 1
                }
            }
        } catch { fatalError("batch: \(error)") }
        return count
    }
}
