import NormCache
import Testing
@testable import Workbench

/// Tables and column listings fit the terminal's width: the widest columns shrink, cut
/// cells end in `…`, and a note under the table says so; without a limit nothing changes.
@Suite struct TableLayoutTests {
    let plain = TextStyle(colour: false)
    /// A table with one wide column: a reference to a long key, and a long string.
    let header = ["field", "value"]
    let rows = [["name", "\"Lisbon\""], ["destination", "→ Destination:" + String(repeating: "x", count: 80)],
                ["description", "\"" + String(repeating: "A city of seven hills. ", count: 5) + "\""]]

    @Test func aTableWiderThan60ColumnsIsCutToFitWithANoteUnderIt() {
        let lines = TableView(style: plain, layout: TableLayout(width: 60)).lines(header: header, rows: rows)
        #expect(lines.allSatisfy { $0.count <= 60 }, "\(lines)")
        #expect(lines.dropLast().allSatisfy { $0.count == 60 }, "the table takes the whole width: \(lines)")
        #expect(lines.last == "(truncated to fit 60 columns; .mode json shows all)")
        #expect(lines.filter { $0.contains("…") }.count == 2, "the two long values are cut, once each")
        #expect(lines.contains("| name        | \"Lisbon\"" + String(repeating: " ", count: 34) + " |"), "short cells stay whole: \(lines)")
        #expect(lines.contains { $0.hasPrefix("| destination | → Destination:xxx") && $0.hasSuffix("x… |") })
    }

    @Test func aTableThatFits200ColumnsIsDrawnWhole() {
        let wide = TableView(style: plain, layout: TableLayout(width: 200)).lines(header: header, rows: rows)
        #expect(wide == TableView(style: plain, layout: .unlimited).lines(header: header, rows: rows))
        #expect(!wide.contains { $0.contains("…") || $0.contains("truncated") })
        #expect(wide.contains { $0.contains("→ Destination:" + String(repeating: "x", count: 80) + " ") })
    }

    @Test func theWidestColumnsShrinkFirstAndNoneBelowThreeCharacters() {
        let fitted = TableLayout(width: 20).fit([["id", "name", "city"], ["1", String(repeating: "n", count: 30), String(repeating: "c", count: 10)]], separators: 4)
        #expect(fitted.widths == [2, 7, 7], "the two wide columns share what is left; id keeps its width")
        #expect(fitted.rows[1] == ["1", "nnnnnn…", "cccccc…"])
        #expect(fitted.truncated)
        let narrow = TableLayout(width: 5).fit([["abcdef", "ghijkl"]], separators: 0)
        #expect(narrow.widths == [3, 3], "three characters at least, even when the row is wider than the limit then")
        #expect(narrow.rows == [["ab…", "gh…"]])
    }

    @Test func aRowThatFitsIsLeftAlone() {
        let fitted = TableLayout(width: 20).fit([["id", "name"], ["1", "a name too long to fit"]], separators: 2)
        #expect(fitted.rows == [["id", "name"], ["1", "a name too long…"]])
        let whole = TableLayout(width: 30).fit([["id", "name"], ["1", "a name"]], separators: 2)
        #expect(whole.rows == [["id", "name"], ["1", "a name"]] && !whole.truncated)
    }

    @Test func columnListingsCutTheirLastColumnAndSaySoInTheirOwnWords() {
        let help = [[".help [COMMAND]", "List the commands, or show one command's help"], [".quit", "Leave the workbench (also Ctrl-D)"]]
        let cut = TableView(style: plain, layout: TableLayout(width: 40)).columns(help, whole: ".help COMMAND")
        #expect(cut == [".help [COMMAND]  List the commands, or …", ".quit            Leave the workbench (a…",
                        "(truncated to fit 40 columns)"], "the full note does not fit 40 columns: \(cut)")
        let whole = TableView(style: plain, layout: TableLayout(width: 200)).columns(help, header: ["command", "does"])
        #expect(whole == ["command          does", ".help [COMMAND]  List the commands, or show one command's help",
                          ".quit            Leave the workbench (also Ctrl-D)"])
    }

    /// What the renderer draws as columns follows the layout it is given: `.keys` in table
    /// mode, the `.help` listing, `.watches`.
    @Test func theRendererFitsItsTablesAndListingsToTheLayout() {
        let key = "Trip:" + String(repeating: "9", count: 100)
        let narrow = TextRenderer(tables: true, style: plain, layout: TableLayout(width: 60))
        let keys = narrow.render(.keys(["Trip:1", key])).output
        #expect(keys.allSatisfy { $0.count <= 60 } && keys.last == "(truncated to fit 60 columns; .mode json shows all)", "\(keys)")
        let help = narrow.render(.help(CommandTable.commands)).output
        #expect(help.allSatisfy { $0.count <= 60 } && help.last == "(truncated to fit 60 columns; .help COMMAND shows all)")
        let wide = TextRenderer(tables: true, style: plain, layout: TableLayout(width: 200)).render(.keys(["Trip:1", key])).output
        #expect(wide.contains("| \(key) |"))
    }

    @Test func theWidthIsTheKernelsElseColumnsAndLines() {
        #expect(Terminal.size(kernel: (120, 40), environment: ["COLUMNS": "60", "LINES": "10"]) == (120, 40))
        #expect(Terminal.size(kernel: (0, 0), environment: ["COLUMNS": "60", "LINES": "10"]) == (60, 10))
        #expect(Terminal.size(kernel: (0, 0), environment: ["COLUMNS": "wide"]) == (nil, nil))
    }

    @Test func longOutputNeedsThePagerAsPsqlSays() {
        let size: Terminal.Size = (columns: 60, rows: 10)
        #expect(!Pager.isNeeded(for: Array(repeating: "line", count: 9), in: size), "nine lines and the prompt fit ten rows")
        #expect(Pager.isNeeded(for: Array(repeating: "line", count: 10), in: size))
        #expect(Pager.isNeeded(for: Array(repeating: String(repeating: "x", count: 121), count: 4), in: size), "each line takes three rows")
        #expect(!Pager.isNeeded(for: Array(repeating: "\u{1B}[1m" + String(repeating: "x", count: 60) + "\u{1B}[0m", count: 9), in: size),
                "colour takes no room")
        #expect(!Pager.isNeeded(for: Array(repeating: "line", count: 100), in: (columns: 60, rows: nil)))
        #expect(Pager.isNeeded(for: Array(repeating: String(repeating: "x", count: 200), count: 10), in: (columns: nil, rows: 10)),
                "a line a row, when the terminal does not say how wide it is")
    }

    @Test func thePagerIsPagerElseLess() {
        #expect(Pager.fromEnvironment([:])?.command == "less -FRX")
        #expect(Pager.fromEnvironment(["PAGER": "most"])?.command == "most")
        #expect(Pager.fromEnvironment(["PAGER": ""]) == nil)
        #expect(Pager.fromEnvironment(["PAGER": " cat "]) == nil)
    }
}
