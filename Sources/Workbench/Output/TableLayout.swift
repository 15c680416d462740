/// How wide the workbench's tables and column listings may be, and how a row too wide is
/// made to fit: the widest columns give up a character at a time until the row fits,
/// and a cell longer than its column is cut, `…` in its last place, never broken by the
/// terminal's wrapping. A table cut says so once, under it (``note(whole:)``).
///
/// The width is the terminal's, taken for each table (``Printer``); output that is not a
/// terminal (a pipe, a file, `.output`) has no limit and stays whole.
///
/// ```swift
/// let fitted = TableLayout(width: 20).fit([["id", "name"], ["1", "a name too long to fit"]], separators: 2)
/// fitted.rows        // [["id", "name"], ["1", "a name too long…"]]
/// fitted.truncated   // true
/// ```
struct TableLayout: Sendable {
    /// The characters a line may take; nil: no limit.
    let width: Int?

    static let unlimited = TableLayout(width: nil)

    /// A column is not cut below this many characters (its own width, if narrower): two
    /// and the `…`. A table whose columns do not fit even so is drawn wider than the limit.
    static let narrowest = 3

    /// The rows, each cell cut to its column's width, and those widths.
    struct Fitted {
        let widths: [Int]
        let rows: [[String]]
        /// Whether a cell was cut.
        let truncated: Bool
    }

    /// Fits `rows` (a header is a row like the others) into the width, `separators` being
    /// the characters a line takes besides its cells (rules, padding, spaces between).
    func fit(_ rows: [[String]], separators: Int) -> Fitted {
        let count = rows.map(\.count).max() ?? 0
        let natural = (0..<count).map { column in rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
        guard let width else { return Fitted(widths: natural, rows: rows, truncated: false) }
        var widths = natural
        var excess = widths.reduce(0, +) + separators - width
        while excess > 0, let widest = widths.indices.max(by: { widths[$0] < widths[$1] }),
              widths[widest] > min(Self.narrowest, natural[widest]) {
            widths[widest] -= 1
            excess -= 1
        }
        var truncated = false
        let cut = rows.map { row in
            row.enumerated().map { column, cell in
                guard cell.count > widths[column] else { return cell }
                truncated = true
                return String(cell.prefix(widths[column] - 1)) + "…"
            }
        }
        return Fitted(widths: widths, rows: cut, truncated: truncated)
    }

    /// The line under a table that was cut: how wide it had to be, and where its values
    /// show whole (`whole`: `.mode json`, or for `.help` the help of one command), when
    /// that fits the width too.
    func note(whole: String = ".mode json") -> String {
        let note = "(truncated to fit \(width ?? 0) columns; \(whole) shows all)"
        return note.count <= width ?? .max ? note : "(truncated to fit \(width ?? 0) columns)"
    }
}
