import Foundation

/// The read-eval-print loop: libedit with a prompt when standard input is a terminal,
/// plain lines without prompts otherwise.
///
/// ```swift
/// let status = REPL.run()   // 0, or 2 when a command failed in a non-interactive run
/// ```
public enum REPL {
    public static let prompt = "normcache> "

    /// Runs until `.quit` or the end of input and returns the process exit status.
    public static func run() -> Int32 {
        let interactive = isatty(STDIN_FILENO) == 1
        let editor = interactive ? LineEditor(historyPath: historyPath) : nil
        let source: any LineSource = editor ?? StreamLineSource()
        let session = Session(
            output: { print($0) },
            errors: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
        )
        if interactive { print("normcache \(version) — .help lists the commands, .quit or Ctrl-D leaves") }
        while !session.isFinished, let line = source.nextLine(prompt: prompt) {
            session.execute(line)
        }
        return !interactive && session.failures > 0 ? 2 : 0
    }

    public static let version = "0.1.0"

    private static var historyPath: String? {
        ProcessInfo.processInfo.environment["HOME"].map { $0 + "/.normcache_history" }
    }
}
