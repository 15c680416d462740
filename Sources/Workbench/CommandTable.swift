/// The workbench's commands, in the order `.help` lists them. Add a command here and
/// `.help`, lookup and "did you mean" follow.
public enum CommandTable {
    public static let commands: [Command] = [
        Command(name: "help", usage: "[COMMAND]", help: "List the commands, or show one command's help") { session, arguments in
            try session.showHelp(for: arguments.first)
        },
        Command(name: "quit", help: "Leave the workbench (also Ctrl-D)", aliases: ["exit"]) { session, arguments in
            guard arguments.isEmpty else { throw CommandError(".quit takes no arguments") }
            session.finish()
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
