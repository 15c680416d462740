import CEdit
import Foundation

/// Interactive input through libedit: emacs keys, a prompt, Tab completion (``Completion``),
/// Ctrl-C that gives up the line being typed, Ctrl-Z that stops the workbench until `fg`,
/// a redraw when the terminal is resized, and history that persists in a file
/// (``UserFiles/history``; at most ``historySize`` lines, none that ``HistoryFilter`` keeps
/// out, none while `records` says no: `.history off`). Other threads print through its
/// ``Console`` meanwhile, above the prompt.
///
/// ```swift
/// let editor = LineEditor(historyFile: ("/tmp/history", "/tmp/history"), console: console, records: { true }) { Completion(for: $0, in: session) }
/// editor?.read(continuing: false)   // .line(".help"), .interrupted (Ctrl-C) or .end (Ctrl-D)
/// ```
final class LineEditor: LineSource {
    static let historySize: Int32 = 1000

    private let editor: OpaquePointer
    private let history: OpaquePointer
    /// Where each line kept is saved.
    private let historyPath: String?
    /// Whether lines are kept in the history now.
    private let records: () -> Bool
    private let console: Console
    private let complete: (String) -> Completion
    /// What libedit's prompt callback returns; replaced by each ``read(continuing:)``.
    private var prompt: UnsafeMutablePointer<CChar>?

    /// `nil` when libedit cannot start (no terminal). `historyFile`: the file to load, and the
    /// one to save to (its folder is made when missing); `complete` gets the line up to the cursor.
    init?(historyFile: (load: String, save: String)?, console: Console, records: @escaping () -> Bool,
          complete: @escaping (String) -> Completion) {
        setlocale(LC_CTYPE, "")   // keys beyond ASCII decode as the user's locale says
        guard let editor = nc_edit_open("normcache", { LineEditor.owning($0).prompt }) else { return nil }
        guard let history = nc_history_open(Self.historySize) else {
            el_end(editor)
            return nil
        }
        self.editor = editor
        self.history = history
        historyPath = historyFile?.save
        self.records = records
        self.console = console
        self.complete = complete
        nc_edit_set_client(editor, Unmanaged.passUnretained(self).toOpaque())
        nc_edit_use_history(editor, history)
        nc_edit_use_reader(editor) { editor, character in LineEditor.owning(editor).readKey(into: character!) }
        nc_edit_bind(editor, "nc-complete", "Complete the word before the cursor",
                     { editor, _ in LineEditor.owning(editor).completeWord() }, "^I")
        nc_edit_source_defaults(editor)   // last: the user's ~/.editrc wins
        if let (load, save) = historyFile {
            _ = nc_history_load(history, load)
            try? FileManager.default.createDirectory(atPath: (save as NSString).deletingLastPathComponent,
                                                     withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
    }

    deinit {
        el_end(editor)
        history_end(history)
        free(prompt)
    }

    func read(continuing: Bool) -> LineInput {
        // A Ctrl-C since the last line either cancelled the command that line ran, and is
        // spent, or came while a line of an operation was taken in, and gives that up.
        if nc_edit_take_interrupt() != 0, continuing { return interrupted() }
        free(prompt)
        prompt = strdup(continuing ? REPL.continuationPrompt : REPL.prompt)
        var count: Int32 = 0
        let caught = nc_edit_catch_signals()
        let line = console.editing(with: self) { el_gets(editor, &count).map { String(cString: $0) } }
        nc_edit_release_signals(caught)
        guard var text = line, count > 0 else { return nc_edit_take_interrupt() != 0 ? interrupted() : .end }
        if text.hasSuffix("\n") { text.removeLast() }
        if records(), HistoryFilter.keeps(text) {
            nc_history_add(history, text)
            if let historyPath { _ = nc_history_save(history, historyPath) }
        }
        return .line(text)
    }

    /// Draws the prompt and the line being typed again on the cursor's line, cleared
    /// first: after other output, or a signal (a resize, fg), moved the cursor.
    func redraw() {
        fputs("\r\u{1B}[K", nc_edit_stdout())
        nc_edit_redraw(editor)
    }

    /// Ctrl-C gave up the line: the next prompt starts on a line of its own.
    private func interrupted() -> LineInput {
        console.line("")
        return .interrupted
    }

    /// The editor whose libedit handle calls back.
    private static func owning(_ editor: OpaquePointer?) -> LineEditor {
        Unmanaged<LineEditor>.fromOpaque(nc_edit_client(editor)).takeUnretainedValue()
    }

    /// libedit's reader: one key, read with the console let go.
    private func readKey(into character: UnsafeMutablePointer<wchar_t>) -> Int32 {
        while true {
            let read = console.whileWaiting { nc_edit_read_char(character) }
            guard read == NC_EDIT_READ_AGAIN else { return read }
            nc_edit_handle_signals(editor)
            redraw()
        }
    }

    /// Tab: inserts what the word before the cursor completes to, or lists the candidates.
    private func completeWord() -> UInt8 {
        let line = el_line(editor).pointee
        let typed = String(decoding: UnsafeRawBufferPointer(start: line.buffer, count: line.cursor - line.buffer), as: UTF8.self)
        // Finding candidates reads the session, whose threads may be waiting to print.
        switch console.whileWaiting({ complete(typed) }).action {
        case .insert(let text):
            el_insertstr(editor, text)
            return UInt8(CC_REFRESH)
        case .list(let candidates):
            let rows = Completion.columns(candidates, width: Int(nc_edit_columns(editor)))
            fputs("\n" + rows.joined(separator: "\n") + "\n", nc_edit_stdout())
            return UInt8(CC_REDISPLAY)
        case .none:
            return UInt8(CC_REFRESH_BEEP)
        }
    }
}
