@testable import Workbench

extension FuzzTarget {
    /// `.repl` script text run by a session over a memory cache with no plugin loaded: the
    /// line parser, the command table, each command's arguments (CommandInput, JSON
    /// arguments, `.expect` claims, globs, keys) and GraphQL typed over several lines. Lines
    /// of the ``excludedCommands`` are left out, `.nowait` ones included.
    static let repl = FuzzTarget(name: "repl", feeds: "a .repl script, run by a memory session with no plugins (commands that reach files, processes or the network left out)") { bytes in
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let script = lines.filter { !reachesOutside($0) }.joined(separator: "\n")
        let session = try! Session(options: SessionOptions(loadsBundledPlugins: false), output: { _ in }, errors: { _ in })
        session.run(script: script, named: "fuzz.repl")
    }

    /// Commands that would reach outside the process (run a shell command, read or write a
    /// file or a directory, load a library, send requests over HTTP), end the session, or
    /// wait on purpose (`.network latency MS` delays every request, refetches included).
    static let excludedCommands: Set<String> = ["shell", "read", "output", "once", "dump", "export", "import", "open",
                                                "load", "endpoint", "project", "quit", "network"]

    /// Whether `line` runs one of the ``excludedCommands``, by name or alias, itself or
    /// through `.nowait`; the session reads a command's name the same way.
    private static func reachesOutside(_ line: Substring) -> Bool {
        let text = line.trimmingWhitespace
        guard text.hasPrefix(".") else { return false }
        let name = text.dropFirst().prefix { !$0.isSpace }
        guard let command = CommandTable.command(named: String(name)) else { return false }
        if command.name == "nowait" { return reachesOutside(text.dropFirst(name.count + 1)) }
        return excludedCommands.contains(command.name)
    }
}
