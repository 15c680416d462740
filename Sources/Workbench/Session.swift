import Foundation

/// The state of one workbench session and the interpreter of its input lines.
///
/// A session is fed one line at a time, from libedit, a pipe or a test, and writes
/// through the sinks it was given, so tests can run it without a terminal.
///
/// ```swift
/// let session = try Session(output: { print($0) }, errors: { print($0) })
/// session.execute(".help")
/// session.execute(".quit")
/// session.isFinished   // true
/// ```
public final class Session {
    private let output: (String) -> Void
    private let errors: (String) -> Void
    /// True once `.quit` ran; the caller stops reading.
    public private(set) var isFinished = false
    /// How many commands failed, for the exit status of a non-interactive run.
    public private(set) var failures = 0

    /// The cache the commands work on, and where it persists.
    let scope: CacheScope

    /// A session over the cache `options` describe; throws when that cache cannot open
    /// (a bad file, a lock held too long), naming the file and the problem.
    public init(options: SessionOptions = SessionOptions(), output: @escaping (String) -> Void,
                errors: @escaping (String) -> Void) throws {
        self.output = output
        self.errors = errors
        scope = try CacheScope(options: options)
        reportOpened()
    }

    /// Says what the cache is over and prints the warnings of opening it.
    func reportOpened() {
        let count = scope.cache.statistics.records
        if scope.store != nil { write("cache: \(scope.description), \(count) record\(count == 1 ? "" : "s")") }
        for warning in scope.warnings { warn(warning) }
    }

    func warn(_ text: String) { errors("warning: " + text) }

    /// Runs one line of input: a dot-command, a `#` comment or a blank line.
    public func execute(_ line: String) {
        let text = line.trimmingWhitespace
        guard !text.isEmpty, !text.hasPrefix("#") else { return }
        do {
            guard text.hasPrefix(".") else {
                throw CommandError("\(text.preview) is not a command; commands start with \".\" (.help lists them)")
            }
            let body = text.dropFirst()
            let name = body.prefix { !$0.isWhitespace }
            guard let command = CommandTable.command(named: String(name)) else { throw unknownCommand(String(name)) }
            try command.run(self, try CommandInput(body.dropFirst(name.count), synopsis: command.synopsis))
        } catch {
            failures += 1
            errors("error: \(error)")
        }
    }

    func finish() { isFinished = true }

    func write(_ text: String) { output(text) }

    func showHelp(for name: String?) throws(CommandError) {
        guard let name else {
            let width = CommandTable.commands.map(\.synopsis.count).max() ?? 0
            for command in CommandTable.commands {
                write(command.synopsis.padding(toLength: width + 2, withPad: " ", startingAt: 0) + command.help)
            }
            return
        }
        let bare = name.hasPrefix(".") ? String(name.dropFirst()) : name
        guard let command = CommandTable.command(named: bare) else { throw unknownCommand(bare) }
        write(command.synopsis)
        write("  " + command.help)
        if !command.aliases.isEmpty { write("  also: " + command.aliases.map { "." + $0 }.joined(separator: ", ")) }
    }

    private func unknownCommand(_ name: String) -> CommandError {
        let suggestions = CommandTable.suggestions(for: name).map { "." + $0 }
        let hint = suggestions.isEmpty ? "" : "; did you mean \(suggestions.joined(separator: " or "))?"
        return CommandError("unknown command \".\(name)\"\(hint) (.help lists the commands)")
    }
}

extension StringProtocol {
    var trimmingWhitespace: SubSequence {
        let start = firstIndex { !$0.isWhitespace } ?? endIndex
        let end = lastIndex { !$0.isWhitespace }.map(index(after:)) ?? start
        return self[start..<end]
    }
}

extension Substring {
    /// The text quoted and cut to a readable length, for error messages.
    var preview: String { "\"" + (count > 40 ? prefix(40) + "…" : self) + "\"" }
}
