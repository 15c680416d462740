import Foundation
import Synchronization
import Logging
import NormCache
import NormClient
import NormEnvironment

/// The state of one workbench session and the interpreter of its input lines.
///
/// A session is fed one line at a time, from libedit, a pipe or a test, and writes
/// through the sinks it was given, so tests can run it without a terminal. It owns the
/// app the workbench shows: the ``Environment`` with the client and the utilities, the
/// plugins and their services, the current endpoint, fetch policy and variables.
///
/// Each line's consequences (its requests, the refetches they trigger, every watcher
/// emission) are finished before ``execute(_:)`` returns, so scripts are deterministic.
///
/// ```swift
/// let session = try Session(output: { print($0) }, errors: { print($0) })
/// session.execute("trips.list")
/// session.execute(#"trips.rename 2 "Porto""#)   // the TripList watcher prints its new data
/// session.execute(".quit")
/// session.isFinished   // true
/// ```
public final class Session {
    let output: Output
    /// Batch mode waits for each command's background fetches and emissions before the
    /// next line; interactively they print whenever they happen (``SessionOptions``).
    let settlesEachCommand: Bool
    /// True once `.quit` ran; the caller stops reading.
    public private(set) var isFinished = false
    /// How many commands failed, for the exit status of a non-interactive run.
    public private(set) var failures = 0

    /// The cache the commands work on, and where it persists.
    let scope: CacheScope
    let environment = Environment()
    let client: Client
    let plugins: PluginHost
    /// Where operations typed or run by name go; the first plugin loaded until `.use` or `.endpoint`.
    var endpoint: (any Transport)?
    var variables = CacheObject()
    var policy = FetchPolicy.cacheFirst
    /// The optimistic response for the next mutation (`.optimistic`), used once.
    var optimistic: CacheObject?
    /// The last operation's result, for `.expect` and inspection.
    var lastResult: ClientResult?
    /// A GraphQL operation being typed over several lines, until its braces balance.
    private var pendingOperation: String?

    /// A session over the cache `options` describe, with the plugins they name loaded;
    /// throws when that cache cannot open (a bad file, a lock held too long), naming the
    /// file and the problem. A plugin that fails to load is reported, not thrown.
    public init(options: SessionOptions = SessionOptions(), output: @escaping @Sendable (String) -> Void,
                errors: @escaping @Sendable (String) -> Void) throws {
        let output = Output(line: output, error: errors)
        self.output = output
        settlesEachCommand = options.settlesEachCommand
        scope = try CacheScope(options: options)
        client = Client(cache: scope.cache)
        environment.set(client)
        environment.set(client.network)
        var logger = Logger(label: "normcache")
        logger.logLevel = .warning   // plugins' errors and warnings reach standard error; info stays quiet
        environment.set(logger)
        environment.set(CacheFiles(directory: options.cacheDirectory))
        plugins = PluginHost(client: client, environment: environment, events: PluginHost.Events(
            watch: { watch, event in output.line(Rendering.watchEvent(event, of: watch)) },
            state: { service, state, detail in output.line(Rendering.state(service: service, state: state, detail: detail)) }
        ))
        reportOpened()
        var failures: [PluginError] = []
        if options.loadsBundledPlugins { failures += plugins.loadDirectory(PluginHost.bundledDirectory) }
        for directory in options.pluginDirectories { failures += plugins.loadDirectory(directory, everySharedLibrary: true) }
        for failure in failures { warn("\(failure)") }
        endpoint = try options.endpoint.map(HTTPEndpoint.transport(for:)) ?? plugins.plugins.first?.endpoint
    }

    deinit { plugins.unloadAll() }

    /// Says what the cache is over and prints the warnings of opening it.
    func reportOpened() {
        let count = scope.cache.statistics.records
        if scope.store != nil { write("cache: \(scope.description), \(count) record\(count == 1 ? "" : "s")") }
        for warning in scope.warnings { warn(warning) }
    }

    func warn(_ text: String) { output.error("warning: " + text) }

    /// Runs one line of input: a dot-command, a service command (`trips.rename 2 Porto`),
    /// a GraphQL operation (continued over lines until its braces balance), a `#` comment
    /// or a blank line.
    public func execute(_ line: String) {
        if let pending = pendingOperation {
            return continueOperation(pending + "\n" + line)
        }
        let text = line.trimmingWhitespace
        guard !text.isEmpty, !text.hasPrefix("#") else { return }
        isExpecting = false
        if GraphQLInput.starts(text) { return continueOperation(String(text)) }
        attempt {
            if text.hasPrefix(".") {
                let body = text.dropFirst()
                let name = body.prefix { !$0.isWhitespace }
                guard let command = CommandTable.command(named: String(name)) else { throw unknownCommand(String(name)) }
                try command.run(self, try CommandInput(body.dropFirst(name.count), synopsis: command.synopsis))
            } else {
                try runServiceCommand(text)
            }
        }
    }

