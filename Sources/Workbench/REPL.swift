import Foundation

/// The read-eval-print loop: libedit with a prompt when standard input is a terminal,
/// plain lines without prompts otherwise.
///
/// ```swift
/// let status = REPL.run(options: SessionOptions(cacheDirectory: "/tmp/caches"))   // 0, or 2 on a failure
/// ```
public enum REPL {
    public static let prompt = "normcache> "
    /// The prompt while a GraphQL operation continues over lines.
    public static let continuationPrompt = "     ...> "

    /// Runs until `.quit` or the end of input and returns the process exit status:
    /// 2 when the cache could not open, or a command failed in a non-interactive run.
    public static func run(options: SessionOptions = SessionOptions()) -> Int32 {
        let interactive = isatty(STDIN_FILENO) == 1
        // Output stays in order with errors (flushed first), and a program driving the
        // workbench through a pipe gets each reply before it sends the next command.
        let errors: @Sendable (String) -> Void = {
            fflush(nil)
            FileHandle.standardError.write(Data(($0 + "\n").utf8))
        }
        let session: Session
        do { session = try Session(options: options, output: { print($0) }, errors: errors) } catch {
            errors("error: \(error)")
            return 2
        }
        let editor = interactive ? LineEditor(historyPath: historyPath) : nil
        let source: any LineSource = editor ?? StreamLineSource()
        if interactive { print("normcache \(version) — .help lists the commands, .quit or Ctrl-D leaves") }
        while !session.isFinished, let line = source.nextLine(prompt: session.isContinuing ? continuationPrompt : prompt) {
            session.execute(line)
            if !interactive { fflush(nil) }
        }
        return !interactive && session.failures > 0 ? 2 : 0
    }

    public static let version = "0.1.0"

    private static var historyPath: String? {
        ProcessInfo.processInfo.environment["HOME"].map { $0 + "/.normcache_history" }
    }
}
