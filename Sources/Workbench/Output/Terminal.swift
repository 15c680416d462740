import Foundation

/// The terminal standard output is, and its size, asked afresh each time (the window may
/// have been resized since): the kernel's (`TIOCGWINSZ`), else `COLUMNS` and `LINES` when
/// it does not say. There is none when standard output is not a terminal (a pipe, a
/// file), so what goes there is never cut to a width or paged.
///
/// ```swift
/// Terminal.standardOutput()?.size   // (columns: 120, rows: 40) in a 120×40 window; nil in a pipe
/// ```
struct Terminal: Sendable {
    /// The size in characters; a dimension neither the kernel nor the environment gives is nil.
    typealias Size = (columns: Int?, rows: Int?)

    private let descriptor: Int32
    private let environment: [String: String]

    /// Standard output's terminal; nil when standard output is not one.
    static func standardOutput(environment: [String: String] = ProcessInfo.processInfo.environment) -> Terminal? {
        isatty(STDOUT_FILENO) == 1 ? Terminal(descriptor: STDOUT_FILENO, environment: environment) : nil
    }

    var size: Size {
        var window = winsize()
        let known = ioctl(descriptor, UInt(TIOCGWINSZ), &window) == 0
        return Self.size(kernel: known ? (Int(window.ws_col), Int(window.ws_row)) : (0, 0), environment: environment)
    }

    /// Whether output to the terminal is coloured when `asked`: unless `NO_COLOR` is set (no-color.org).
    func paints(_ asked: Bool) -> Bool {
        asked && environment["NO_COLOR"].map(\.isEmpty) ?? true
    }

    /// The kernel's size (0 where it does not say), else `COLUMNS` and `LINES`.
    static func size(kernel: (columns: Int, rows: Int), environment: [String: String]) -> Size {
        func given(_ kernel: Int, _ variable: String) -> Int? {
            kernel > 0 ? kernel : environment[variable].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil }
        }
        return (given(kernel.columns, "COLUMNS"), given(kernel.rows, "LINES"))
    }
}