    /// Whether a GraphQL operation is still being typed (the prompt shows it).
    public var isContinuing: Bool { pendingOperation != nil }

    /// Ctrl-C at the prompt: forgets the GraphQL operation being typed over several lines.
    public func abandonInput() { pendingOperation = nil }

    private func continueOperation(_ text: String) {
        guard GraphQLInput.isComplete(text) else {
            pendingOperation = text
            return
        }
        pendingOperation = nil
        attempt { try runOperation(text) }
    }

    /// Runs `body`, reporting a failure; then lets the consequences finish.
    private func attempt(_ body: () throws -> Void) {
        let failed: String?
        do {
            try body()
            failed = nil
        } catch {
            failures += 1
            failed = "\(error)"
            output.error("error: \(error)")
        }
        if settlesEachCommand { settle() }
        if !isExpecting {
            lastFailure = failed
            lastFailureExcused = false
        }
    }

    /// The message of the last command that failed, if the last command failed (`.expect error`).
    private(set) var lastFailure: String?
    private var lastFailureExcused = false
    private var isExpecting = false

    /// `.expect error` was written for the last failure: it no longer counts against the run.
    func excuseLastFailure() {
        isExpecting = true
        if lastFailure != nil, !lastFailureExcused {
            failures -= 1
            lastFailureExcused = true
        }
    }

    func finish() { isFinished = true }

    func write(_ text: String) { output.line(text) }

    /// Runs async work to its end (the workbench reads its next line only then), or
    /// until ``interrupt()`` cancels it: then it throws ``CommandError`` "interrupted".
    func wait<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        let task = Task {
            box.result = await Result(catching: body)
            done.signal()
        }
        running.withLock { $0 = task }
        done.wait()
        let interrupted = running.withLock { running in
            defer { running = nil }
            return running == nil
        }
        if interrupted, case .failure = box.result! { throw CommandError("interrupted") }
        return try box.result!.get()
    }

    /// The work ``wait(_:)`` is waiting for; nil once ``interrupt()`` cancelled it.
    private let running = Mutex<Task<Void, Never>?>(nil)

    /// Ctrl-C: cancels the request or command in flight; the session stays usable and its
    /// next line runs as usual. Safe to call from any thread, e.g. a signal handler's queue.
    public func interrupt() {
        running.withLock { task in
            task?.cancel()
            task = nil
        }
    }

    /// Waits for the fetches and refetches the last command set off.
    func settle() {
        let client = self.client
        _ = try? wait { await client.settle() }
    }

    func showHelp(for name: String?) throws(CommandError) {
        guard let name else {
            let width = CommandTable.commands.map(\.synopsis.count).max() ?? 0
            for command in CommandTable.commands {
                write(command.synopsis.padding(toLength: width + 2, withPad: " ", startingAt: 0) + command.help)
            }
            return
        }
        let bare = name.hasPrefix(".") ? String(name.dropFirst()) : name
        guard let command = CommandTable.command(named: bare) else { throw unknownCommand(bare) }
        write(command.synopsis)
        write("  " + command.help)
        if !command.aliases.isEmpty { write("  also: " + command.aliases.map { "." + $0 }.joined(separator: ", ")) }
    }

    private func unknownCommand(_ name: String) -> CommandError {
        let suggestions = CommandTable.suggestions(for: name).map { "." + $0 }
        let hint = suggestions.isEmpty ? "" : "; did you mean \(suggestions.joined(separator: " or "))?"
        return CommandError("unknown command \".\(name)\"\(hint) (.help lists the commands)")
    }
}

/// The session's two sinks, safe to call from any thread (watch emissions arrive from the
/// tasks that caused them), each line whole.
final class Output: @unchecked Sendable {
    private let lock = NSLock()
    private let lineSink: @Sendable (String) -> Void
    private let errorSink: @Sendable (String) -> Void

    init(line: @escaping @Sendable (String) -> Void, error: @escaping @Sendable (String) -> Void) {
        lineSink = line
        errorSink = error
    }

    func line(_ text: String) { lock.withLock { lineSink(text) } }
    func error(_ text: String) { lock.withLock { errorSink(text) } }
}

private final class ResultBox<T: Sendable>: @unchecked Sendable {
    var result: Result<T, any Error>?
}

extension StringProtocol {
    var trimmingWhitespace: SubSequence {
        let start = firstIndex { !$0.isWhitespace } ?? endIndex
        let end = lastIndex { !$0.isWhitespace }.map(index(after:)) ?? start
        return self[start..<end]
    }
}

extension Substring {
    /// The text quoted and cut to a readable length, for error messages.
    var preview: String { "\"" + (count > 40 ? prefix(40) + "…" : self) + "\"" }
}
