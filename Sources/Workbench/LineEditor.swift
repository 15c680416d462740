import CEdit
import Foundation

/// The prompt libedit shows; libedit asks for it through a C callback with no context,
/// so the current text lives here. Only the REPL's thread touches it.
nonisolated(unsafe) private var promptText: UnsafeMutablePointer<CChar>? = nil

/// Interactive input through libedit: emacs keys, a prompt, and history that persists
/// in `~/.normcache_history` (at most ``historySize`` lines).
final class LineEditor: LineSource {
    static let historySize: Int32 = 1000

    private let editor: OpaquePointer
    private let history: OpaquePointer
    private let historyPath: String?

    /// `nil` when libedit cannot start (no terminal).
    init?(historyPath: String?) {
        guard let editor = nc_edit_open("normcache", { _ in promptText }) else { return nil }
        guard let history = nc_history_open(Self.historySize) else {
            el_end(editor)
            return nil
        }
        nc_edit_use_history(editor, history)
        nc_edit_source_defaults(editor)
        self.editor = editor
        self.history = history
        self.historyPath = historyPath
        if let historyPath { _ = nc_history_load(history, historyPath) }
    }

    deinit {
        el_end(editor)
        history_end(history)
        free(promptText)
        promptText = nil
    }

    func nextLine(prompt: String) -> String? {
        free(promptText)
        promptText = strdup(prompt)
        var count: Int32 = 0
        guard let line = el_gets(editor, &count), count > 0 else { return nil }
        var text = String(cString: line)
        if text.hasSuffix("\n") { text.removeLast() }
        if !text.allSatisfy(\.isWhitespace) {
            nc_history_add(history, text)
            if let historyPath { _ = nc_history_save(history, historyPath) }
        }
        return text
    }
}
