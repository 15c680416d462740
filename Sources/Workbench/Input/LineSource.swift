import Foundation

/// Where the workbench's input lines come from: libedit on a terminal, a stream otherwise.
protocol LineSource {
    /// The next line, Ctrl-C at the prompt, or the end of input (Ctrl-D). `continuing`: a
    /// GraphQL operation goes on over lines (``REPL/continuationPrompt`` rather than ``REPL/prompt``).
    func read(continuing: Bool) -> LineInput
}

/// What a ``LineSource`` read.
///
/// ```swift
/// switch source.read(continuing: session.isContinuing) {
/// case .line(let text): session.execute(text)
/// case .interrupted: session.abandonInput()
/// case .end: return 0
/// }
/// ```
enum LineInput: Equatable {
    /// A line, without its newline.
    case line(String)
    /// Ctrl-C gave up the line being typed.
    case interrupted
    case end
}

/// Lines from standard input, without prompts: for pipes, files and scripts.
struct StreamLineSource: LineSource {
    func read(continuing: Bool) -> LineInput { readLine(strippingNewline: true).map(LineInput.line) ?? .end }
}
