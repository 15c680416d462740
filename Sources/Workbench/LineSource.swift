import Foundation

/// Where the workbench's input lines come from: libedit on a terminal, a stream otherwise.
protocol LineSource {
    /// The next line without its newline, or `nil` at the end of input (Ctrl-D).
    func nextLine(prompt: String) -> String?
}

/// Lines from standard input, without prompts: for pipes, files and scripts.
struct StreamLineSource: LineSource {
    func nextLine(prompt: String) -> String? { readLine(strippingNewline: true) }
}
