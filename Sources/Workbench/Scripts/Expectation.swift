import NormCache
import NormClient

/// One `.expect` line of a `.repl` test: a claim about the session, checked now. A claim
/// that does not hold is reported with the script's file and line, the expected and the
/// actual value, and makes a batch run exit 1.
///
/// ```swift
/// let expectation = try Expectation(CommandInput(#"data trips[0].name == "Lisbon""#, synopsis: ".expect CLAIM"))
/// try expectation.failure(in: session)   // nil, or "expected "Lisbon", got "Porto""
/// ```
enum Expectation {
    case data(path: String, equals: CacheValue)
    case source(ClientResult.Source)
    case missing([String])
    /// Exactly these fields were stale in the last read (past their max age, or invalidated).
    case stale([String])
    case record(target: String, equals: CacheValue?)
    case emissions(watch: Int, equals: Int)
    /// One emission of a watcher (nil: its last): its cause, or a value in its data.
    case watchCause(watch: Int, emission: Int?, equals: ChangeCause)
    case watchData(watch: Int, emission: Int?, path: String, equals: CacheValue)
    case watchers(equals: Int)
    /// A value in what pager `pager` shows (`.pager`): `pages`, `canLoadNext`, `canLoadPrevious`, `page`, `data[3].node.id`.
    case pager(pager: Int, path: String, equals: CacheValue)
    /// Requests since the session began; with a status (ok, error, offline, cancelled), only those.
    case requests(status: String?, equals: Int)
    case error(containing: String)
    /// A line the last command printed (a service command's output, the requests and
    /// emissions it set off), as the tree mode prints it whatever the mode.
    case output(containing: String)
    /// The view state a service announced last: loading, loaded, error, ...
    case state(service: String, equals: String)

    static let forms = """
        data PATH == JSON | source cache|network | missing KEY.FIELD ... | stale KEY.FIELD ... | record KEY[.FIELD] == JSON | \
        record KEY absent | emissions ID == N | watch ID [#N] cause CAUSE | watch ID [#N] data PATH == JSON | \
        pager ID PATH == JSON | watchers == N | requests [STATUS] == N | error "TEXT" | output "TEXT" | state SERVICE == STATE
        """

    init(_ input: CommandInput) throws(CommandError) {
        let words = input.words
        let usage = CommandError("usage: .expect \(Self.forms)")
        func equalsJSON(after count: Int) throws(CommandError) -> CacheValue {
            guard words.count > count, words[count] == "==" else { throw usage }
            do { return try JSON.parse(input.rest(after: count + 1), references: .apollo) } catch { throw CommandError("JSON in .expect: \(error)") }
        }
        func equalsCount(after count: Int) throws(CommandError) -> Int {
            guard words.count == count + 2, words[count] == "==", let number = Int(words[count + 1]) else { throw usage }
            return number
        }
        func watcher(_ word: String) throws(CommandError) -> Int {
            guard let id = Int(word) else { throw CommandError(".expect takes a watcher id, not \"\(word)\"") }
            return id
        }
        switch words.first {
        case "data" where words.count >= 2: self = .data(path: words[1], equals: try equalsJSON(after: 2))
        case "source" where words.count == 2:
            guard let source = ClientResult.Source(rawValue: words[1]) else { throw CommandError(".expect source takes cache or network") }
            self = .source(source)
        case "missing": self = .missing(Array(words.dropFirst()))
        case "stale": self = .stale(Array(words.dropFirst()))
        case "record" where words.count == 3 && words[2] == "absent": self = .record(target: words[1], equals: nil)
        case "record" where words.count >= 2: self = .record(target: words[1], equals: try equalsJSON(after: 2))
        case "emissions" where words.count >= 2: self = .emissions(watch: try watcher(words[1]), equals: try equalsCount(after: 2))
        case "watch" where words.count >= 4:
            let id = try watcher(words[1])
            var next = 2, emission: Int?
            if words[2].hasPrefix("#") {
                guard let number = Int(words[2].dropFirst()), number >= 1 else { throw CommandError(".expect watch: \"\(words[2])\" is not an emission number like #2") }
                emission = number
                next = 3
            }
            switch (words[next], words.count - next) {
            case ("cause", 2):
                guard let cause = ChangeCause(rawValue: words[next + 1]) else { throw CommandError(".expect watch: unknown cause \"\(words[next + 1])\"") }
                self = .watchCause(watch: id, emission: emission, equals: cause)
            case ("data", 3...): self = .watchData(watch: id, emission: emission, path: words[next + 1], equals: try equalsJSON(after: next + 2))
            default: throw usage
            }
        case "pager" where words.count >= 3: self = .pager(pager: try watcher(words[1]), path: words[2], equals: try equalsJSON(after: 3))
        case "watchers": self = .watchers(equals: try equalsCount(after: 1))
        case "requests" where words.count == 3: self = .requests(status: nil, equals: try equalsCount(after: 1))
        case "requests": self = .requests(status: words.count > 1 ? words[1] : nil, equals: try equalsCount(after: 2))
        case "error" where words.count == 2: self = .error(containing: words[1])
        case "output" where words.count == 2: self = .output(containing: words[1])
        case "state" where words.count == 4 && words[2] == "==": self = .state(service: words[1], equals: words[3])
        default: throw usage
        }
    }

