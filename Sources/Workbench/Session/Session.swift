import Foundation
import Logging
import NormCache
import NormClient
import NormPluginHost
import NormEnvironment
import Synchronization

/// The state of one workbench session and the interpreter of its input lines.
///
/// A session is fed one line at a time, from libedit, a pipe, a script or a test, and
/// reports what happens as ``Event``s through its ``Printer``, so tests can run it
/// without a terminal. It owns the app the workbench shows: the ``Environment`` with the
/// client and the utilities, the plugins and their services, the current endpoint; it
/// holds the user's ``SessionSettings`` (fetch policy, variables, `.echo`, …).
///
/// In batch mode each line's consequences (its requests, the refetches they trigger,
/// every watcher emission) are finished before ``execute(_:at:)`` returns, so scripts
/// are deterministic.
///
/// ```swift
/// let session = try Session(output: { print($0) }, errors: { print($0) })
/// session.execute("trips.list")
/// session.execute(#"trips.rename 2 "Porto""#)   // the TripList watcher prints what changed
/// session.execute(".quit")
/// session.isFinished   // true
/// ```
package final class Session {
    let printer: Printer
    /// The app: cache scope, client, Environment, plugins and endpoint.
    let app: App
    /// Failures, expectations and what they look at.
    let ledger = ExpectationLedger()
    /// Batch mode waits for each command's background fetches and emissions before the
    /// next line; interactively they print whenever they happen (``SessionOptions``).
    let settlesEachCommand: Bool
    /// True once `.quit` ran, or a failure under `.bail on`; the caller stops reading.
    package private(set) var isFinished = false
    /// How many commands failed, and how many expectations.
    package var failures: Int { ledger.failures }
    package var failedExpectations: Int { ledger.failedExpectations }
    /// The exit status of a batch run: 2 when a command failed, 1 when only an expectation did, else 0.
    package var exitStatus: Int32 { ledger.exitStatus }

    var client: Client { app.client }
    var plugins: PluginHost { app.plugins }
    var scope: CacheScope { app.scope }
    var endpoint: (any Transport)? {
        get { app.endpoint }
        set { app.endpoint = newValue }
    }
    var lastResult: ClientResult? {
        get { ledger.lastResult }
        set { ledger.lastResult = newValue }
    }
    /// The last operation run, and why its cache read missed what it did, for `.why`.
    var lastOperation: OperationRun?
    /// The pagers `.pager` started (Apollo iOS's pager), by id: their first page's watcher's.
    var pagers: [Int: QueryPager] = [:]
    /// What the settings commands change: variables, policy, `.echo`, `.bail`, … .
    var settings: SessionSettings {
        didSet { if settings.monitors != oldValue.monitors { monitorCache() } }
    }
    /// The line running now, when it came from a file (for messages and `.read`'s relative paths).
    var location: SourceLocation?
    /// `.nowait COMMAND`: that command's fetches go on while the next lines run.
    var skipsSettling = false
    /// How many commands are running inside each other (`.nowait`, `.read`).
    private var attemptDepth = 0
    /// How many scripts are running inside each other (`.read`).
    var scriptDepth = 0
    /// A GraphQL operation being typed over several lines, until its braces balance, and where it began.
    private var pendingOperation: (text: String, start: SourceLocation?)?
    /// The work ``wait(_:)`` is waiting for; nil once ``interrupt()`` cancelled it.
    let running = Mutex<Task<Void, Never>?>(nil)
    /// `.follow on`: the cache file followed while another process writes it.
    var following: Following?
    /// `.subscribe`: the subscriptions running, and those that ended.
    let subscriptions = Subscriptions()

    /// A session over the cache `options` describe, with the plugins they name loaded;
    /// throws when that cache cannot open (a bad file, a lock held too long), naming the
    /// file and the problem. A plugin that fails to load is reported, not thrown.
    package init(options: SessionOptions = SessionOptions(), output: @escaping @Sendable (String) -> Void,
                errors: @escaping @Sendable (String) -> Void) throws {
        let printer = Printer(line: output, error: errors, colour: options.colour, terminal: options.terminal, pager: options.pager)
        printer.mode = options.mode
        self.printer = printer
        settlesEachCommand = options.settlesEachCommand
        settings = SessionSettings(options: options)
        ledger.watchLog.limit = options.watchLog
        app = try App(options: options, printer: printer, ledger: ledger)
        reportOpened(atStart: true)
        for failure in app.loadFailures { warn("\(failure)") }
        if options.loadsBundledPlugins, plugins.plugins.isEmpty, app.loadFailures.isEmpty {
            warn(TextRenderer.noPlugins(searched: plugins.searched))
        }
        for warning in app.project?.warnings ?? [] { warn("\(warning)") }
        if options.follows { try startFollowing() }
    }

    deinit { following?.stop() }

    /// Says what the cache is over and prints the warnings of opening it; `atStart`: the
    /// session's own, not a command's.
    func reportOpened(atStart: Bool = false) {
        let count = scope.cache.recordCount
        if scope.store != nil {
            printer.emit(.cache(description: scope.description, records: count, atStart: atStart))
        }
        for warning in scope.warnings { warn(warning) }
        applyKeyFieldsTheFileShows()
        monitorCache()
    }

    func warn(_ text: String) { printer.emit(.warning(text)) }

    /// Runs one line of input: a dot-command, a service command (`trips.rename 2 Porto`),
    /// a GraphQL operation (continued over lines until its braces balance), a `#` comment
    /// or a blank line. `location` names the line when it comes from a file.
    package func execute(_ line: String) { execute(line, at: nil) }

    func execute(_ line: String, at location: SourceLocation?) {
        self.location = location
        if let pending = pendingOperation {
            return continueOperation(pending.text + "\n" + line, start: pending.start)
        }
        let text = line.trimmingWhitespace
        guard !text.isEmpty, !text.hasPrefix("#") else { return }
        if settings.echoes { printer.emit(.echo(line: line)) }
        ledger.lineStarted()
        if GraphQLInput.starts(text) { return continueOperation(String(text), start: location) }
        let name = text.hasPrefix(".") ? "." + text.dropFirst().prefix { !$0.isSpace } : nil
        attempt(command: name) {
            if let name {
                guard let command = CommandTable.command(named: String(name.dropFirst())) else { throw unknownCommand(String(name.dropFirst())) }
                try command.run(self, try CommandInput(text.dropFirst(name.count), synopsis: command.synopsis))
            } else {
                try runServiceCommand(text)
            }
        }
    }

    /// Whether a GraphQL operation is still being typed (the prompt shows it).
    package var isContinuing: Bool { pendingOperation != nil }

    /// The lines taken in so far of a GraphQL operation being typed over several lines (Tab completes from them).
    var operationSoFar: String? { pendingOperation?.text }

    /// Ctrl-C at the prompt: forgets the GraphQL operation being typed over several lines.
    package func abandonInput() { pendingOperation = nil }

    /// The input ended (a script, a pipe): an operation whose braces never closed is a failure.
    func endInput() {
        guard let pending = pendingOperation else { return }
        pendingOperation = nil
        ledger.commandFailed()
        printer.emit(.error(message: "the input ended inside a GraphQL operation: its braces never close", at: pending.start,
                            source: SourceText(text: pending.text, line: 1, column: 1)))
    }

    private func continueOperation(_ text: String, start: SourceLocation?) {
        guard GraphQLInput.isComplete(text) else {
            pendingOperation = (text, start)
            return
        }
        pendingOperation = nil
        location = start
        attempt(command: nil, source: text) { try runOperation(text) }
    }

    /// Runs `body`, reporting a failure (with a caret under the place in `source`, the
    /// GraphQL text, when the failure has one); then lets the consequences finish. A
    /// dot-command (`command`) that printed nothing says `ok` in JSON mode.
    private func attempt(command: String?, source: String? = nil, _ body: () throws -> Void) {
        let started = ContinuousClock.now
        let printed = printer.emitted
        let failed: String?
        attemptDepth += 1
        defer { attemptDepth -= 1 }
        if attemptDepth == 1 { printer.startPaging() }
        do {
            try body()
            failed = nil
        } catch {
            ledger.commandFailed()
            failed = "\(error)"
            let place = source.flatMap { Self.place(of: error, in: $0) }
            // A place inside a multi-line operation is a line of the script further down.
            let at = location.map { SourceLocation(file: $0.file, line: $0.line + (place?.line ?? 1) - 1) }
            printer.emit(.error(message: "\(error)", at: at, source: place))
            if settings.bails { finish() }
        }
        if settlesEachCommand, !skipsSettling { settle() }
        if attemptDepth == 1 { skipsSettling = false }   // the line `.nowait` ran on is over
        if let command, failed == nil, printer.mode == .json, printer.emitted == printed { printer.emit(.ok(command: command)) }
        // What the engine said of the writes the command caused (an object stored under its
        // path key, a record that changed type), once each, after the command's own output.
        for warning in scope.cache.takeWarnings() { warn(warning) }
        if settings.times {
            let elapsed = (ContinuousClock.now - started).components
            let ms = Double(elapsed.seconds) * 1000 + Double(elapsed.attoseconds) / 1e15
            printer.emit(.timer(milliseconds: ms))
        }
        printer.commandFinished()
        if !ledger.isExpecting {
            ledger.commandFinished(failure: failed, output: printer.printed(since: printed))
            printer.forgetPrinted()
        }
        if attemptDepth == 1 { printer.finishPaging() }
    }

    /// Where in the GraphQL `text` a syntax error is, for a caret under it.
    private static func place(of error: any Error, in text: String) -> SourceText? {
        let place: (line: Int?, column: Int?)? = switch error {
        case CacheError.operation(let problem): (problem.line, problem.column)
        case let invalid as InvalidOperation: invalid.problems.first.map { ($0.line, $0.column) }
        default: nil
        }
        guard let line = place?.line, let column = place?.column else { return nil }
        return SourceText(text: text, line: line, column: column)
    }

    /// Counts an expectation that did not hold; under `.bail on` the run stops.
    func expectationFailed() {
        ledger.expectationFailed()
        if settings.bails { finish() }
    }

    func finish() { isFinished = true }

    /// Prints every commit's changes while `.monitor` is on (the cache may have been replaced).
    private func monitorCache() {
        guard settings.monitors else { return scope.cache.monitor(nil) }
        let printer = self.printer
        scope.cache.monitor { printer.emit(.write($0)) }
    }
}
