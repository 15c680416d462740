import Foundation
import NormCache

/// The workbench's commands, in the order `.help` lists them. Add a command here and
/// `.help`, lookup and "did you mean" follow.
public enum CommandTable {
    public static let commands: [Command] = [
        // session
        Command(name: "help", usage: "[COMMAND]", help: "List the commands, or show one command's help") { session, input in
            try session.showHelp(for: try input.words(0...1).first)
        },
        Command(name: "quit", help: "Leave the workbench (also Ctrl-D)", aliases: ["exit"]) { session, input in
            _ = try input.words(0...0)
            session.finish()
        },
        // cache
        Command(name: "keys", usage: "[GLOB]", help: "List record keys, sorted; GLOB filters them (* any run, ? one character)") { session, input in
            let pattern = try input.words(0...1).first
            for key in session.scope.cache.keys(matching: pattern) { session.write(key) }
        },
        Command(name: "inspect", usage: "KEY", help: "Show one record: each field key and its JSON value, references as {\"$reference\":K}") { session, input in
            let key = try input.words(1...1)[0]
            guard let record = session.scope.cache.record(key) else { throw CommandError("no record \"\(key)\"") }
            session.write(key)
            for (field, value) in record.members { session.write("  \(field): \(JSON.string(value, references: .apollo))") }
        },
        Command(name: "write", usage: "KEY JSON", help: "Set fields of a record from a JSON object; {\"$reference\":K} links to record K") { session, input in
            guard let key = input.words.first, !input.rest(after: 1).isEmpty else { throw CommandError("usage: \(input.synopsis)") }
            let fields: CacheValue
            do { fields = try JSON.parse(input.rest(after: 1), references: .apollo) } catch { throw CommandError("JSON for .write: \(error)") }
            guard case .object(let object) = fields else { throw CommandError(".write needs a JSON object of fields, not \(fields.kindDescription)") }
            try session.scope.cache.write(record: key, fields: object)
        },
        Command(name: "clear", help: "Remove every record (and from the cache file, leaving no trace of them)") { session, input in
            _ = try input.words(0...0)
            try session.scope.cache.clear()
        },
        Command(name: "open", usage: "FILE", help: "Put the cache over a SQLite cache file (Apollo iOS format), loading what it holds; created if missing") { session, input in
            let file = try input.words(1...1)[0]
            try session.scope.open(file, mode: .readWrite)
            session.reportOpened()
        },
        // lifecycle
        Command(name: "login", usage: "USER", help: "Switch to USER's store DIR/USER.sqlite under --cache-dir, and its cache") { session, input in
            try session.scope.login(try input.words(1...1)[0])
            session.reportOpened()
        },
        Command(name: "logout", help: "Clear the cache and delete the user's store with its -wal and -shm files: no trace is left") { session, input in
            _ = try input.words(0...0)
            let described = session.scope.description
            try session.scope.logout()
            session.write("logged out: \(described) deleted")
        },
    ]

    /// The command called `name` (without the dot), by name or alias.
    public static func command(named name: String) -> Command? {
        commands.first { $0.name == name || $0.aliases.contains(name) }
    }

    /// The names closest to a mistyped one, for "did you mean".
    static func suggestions(for name: String) -> [String] {
        let names = commands.flatMap { [$0.name] + $0.aliases }
        let scored = names.map { ($0, editDistance($0, name)) }.filter { $0.1 <= max(1, name.count / 2) }
        return scored.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(3).map(\.0)
    }
}

/// Levenshtein distance between two short strings.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    var previous = Array(0...b.count)
    for (i, x) in a.enumerated() {
        var current = [i + 1]
        for (j, y) in b.enumerated() {
            current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
        }
        previous = current
    }
    return previous[b.count]
}
