import Foundation

/// The pager that a command's output longer than the terminal goes through, as psql's:
/// `$PAGER`, `less -FRX` when it is not set, none when it is set empty or to `cat`. Only
/// an interactive session has one (``REPL``); ``Printer`` decides when to use it
/// (`.pager on|off`).
///
/// The pager reads the output from a file already unlinked, so it may stop reading
/// early (`q` in less) without the workbench writing into a closed pipe; it runs in the
/// workbench's process group, in the foreground, so keys and Ctrl-C reach it, and the
/// line editor takes the terminal again at the next prompt.
///
/// ```swift
/// let pager = Pager.fromEnvironment(["PAGER": "less -S"])   // Pager(command: "less -S")
/// if Pager.isNeeded(for: lines, in: (columns: 80, rows: 24)) { _ = pager?.show(lines) }
/// ```
struct Pager: Sendable {
    /// A shell command line, run with `/bin/sh -c`.
    let command: String

    static let defaultCommand = "less -FRX"

    /// The pager `PAGER` names; nil when it names none (empty, or `cat`).
    static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Pager? {
        let command = environment["PAGER"].map { String($0.trimmingWhitespace) } ?? defaultCommand
        return command.isEmpty || command == "cat" ? nil : Pager(command: command)
    }

    /// Whether `lines` need the pager in a terminal of `size`: when they take as many rows
    /// as it has or more (a line wider than it takes several; the prompt after them needs one).
    /// A terminal that does not say how many rows it has is never paged.
    static func isNeeded(for lines: [String], in size: Terminal.Size) -> Bool {
        guard let rows = size.rows else { return false }
        var taken = 0
        for line in lines {
            taken += size.columns.map { columns in max(1, (visibleCount(line) + columns - 1) / max(1, columns)) } ?? 1
            if taken >= rows { return true }
        }
        return false
    }

    /// The characters of `line` that show: its colour escapes (`ESC [ … m`) take no room.
    static func visibleCount(_ line: String) -> Int {
        var count = 0, escaping = false
        for character in line.unicodeScalars {
            if escaping { escaping = character != "m" } else if character == "\u{1B}" { escaping = true } else { count += 1 }
        }
        return count
    }

    /// Shows `lines` through the pager and waits for it to end; false when it could not
    /// run (its shell found no such command, or no file could be made), so the caller prints them.
    func show(_ lines: [String]) -> Bool {
        var template = Array((FileManager.default.temporaryDirectory.path + "/normcache-page-XXXXXX").utf8CString)
        let file = mkstemp(&template)
        guard file >= 0 else { return false }
        defer { close(file) }
        unlink(template)   // the pager keeps it open; nothing is left behind
        let text = Array((lines.joined(separator: "\n") + "\n").utf8)
        guard text.withUnsafeBytes({ write(file, $0.baseAddress, $0.count) }) == text.count, lseek(file, 0, SEEK_SET) == 0 else { return false }
        fflush(nil)   // what was printed before stays before
        guard case .success(let child) = Shell.start(command, input: file) else { return false }
        return Shell.exitStatus(of: child, waiting: true) != 127   // 127: the shell found no such command
    }
}
