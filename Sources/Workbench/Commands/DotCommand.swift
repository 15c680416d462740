/// One dot-command of the workbench: its name, its usage, its help text, and what it does.
///
/// Every command lives in ``CommandTable``; `.help` is generated from it, as in sqlite3's shell.
///
/// ```swift
/// DotCommand(name: "quit", usage: "", help: "Leave the workbench (also .exit, Ctrl-D)") { session, input in
///     session.finish()
/// }
/// ```
package struct DotCommand: Sendable {
    package let name: String
    /// The arguments after the name, e.g. `"[COMMAND]"`; empty for none.
    package let usage: String
    package let help: String
    /// Other names that run the same command, e.g. `exit` for `quit`.
    package let aliases: [String]
    /// What its first, second, … argument names, for Tab to complete (``Completion``).
    let completes: [ArgumentKind]
    let run: @Sendable (Session, CommandInput) throws -> Void

    package init(
        name: String, usage: String = "", help: String, aliases: [String] = [],
        run: @escaping @Sendable (Session, CommandInput) throws -> Void
    ) {
        self.init(name: name, usage: usage, help: help, aliases: aliases, completes: [], run: run)
    }

    init(name: String, usage: String = "", help: String, aliases: [String] = [], completes: [ArgumentKind],
         run: @escaping @Sendable (Session, CommandInput) throws -> Void) {
        self.name = name
        self.usage = usage
        self.help = help
        self.aliases = aliases
        self.completes = completes
        self.run = run
    }

    /// What an argument of a command names, so that Tab offers those.
    enum ArgumentKind: Sendable {
        /// A dot-command's name (`.help run`).
        case command
        /// A loaded plugin (`.use trips`).
        case plugin
        /// A named operation of the project or the current plugin (`.run TripList`).
        case operation
        /// A record key of the cache (`.inspect Trip:2`).
        case recordKey
        /// A word of an `.expect` claim: after `record`, a record key.
        case claim
        /// A running watcher's id, a pager's too (`.more 3`).
        case watcher
        /// One of these words (`.more 3 previous`).
        case word([String])
    }

    /// `.name USAGE`, as `.help` shows it.
    package var synopsis: String { usage.isEmpty ? "." + name : "." + name + " " + usage }
}

/// A command that could not do what it was asked; the message says what and why.
package struct CommandError: Error, Equatable, CustomStringConvertible {
    package let message: String

    package init(_ message: String) { self.message = message }

    package var description: String { message }
}
