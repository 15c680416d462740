import Foundation

/// The read-eval-print loop: libedit with a prompt when standard input is a terminal,
/// plain lines without prompts otherwise.
///
/// At the terminal, emissions print whenever they happen, above the prompt; Tab completes;
/// Ctrl-C cancels the command running, or gives up the line being typed; Ctrl-D leaves;
/// a command's output longer than the screen goes through the ``Pager``. The banner goes
/// to standard error, with the other messages: standard output holds data alone.
///
/// ```swift
/// let status = REPL.run(options: SessionOptions(cacheDirectory: "/tmp/caches"))   // 0, or 2 on a failure
/// ```
package enum REPL {
    package static let prompt = "normcache> "
    /// The prompt while a GraphQL operation continues over lines.
    package static let continuationPrompt = "     ...> "

    /// Runs until `.quit` or the end of input and returns the process exit status: 2
    /// when the cache could not open; without a terminal, as `normcache run` (0, 1 or 2).
    package static func run(options: SessionOptions = SessionOptions()) -> Int32 {
        let interactive = isatty(STDIN_FILENO) == 1
        var options = options
        if interactive {
            options.settlesEachCommand = false
            options.pager = Pager.fromEnvironment()
        }
        let console = Console()   // one writer at a time; errors stay in order with output
        guard let session = Session.onStandardStreams(options, console: console), session.runStartup(options) else { return 2 }
        guard interactive, let editor = LineEditor(historyFile: UserFiles().history, console: console, records: { session.settings.recordsHistory },
                                                   complete: { Completion(for: $0, in: session) }) else {
            // A program driving the workbench through a pipe gets each reply before it sends the next command.
            read(from: StreamLineSource(), into: session, named: Session.standardInputName)
            return session.exitStatus
        }
        nonisolated(unsafe) let running = session   // interrupt() is safe from any thread
        let interrupts = Interrupts { running.interrupt() }
        console.error("normcache \(NormcacheVersion.current) — .help lists the commands, .quit or Ctrl-D leaves")
        withExtendedLifetime(interrupts) { read(from: editor, into: session, named: nil) }
        return 0
    }

    /// Feeds `source` to `session` line by line; lines of a named source (a pipe) carry
    /// their number, and each reply is flushed before the next line is read.
    private static func read(from source: any LineSource, into session: Session, named name: String?) {
        var number = 0
        while !session.isFinished {
            switch source.read(continuing: session.isContinuing) {
            case .line(let line):
                number += 1
                session.execute(line, at: name.map { SourceLocation(file: $0, line: number) })
            case .interrupted: session.abandonInput()
            case .end: return session.endInput()
            }
            if name != nil { fflush(nil) }
        }
    }
}
