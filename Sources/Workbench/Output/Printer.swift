import Foundation
import NormCache

/// Where the session's events go and how they look: renders each ``Event`` in the
/// current ``OutputMode`` and writes it whole, from any thread (watch emissions arrive
/// from the tasks that caused them). It remembers each watcher's last data, so an
/// emission prints as a diff against the one before, and follows `.output`/`.once`.
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

    /// `colour`: paint the tree and tables (a terminal without `NO_COLOR`).
    init(line: @escaping @Sendable (String) -> Void, error: @escaping @Sendable (String) -> Void, colour: Bool) {
        lineSink = line
        errorSink = error
        self.colour = colour
    }

    var mode: OutputMode {
        get { lock.withLock { _mode } }
        set { lock.withLock { _mode = newValue } }
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
            let (output, errors) = TextRenderer(tables: _mode == .table, style: TextStyle(colour: colour && file == nil)).render(event)
            for line in output { write(line) }
            for line in errors { errorSink(line) }
        }
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

    private func write(_ line: String) {
        if let file { file.write(Data((line + "\n").utf8)) } else { lineSink(line) }
    }
}