    /// Checks the claim: nil when it holds, else what was expected and what was found.
    func failure(in session: Session) throws(CommandError) -> String? {
        let (expected, actual): (String, String)
        switch self {
        case .data(let path, let value):
            guard let result = session.lastResult else { return "expected \(JSON.string(value)), but no operation has run yet" }
            (expected, actual) = (JSON.string(value), try Self.found(at: path, in: result.data))
        case .source(let source):
            (expected, actual) = (source.rawValue, session.lastResult?.source.rawValue ?? "no operation has run yet")
        case .missing(let fields):
            (expected, actual) = (Self.list(fields), session.lastResult.map { Self.list($0.missing) } ?? "no operation has run yet")
        case .stale(let fields):
            (expected, actual) = (Self.list(fields), session.lastResult.map { Self.list($0.stale) } ?? "no operation has run yet")
        case .record(let target, let value):
            let cache = session.client.cache
            let (key, field) = RecordTarget.split(target, in: cache)
            let found = field.map { cache.record(key)?[$0] } ?? cache.record(key).map { .object($0) }
            (expected, actual) = (value.map { JSON.string($0, references: .apollo) } ?? "absent",
                                  found.map { JSON.string($0, references: .apollo) } ?? "absent")
        case .emissions(let id, let count):
            let logged = session.ledger.watchLog.lookup(nil, of: id).emitted
            let emitted = logged > 0 || session.client.watch(id: id) != nil ? logged : nil
            (expected, actual) = ("\(count)", emitted.map { "\($0)" } ?? "no watcher \(id)")
        case .watchCause(let id, let number, let cause):
            let emission = try Self.emission(number, of: id, in: session)
            (expected, actual) = (cause.rawValue, emission.cause.rawValue)
        case .watchData(let id, let number, let path, let value):
            let emission = try Self.emission(number, of: id, in: session)
            (expected, actual) = (JSON.string(value), try Self.found(at: path, in: emission.result.data))
        case .watchers(let count):
            (expected, actual) = ("\(count)", "\(session.client.activeWatches.count)")
        case .pager(let id, let path, let value):
            guard let pager = session.pager("\(id)") else { throw CommandError("no pager \(id) (.pager OP starts one)") }
            (expected, actual) = (JSON.string(value), try Self.found(at: path, in: .object(pager.snapshot().json)))
        case .requests(let status, let count):
            let log = session.client.network.log
            (expected, actual) = ("\(count)", "\(status.map { status in log.filter { $0.status == status }.count } ?? log.count)")
        case .error(let text):
            guard let message = session.ledger.lastFailure else { return "expected an error containing \"\(text)\", but the last command succeeded" }
            return message.contains(text) ? nil : "expected an error containing \"\(text)\", got \(message)"
        case .output(let text):
            let renderer = TextRenderer(tables: false, style: TextStyle(colour: false))
            let lines = session.ledger.lastOutput.flatMap { event in
                if case .warning = event { return renderer.render(event).errors }
                return renderer.render(event).output
            }
            guard !lines.contains(where: { $0.contains(text) }) else { return nil }
            return "expected a line containing \"\(text)\", got " + (lines.isEmpty ? "no output" : Self.quoted(lines))
        case .state(let service, let state):
            (expected, actual) = (state, session.ledger.serviceStates.state(of: service) ?? "no state announced by \(service)")
        }
        return expected == actual ? nil : "expected \(expected), got \(actual)"
    }

    /// Printed lines for a message: each a JSON string, the first few of many.
    private static func quoted(_ lines: [String], first count: Int = 8) -> String {
        let shown = lines.prefix(count).map { JSON.string(.string($0)) }.joined(separator: ", ")
        return lines.count > count ? shown + " and \(lines.count - count) more lines" : shown
    }

    private static func list(_ fields: [String]) -> String { fields.isEmpty ? "none" : fields.sorted().joined(separator: " ") }

    private static func found(at path: String, in data: CacheValue?) throws(CommandError) -> String {
        try value(at: path, in: data ?? .null).map { JSON.string($0) } ?? "nothing at \(path)"
    }

    /// Emission `number` (nil: the last) of watcher `id`; a claim about one that never was,
    /// or that is older than the watch log keeps, fails and says which emissions there are.
    private static func emission(_ number: Int?, of id: Int, in session: Session) throws(CommandError) -> WatchEmission {
        let log = session.ledger.watchLog
        let (emitted, emission) = log.lookup(number, of: id)
        guard emitted > 0 else { throw CommandError("watcher \(id) has not emitted (.watches lists the watchers)") }
        if let emission { return emission }
        let number = number ?? emitted
        guard number <= emitted else {
            throw CommandError("watcher \(id) emitted \(emitted) time\(emitted == 1 ? "" : "s"), so there is no #\(number)")
        }
        let limit = log.limit
        throw CommandError("watch \(id) #\(number) is no longer kept: the log keeps the last \(limit) emission\(limit == 1 ? "" : "s") of each watcher, "
                           + "here #\(emitted - min(limit, emitted) + 1)–#\(emitted) (.watchlog N or --watch-log N keeps more)")
    }

    /// The value at `trips[0].name` in `value`; nil when the path leads nowhere.
    static func value(at path: String, in value: CacheValue) throws(CommandError) -> CacheValue? {
        var current: CacheValue? = value
        for step in path.split(separator: ".", omittingEmptySubsequences: false) {
            guard !step.isEmpty else { throw CommandError("the path \"\(path)\" has an empty step") }
            let name = step.prefix { $0 != "[" }
            if !name.isEmpty { current = current?[String(name)] }
            var rest = step.dropFirst(name.count)
            while rest.hasPrefix("[") {
                guard let close = rest.firstIndex(of: "]"), let index = Int(rest[rest.index(after: rest.startIndex)..<close]) else {
                    throw CommandError("the path \"\(path)\" has a bad index in \"\(step)\"")
                }
                if case .list(let items)? = current, items.indices.contains(index) { current = items[index] } else { current = nil }
                rest = rest[rest.index(after: close)...]
            }
        }
        return current
    }
}
