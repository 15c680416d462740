import NormCache
import NormClient

/// One `.expect` line of a `.repl` test: what it claims about the session, checked now.
///
/// ```swift
/// let expectation = try Expectation(#"data trips[0].name == "Lisbon""#)
/// try expectation.check(in: session)   // throws a failure with the expected and the actual value
/// ```
enum Expectation {
    case data(path: String, equals: CacheValue)
    case source(ClientResult.Source)
    case missing([String])
    case record(target: String, equals: CacheValue?)
    case emissions(watch: Int, equals: Int)
    case requests(equals: Int)
    case error(containing: String)

    static let forms = """
        data PATH == JSON | source cache|network | missing KEY.FIELD ... | record KEY[.FIELD] == JSON | \
        record KEY absent | emissions ID == N | requests == N | error "TEXT"
        """

    init(_ input: CommandInput) throws(CommandError) {
        let words = input.words
        func equalsJSON(after count: Int) throws(CommandError) -> CacheValue {
            guard words.count > count, words[count] == "==" else { throw CommandError("usage: .expect \(Self.forms)") }
            let text = input.rest(after: count + 1)
            do { return try JSON.parse(text, references: .apollo) } catch { throw CommandError("JSON in .expect: \(error)") }
        }
        func equalsCount(after count: Int) throws(CommandError) -> Int {
            guard words.count == count + 2, words[count] == "==", let number = Int(words[count + 1]) else {
                throw CommandError("usage: .expect \(Self.forms)")
            }
            return number
        }
        switch words.first {
        case "data" where words.count >= 2: self = .data(path: words[1], equals: try equalsJSON(after: 2))
        case "source" where words.count == 2:
            guard let source = ClientResult.Source(rawValue: words[1]) else { throw CommandError(".expect source takes cache or network") }
            self = .source(source)
        case "missing": self = .missing(Array(words.dropFirst()))
        case "record" where words.count == 3 && words[2] == "absent": self = .record(target: words[1], equals: nil)
        case "record" where words.count >= 2: self = .record(target: words[1], equals: try equalsJSON(after: 2))
        case "emissions" where words.count >= 2:
            guard let id = Int(words[1]) else { throw CommandError(".expect emissions takes a watcher id, not \"\(words[1])\"") }
            self = .emissions(watch: id, equals: try equalsCount(after: 2))
        case "requests": self = .requests(equals: try equalsCount(after: 1))
        case "error" where words.count == 2: self = .error(containing: words[1])
        default: throw CommandError("usage: .expect \(Self.forms)")
        }
    }

    /// Checks the claim; a failure says what was expected and what was found.
    func check(in session: Session) throws(CommandError) {
        let (expected, actual): (String, String)
        switch self {
        case .data(let path, let value):
            let found = try Self.value(at: path, in: try Self.result(session).data ?? .null)
            (expected, actual) = (JSON.string(value), found.map { JSON.string($0) } ?? "nothing at \(path)")
        case .source(let source):
            (expected, actual) = (source.rawValue, try Self.result(session).source.rawValue)
        case .missing(let fields):
            (expected, actual) = (fields.sorted().joined(separator: " "), try Self.result(session).missing.sorted().joined(separator: " "))
        case .record(let target, let value):
            let cache = session.client.cache
            let (key, field) = RecordTarget.split(target, in: cache)
            let found = field.map { cache.record(key)?[$0] } ?? cache.record(key).map { .object($0) }
            (expected, actual) = (value.map { JSON.string($0, references: .apollo) } ?? "absent",
                                  found.map { JSON.string($0, references: .apollo) } ?? "absent")
        case .emissions(let id, let count):
            let watch = session.client.activeWatches.first { $0.id == id }
            (expected, actual) = ("\(count)", watch.map { "\($0.emissions)" } ?? "no watcher \(id)")
        case .requests(let count):
            (expected, actual) = ("\(count)", "\(session.client.network.requestCount)")
        case .error(let text):
            let message = session.lastFailure ?? "no error"
            guard session.lastFailure?.contains(text) == true else {
                throw CommandError("expectation failed: expected an error containing \"\(text)\", got \(message)")
            }
            return
        }
        guard expected == actual else { throw CommandError("expectation failed: expected \(expected), got \(actual)") }
    }

    private static func result(_ session: Session) throws(CommandError) -> ClientResult {
        guard let result = session.lastResult else { throw CommandError("expectation failed: no operation has run yet") }
        return result
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
