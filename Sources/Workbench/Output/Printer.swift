import CEdit
import Foundation
import NormCache

/// Where the session's events go and how they look: renders each ``Event`` in the
/// current ``OutputMode`` and writes it whole, from any thread (watch emissions arrive
/// from the tasks that caused them). It remembers each watcher's last data, so an
/// emission prints as a diff against the one before, and follows `.output`/`.once`.
///
/// On a terminal, tables fit its width as it is when each is drawn (``TableLayout``), and
/// in an interactive session a command's output longer than the terminal goes through the
/// ``Pager`` (`.pager on|off`): it is held from the command's start to its end
/// (``startPaging()``, ``finishPaging()``), and what other threads print meanwhile waits
/// for the pager to end. JSON and output sent to a file are never cut or paged.
///
/// ```swift
/// let printer = Printer(line: { print($0) }, error: { print($0) }, colour: false)
/// printer.mode = .json
/// printer.emit(.keys(["Trip:1"]))   // {"event":"keys","keys":["Trip:1"]}
/// ```
final class Printer: @unchecked Sendable {
    private let lock = NSLock()
    private let lineSink: @Sendable (String) -> Void
    private let errorSink: @Sendable (String) -> Void
    private let colour: Bool
    /// Standard output's terminal, when it is one and the lines go there.
    private let terminal: Terminal?
    /// The pager of an interactive session.
    private let pager: Pager?
    /// The lines of the command running, held for the pager; nil when not held.
    private var page: [String]?
    private var _pages = true
    private var _mode = OutputMode.tree
    /// `.output FILE` or `.once FILE`: where output goes instead of the line sink.
    private var file: FileHandle?
    /// `.once`: the file takes the output of the command after the one that set it.
    private var onceState = Once.none

    private enum Once { case none, armed, running }
    private var lastData: [Int: CacheValue] = [:]
    private var _emitted = 0
    /// The events printed since ``forgetPrinted()``; the first of them was number `recentStart`.
    private var recent: [Event] = []
    private var recentStart = 0

    /// `colour`: paint the tree and tables (a terminal without `NO_COLOR`); `terminal`:
    /// the one `line` writes to, if any; `pager`: the interactive session's.
    init(line: @escaping @Sendable (String) -> Void, error: @escaping @Sendable (String) -> Void, colour: Bool,
         terminal: Terminal? = nil, pager: Pager? = nil) {
        lineSink = line
        errorSink = error
        self.colour = colour
        self.terminal = terminal
        self.pager = pager
    }

    var mode: OutputMode {
        get { lock.withLock { _mode } }
        set { lock.withLock { _mode = newValue } }
    }

    /// `.pager on|off`: whether long output goes through the pager, when there is one.
    var pages: Bool {
        get { lock.withLock { _pages } }
        set { lock.withLock { _pages = newValue } }
    }

    /// How many events have printed so far: a command that printed none says `ok` in JSON mode.
    var emitted: Int { lock.withLock { _emitted } }

    /// Runs before an event that is not a watcher's is printed: the app hands the client's
    /// queued watch events over first (``Client/deliverWatchEvents()``), so what a command
    /// reports follows the emissions its writes caused, in the order things happened.
    var beforeOutput: (@Sendable () -> Void)? {
        get { lock.withLock { _beforeOutput } }
        set { lock.withLock { _beforeOutput = newValue } }
    }
    private var _beforeOutput: (@Sendable () -> Void)?

    func emit(_ event: Event) {
        if !event.isWatcherEvent { beforeOutput?() }   // outside the lock: what it hands over prints through here
        lock.withLock {
            _emitted += 1
            var event = event
            if case .watch(let id, let operation, let number, let emission, _) = event {
                event = .watch(id: id, operation: operation, number: number, emission: emission, previous: lastData[id])
                lastData[id] = emission.result.data ?? .null
            }
            recent.append(event)
            if _mode == .json { return write(JSONRenderer.line(event)) }
            let layout = TableLayout(width: file == nil ? terminal?.size.columns : nil)   // the width now: the window may have changed
            let (output, errors) = TextRenderer(tables: _mode == .table, style: TextStyle(colour: colour && file == nil), layout: layout).render(event)
            for line in output { write(line) }
            for line in errors { errorSink(line) }
        }
    }

    /// Prints the watch events queued so far and pushes out what the process's standard
    /// streams hold: for what a thread of its own printed between commands (a followed
    /// file's changes), so that a program reading the workbench through a pipe sees it
    /// when it happens, not with its next command's reply.
    func flush() {
        beforeOutput?()
        fflush(nc_edit_stdout())   // not fflush(nil): that waits for standard input's lock, held by a read
        fflush(nc_edit_stderr())
    }

    /// The events printed since event number `count` (``emitted`` then), that are still kept.
    func printed(since count: Int) -> [Event] {
        lock.withLock { Array(recent.dropFirst(max(0, count - recentStart))) }
    }

    /// Lets go of the events printed so far.
    func forgetPrinted() {
        lock.withLock {
            recentStart = _emitted
            recent = []
        }
    }

    /// Sends output to `file` (nil: back to the line sink); `once`: for the next command only.
    func redirect(to file: FileHandle?, once: Bool = false) {
        lock.withLock {
            if self.file !== file { try? self.file?.close() }
            self.file = file
            onceState = once ? .armed : .none
        }
    }

    /// A command finished: the one after `.once` ends its redirection.
    func commandFinished() {
        lock.withLock {
            switch onceState {
            case .none: return
            case .armed: onceState = .running
            case .running:
                try? file?.close()
                file = nil
                onceState = .none
            }
        }
    }

    /// A command starts: its output is held for the pager, if it may go there.
    func startPaging() {
        lock.withLock {
            guard _pages, pager != nil, terminal != nil, _mode != .json, file == nil else { return }
            page = []
        }
    }

    /// The command ended: what it printed goes through the pager when it is longer than the
    /// terminal (holding the lock, so that other threads' output waits), else straight out.
    func finishPaging() {
        lock.withLock {
            guard let lines = page else { return }
            page = nil
            if let pager, let terminal, Pager.isNeeded(for: lines, in: terminal.size), pager.show(lines) { return }
            for line in lines { lineSink(line) }
        }
    }

    private func write(_ line: String) {
        if let file { file.write(Data((line + "\n").utf8)) } else if page != nil { page?.append(line) } else { lineSink(line) }
    }
}
