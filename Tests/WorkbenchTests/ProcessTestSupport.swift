import Foundation
import NormCache
import TestSupport
import Testing

// Support for tests that run the `normcache` executable as a child process: finding it,
// spawning and driving it through pipes, scratch directories, and looking at the files
// it leaves behind.

/// A failure of the test harness itself (not of normcache), with a message saying what to do.
struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The `normcache` executable that `swift build --build-tests` puts beside the tests.
enum NormcacheBinary {
    static func url() throws -> URL {
        let binary = URL(fileURLWithPath: BuildProducts.directory).appendingPathComponent("normcache")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw HarnessError("""
                normcache executable not found at \(binary.path) (beside the tests); \
                build it first with `swift build --build-tests`, then run `swift test --skip-build`
                """)
        }
        return binary
    }
}

/// What a child printed and how it ended.
struct Finished {
    let status: Int32
    /// True when a signal ended it (then `status` is the signal number).
    let signaled: Bool
    let stdout: String
    let stderr: String

    var outputLines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }
    var errorLines: [String] { stderr.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }

    /// Standard error without the line a session over a cache file starts with there
    /// (`cache: …`, what it is over): its errors and warnings.
    var messages: [String] { errorLines.first?.hasPrefix("cache: ") == true ? Array(errorLines.dropFirst()) : errorLines }

    /// The output after each `cache: …` line that opening a store prints, in order (the
    /// session's first on standard error, each `.login`'s on standard output):
    /// `[("alice", ["Trip:1"]), ("bob", [])]` for a session that listed keys as alice, then as bob.
    var outputByStore: [(header: String, lines: [String])] {
        var sections: [(header: String, lines: [String])] = errorLines.prefix(1).filter { $0.hasPrefix("cache: ") }.map { ($0, []) }
        for line in outputLines {
            if line.hasPrefix("cache: ") { sections.append((line, [])) } else if !sections.isEmpty { sections[sections.count - 1].lines.append(line) }
        }
        return sections
    }
}

/// A running child process with its output collected. Kill it in a `defer` with ``stop()``.
final class Child: @unchecked Sendable {
    enum Input {
        /// A pipe the test writes to with ``send(_:)`` and closes with ``closeInput()``.
        case pipe
        /// A file read as standard input, so the child starts on it at once.
        case file(URL)
    }

    let process = Process()
    let stdout: PipeReader
    let stderr: PipeReader
    private let input: FileHandle?

    /// Writing to a pipe whose reader died must fail with EPIPE, not kill the test runner.
    private static let ignoringBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

    /// Held while pipes are made and a child is started, so that every pipe is
    /// close-on-exec (``privatePipe()``) before anything is spawned.
    private static let spawning = NSLock()

    /// `errorsToOutput`: standard error goes to the same pipe as standard output (as `2>&1`), and ``stderr`` reads it too.
    /// `environment`: variables set (or replaced) in the child's copy of this process's environment, e.g. `HOME`.
    init(_ executable: URL, _ arguments: [String], input: Input = .pipe, errorsToOutput: Bool = false,
         environment: [String: String] = [:]) throws {
        _ = Self.ignoringBrokenPipes
        Self.spawning.lock()
        defer { Self.spawning.unlock() }
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let outPipe = privatePipe(), errPipe = errorsToOutput ? outPipe : privatePipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        switch input {
        case .pipe:
            let inPipe = privatePipe()
            process.standardInput = inPipe
            self.input = inPipe.fileHandleForWriting
        case .file(let url):
            let handle = try FileHandle(forReadingFrom: url)
            _ = fcntl(handle.fileDescriptor, F_SETFD, FD_CLOEXEC)
            process.standardInput = handle
            self.input = nil
        }
        stdout = PipeReader(outPipe)
        stderr = errorsToOutput ? stdout : PipeReader(errPipe)
        try process.run()
    }

    /// `normcache ARGUMENTS`, the executable found beside the test runner.
    static func normcache(_ arguments: [String], input: Input = .pipe, errorsToOutput: Bool = false,
                          environment: [String: String] = [:]) throws -> Child {
        try Child(try NormcacheBinary.url(), arguments, input: input, errorsToOutput: errorsToOutput, environment: environment)
    }

    var pid: Int32 { process.processIdentifier }

    /// Writes lines to the child's standard input.
    func send(_ lines: String...) throws {
        guard let input else { throw HarnessError("this child reads a file, not a pipe") }
        try input.write(contentsOf: Data(lines.map { $0 + "\n" }.joined().utf8))
    }

    func closeInput() { try? input?.close() }

    func kill(_ signal: Int32 = SIGKILL) {
        if process.isRunning { Foundation.kill(pid, signal) }
    }

    /// Waits for the child to exit on its own and for its pipes to end; kills it and
    /// throws if that takes longer than `timeout`. On a thread of its own (``onThread(_:)``).
    func finish(timeout: TimeInterval = 60) async throws -> Finished {
        closeInput()
        return try await onThread { try self.blockUntilExit(timeout: timeout) }
    }

