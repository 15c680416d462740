import Foundation

/// The process's standard output and error as a session's sinks: errors flush the
/// output first, so the two stay in order in a terminal, and each line is written whole.
///
/// ```swift
/// let session = try Session(output: StandardStreams.output, errors: StandardStreams.errors)
/// ```
public enum StandardStreams {
    public static let output: @Sendable (String) -> Void = { print($0) }

    public static let errors: @Sendable (String) -> Void = {
        fflush(nil)
        FileHandle.standardError.write(Data(($0 + "\n").utf8))
    }

    /// Colour is for a terminal, and only when the user has not set `NO_COLOR`.
    public static var outputIsColourTerminal: Bool {
        isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true
    }
}
