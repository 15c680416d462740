import CEdit
import Foundation

/// The workbench's standard output and error, shared by every thread that prints and by
/// the line editor. One writer at a time: the editor holds the console while it edits,
/// and lets go only while it waits (for a key, for completions). A line printed then
/// goes above the prompt, which is drawn again with what was typed so far.
///
/// ```swift
/// let console = Console()
/// let session = try Session(output: console.line, errors: console.error)
/// // on a watcher's thread, while the prompt waits:
/// console.line("watcher 1 …")   // clears the prompt line, prints, redraws "normcache> .ke"
/// ```
final class Console: @unchecked Sendable {
    private let lock = NSLock()
    /// The editor while it reads a line; guarded by `lock`.
    private var editor: LineEditor?

    /// Prints a line on standard output.
    func line(_ text: String) { write(text, to: nc_edit_stdout()) }

    /// Prints a line on standard error, after what standard output holds (they stay in order).
    func error(_ text: String) { write(text, to: nc_edit_stderr()) }

    private func write(_ text: String, to stream: UnsafeMutablePointer<FILE>) {
        lock.withLock {
            let output = nc_edit_stdout()
            if stream != output { fflush(output) }
            guard let editor else {
                fputs(text + "\n", stream)
                return
            }
            fputs("\r\u{1B}[K", output)   // the prompt line, which is drawn again below
            fflush(output)
            fputs(text + "\n", stream)
            fflush(stream)
            editor.redraw()
        }
    }

    /// Runs `body`, in which `editor` reads a line, holding the console except while
    /// ``whileWaiting(_:)`` lets go of it.
    func editing<T>(with editor: LineEditor, _ body: () -> T) -> T {
        lock.withLock {
            self.editor = editor
            defer { self.editor = nil }
            return body()
        }
    }

    /// Lets other threads print while `body` waits (called from inside ``editing(with:_:)``).
    func whileWaiting<T>(_ body: () -> T) -> T {
        lock.unlock()
        defer { lock.lock() }
        return body()
    }
}