    /// ``finish(timeout:)``'s wait, on the calling thread.
    private func blockUntilExit(timeout: TimeInterval) throws -> Finished {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while process.isRunning, Date() < deadline { usleep(2_000) }
        if process.isRunning {
            stop()
            throw HarnessError("\(process.executableURL?.lastPathComponent ?? "child") \(process.arguments ?? []) did not exit within \(timeout) s; killed it. stderr: \(stderr.text)")
        }
        process.waitUntilExit()
        _ = stdout.waitForEnd(timeout: 10)
        _ = stderr.waitForEnd(timeout: 10)
        return Finished(status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal,
                        stdout: stdout.text, stderr: stderr.text)
    }

    /// Kills the child if it still runs and reaps it: for `defer`.
    func stop() {
        closeInput()
        kill(SIGKILL)
        process.waitUntilExit()
    }
}

/// Runs `normcache ARGUMENTS` on `input` to its end; `environment` as ``Child/init(_:_:input:errorsToOutput:environment:)`` takes it.
func normcache(_ arguments: [String], input: String = "", timeout: TimeInterval = 60,
               environment: [String: String] = [:]) async throws -> Finished {
    let child = try Child.normcache(arguments, environment: environment)
    defer { child.stop() }
    try? child.send(input)   // a child that exits early (bad arguments) may not read it
    return try await child.finish(timeout: timeout)
}

/// A new empty directory under the system's temporary directory, deleted with everything in it by ``remove()``.
final class ScratchDirectory {
    let url: URL
    var path: String { url.path }

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("normcache-tests-" + UUID().uuidString, isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// Writes `text` to the file `name` (a path inside the directory; folders are made as needed) and returns it.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> URL {
        let file = file(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
        return file
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// Looking at files from outside, byte by byte.
enum Disk {
    /// Every regular file under `directory`, recursively, hidden ones included.
    static func files(under directory: URL) -> [URL] {
        guard let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        return enumerator.compactMap { $0 as? URL }.filter {
            (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
        }
    }

    /// The names (relative to `directory`) of the files whose bytes contain `marker` as UTF-8.
    static func files(under directory: URL, containing marker: String) -> [String] {
        let needle = Data(marker.utf8)
        let base = directory.resolvingSymlinksInPath().path + "/"
        return files(under: directory).filter { file in
            (try? Data(contentsOf: file))?.range(of: needle) != nil
        }.map { $0.resolvingSymlinksInPath().path.replacingOccurrences(of: base, with: "") }.sorted()
    }

    static func bytes(_ url: URL) -> Data? { try? Data(contentsOf: url) }

    static func exists(_ url: URL) -> Bool { FileManager.default.fileExists(atPath: url.path) }

    /// The permission bits of a file or directory (`0o700`); nil when it does not exist.
    static func mode(_ url: URL) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int).flatMap { $0 }
    }

    /// Polls `condition` until it holds or `timeout` passes; whether it held. On a thread
    /// of its own (``onThread(_:)``).
    static func waitUntil(timeout: TimeInterval = 30, _ condition: @escaping () -> Bool) async -> Bool {
        await onThread {
            let deadline = Date(timeIntervalSinceNow: timeout)
            while !condition() {
                if Date() > deadline { return false }
                usleep(5_000)
            }
            return true
        }
    }
}

/// A cache file's records as ``SQLiteStore`` reads them, keyed by record key.
func storedRecords(at url: URL, mode: SQLiteStore.Mode = .readWrite) throws -> [String: CacheObject] {
    let store = try SQLiteStore(path: url.path, mode: mode)
    defer { store.close() }
    return Dictionary(uniqueKeysWithValues: try store.loadAll().map { ($0.key, $0.fields) })
}

/// A `python3` process holding a write lock (`BEGIN IMMEDIATE`) on the SQLite file at
/// `url` until it is stopped; returns once it holds it. `stop()` it in a `defer`.
func pythonHoldingWriteLock(on url: URL) async throws -> Child {
    let script = """
        import sqlite3, sys, time
        connection = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=30)
        connection.execute("BEGIN IMMEDIATE")
        print("locked", flush=True)
        time.sleep(120)
        """
    let holder = try Child(try executableInPath("python3"), ["-c", script, url.path])
    guard await holder.stdout.wait(timeout: 30, until: { $0.contains("locked") }) else {
        holder.stop()
        throw HarnessError("python3 did not take the write lock on \(url.path): \(holder.stderr.text)")
    }
    return holder
}

/// `name` found on `PATH`, run directly so that the process is called `name` (not `env`).
func executableInPath(_ name: String) throws -> URL {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":") {
        let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    throw HarnessError("\(name) is not on PATH (\(path))")
}

/// The directory of the repository's test fixtures.
let fixturesDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures", isDirectory: true)

/// A record's fields by name, for comparing records whatever order their fields are in.
func fieldsByName(_ object: CacheObject) -> [String: CacheValue] {
    Dictionary(object.members.map { ($0, $1) }, uniquingKeysWith: { first, _ in first })
}

/// A JSON object as `.write` reads it (`{"$reference":K}` is a reference); nil for anything else.
func cacheObject(_ json: String) -> CacheObject? {
    guard case .object(let object) = try? JSON.parse(json, references: .apollo) else { return nil }
    return object
}
