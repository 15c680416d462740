import Foundation
import NormCache
import Testing

/// `normcache inspect FILE`: the file's records are listed, writes are refused, and the file keeps every byte.
@Suite(.childProcesses) struct InspectProcessTests {
    /// Inspects `file`: `.keys`, a refused `.write`, `.keys` again; every file in `unchanged` keeps its bytes.
    func expectReadOnlyInspection(of file: URL, keys: [String], unchanged: [URL]) async throws {
        let before = unchanged.map(Disk.bytes)
        #expect(before.allSatisfy { $0 != nil }, "missing before inspecting: \(unchanged.map(\.lastPathComponent))")
        let run = try await normcache(["inspect", file.path], input: """
            .keys
            .write Intruder:1 {"name":"must not be stored"}
            .keys
            """)
        #expect(run.status == 2 && !run.signaled)
        #expect(run.errorLines.first?.hasPrefix("cache: \(file.path), read-only, \(keys.count) records") == true, "\(run.stderr)")
        #expect(run.outputLines == keys + keys, "the refused write must leave no record in memory")
        #expect(run.messages.count == 1, "\(run.stderr)")
        let message = run.messages.first ?? ""
        #expect(message.hasPrefix("error: ") && message.contains(file.path) && message.contains("read-only"), "\(message)")
        for (url, bytes) in zip(unchanged, before) {
            #expect(Disk.bytes(url) == bytes, "\(url.lastPathComponent) changed")
        }
    }

    @Test func anApolloIOSFileIsListedAndNeverWritten() async throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let file = dir.file("starwars.sqlite")
        try FileManager.default.copyItem(at: fixturesDirectory.appendingPathComponent("apollo-ios-1.25.7-starwars.sqlite"), to: file)
        let rows = try String(contentsOf: fixturesDirectory.appendingPathComponent("apollo-ios-1.25.7-starwars.rows.txt"), encoding: .utf8)
        let keys = rows.split(separator: "\n").map { String($0.prefix { $0 != "|" }) }.sorted()
        try #require(keys.count == 12)
        try await expectReadOnlyInspection(of: file, keys: keys, unchanged: [file])
    }

    @Test func aClosedNormcacheFileIsListedAndNeverWritten() async throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let written = try await normcache(["--cache-dir", dir.path, "--user", "u"], input: """
            .write Trip:1 {"name":"Porto"}
            .write Trip:2 {"name":"Faro","next":{"$reference":"Trip:1"}}
            """)
        #expect(written.status == 0)
        try await expectReadOnlyInspection(of: dir.file("u.sqlite"), keys: ["Trip:1", "Trip:2"], unchanged: [dir.file("u.sqlite")])
    }

    @Test func aFileWhoseRecordsAreStillInTheWALIsListedAndNeverWritten() async throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let file = dir.file("u.sqlite"), wal = dir.file("u.sqlite-wal")
        // A writer killed with its records committed to the WAL only.
        let writer = try Child.normcache(["--cache-dir", dir.path, "--user", "u"])
        defer { writer.stop() }
        try writer.send(#".write Trip:1 {"name":"Porto"}"#, #".write Trip:2 {"name":"Faro IN-THE-WAL"}"#)
        #expect(await Disk.waitUntil { Disk.bytes(wal)?.range(of: Data("IN-THE-WAL".utf8)) != nil }, "stderr: \(writer.stderr.text)")
        writer.stop()
        try #require(Disk.bytes(file)?.range(of: Data("IN-THE-WAL".utf8)) == nil, "the records must be in the WAL only")
        try await expectReadOnlyInspection(of: file, keys: ["Trip:1", "Trip:2"], unchanged: [file, wal])
    }

    enum BadFile: String, CaseIterable, Sendable {
        case text, missing, otherTables, empty, directory

        /// Makes the file in `dir`; returns it and what the error must say about it.
        func make(in dir: ScratchDirectory) async throws -> (file: URL, problem: String) {
            let file = dir.file("cache.sqlite")
            switch self {
            case .text:
                try Data("just some notes, not a database\n".utf8).write(to: file)
                return (file, "is not a SQLite database")
            case .missing:
                return (file, "does not exist")
            case .otherTables:
                let sqlite = try Child(try executableInPath("python3"), ["-c", """
                    import sqlite3, sys
                    connection = sqlite3.connect(sys.argv[1])
                    connection.execute("CREATE TABLE notes (body TEXT)")
                    connection.execute("INSERT INTO notes VALUES ('hello')")
                    connection.commit()
                    """, file.path])
                defer { sqlite.stop() }
                let made = try await sqlite.finish()
                try #require(made.status == 0, "python3: \(made.stderr)")
                return (file, "without a records table")
            case .empty:
                try Data().write(to: file)
                return (file, "has no records table")
            case .directory:
                try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
                return (file, "is a directory")
            }
        }
    }

    @Test(arguments: BadFile.allCases)
    func aFileThatIsNotACacheIsRefusedByNameAndLeftAsItWas(_ kind: BadFile) async throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let (file, problem) = try await kind.make(in: dir)
        let filesBefore = Disk.files(under: dir.url).map(\.lastPathComponent).sorted()
        let bytesBefore = Disk.bytes(file)

        let run = try await normcache(["inspect", file.path], input: ".keys")
        #expect(run.status == 2 && !run.signaled)
        #expect(run.stdout == "")
        #expect(run.errorLines == run.errorLines.filter { $0.hasPrefix("error: ") } && run.errorLines.count == 1, "\(run.stderr)")
        let message = run.errorLines.first ?? ""
        #expect(message.contains(file.path) && message.contains(problem), "\(message)")
        #expect(Disk.bytes(file) == bytesBefore)
        #expect(Disk.files(under: dir.url).map(\.lastPathComponent).sorted() == filesBefore, "inspect created files")
    }
}

/// Command-line arguments and user names that must be refused, each with a clear message.
@Suite(.childProcesses) struct ArgumentProcessTests {
    @Test func userWithoutACacheDirectoryIsRefused() async throws {
        let run = try await normcache(["--user", "alice"], input: ".keys")
        #expect(run.status == 2)
        #expect(run.errorLines == ["error: --user needs --cache-dir: without a cache directory the cache lives in memory only"])
    }

    /// `normcache ARGUMENTS` with `.keys` as its input, run by a user whom permission bits
    /// bind: root ignores them, so as root the child runs as `nobody` (setpriv).
    func normcacheBoundByPermissions(_ arguments: [String]) async throws -> Finished {
        let binary = try NormcacheBinary.url()
        let child = getuid() == 0
            ? try Child(URL(fileURLWithPath: "/usr/bin/setpriv"), ["--reuid=65534", "--regid=65534", "--clear-groups", binary.path] + arguments)
            : try Child(binary, arguments)
        defer { child.stop() }
        try child.send(".keys")
        return try await child.finish()
    }

    @Test func aCacheDirectoryThatCannotBeWrittenIsNamedAndLeftAlone() async throws {
        let dir = try ScratchDirectory()
        defer {
            chmod(dir.path, 0o755)
            dir.remove()
        }
        chmod(dir.path, 0o555)
        let run = try await normcacheBoundByPermissions(["--cache-dir", dir.path, "--user", "alice"])
        #expect(run.status == 2)
        #expect(run.errorLines == ["error: \(dir.file("alice.sqlite").path): cannot be opened: the directory \(dir.path) is not writable "
                                   + "(SQLite needs to create the file or its -wal and -shm files there)"], "\(run.stderr)")
        #expect(Disk.files(under: dir.url).isEmpty)
    }

    /// The README's `--cache-dir ~/caches` on a new machine: the directory and its missing
    /// parents are made, owner only, since they hold the users' data.
    @Test func aMissingCacheDirectoryIsMadeOwnerOnlyWithItsMissingParents() async throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let parent = dir.file("home"), caches = dir.file("home/caches")
        let existingMode = Disk.mode(dir.url)
        let run = try await normcache(["--cache-dir", caches.path, "--user", "alice"], input: #".write Trip:1 {"name":"Porto"}"#)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.errorLines == ["cache: alice (\(caches.path)/alice.sqlite), 0 records"], "the session's start, on standard error")
        #expect(Disk.mode(parent) == 0o700 && Disk.mode(caches) == 0o700, "modes \(String(describing: Disk.mode(parent))), \(String(describing: Disk.mode(caches)))")
        #expect(Disk.mode(dir.url) == existingMode, "a directory that existed keeps its mode")
        let again = try await normcache(["--cache-dir", caches.path, "--user", "alice"], input: ".keys")
        #expect(again.errorLines == ["cache: alice (\(caches.path)/alice.sqlite), 1 record"] && again.outputLines == ["Trip:1"])
    }

    @Test func anExistingCacheDirectoryKeepsItsMode() async throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        chmod(dir.path, 0o751)
        let run = try await normcache(["--cache-dir", dir.path, "--user", "alice"], input: ".keys")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Disk.mode(dir.url) == 0o751)
    }

    /// Only a directory that cannot be made is refused, and the message says why.
    @Test func aCacheDirectoryThatCannotBeMadeIsRefusedWithTheReason() async throws {
        let dir = try ScratchDirectory()
        defer {
            chmod(dir.path, 0o755)
            dir.remove()
        }
        let file = try dir.write("file", "not a directory")
        let underAFile = try await normcache(["--cache-dir", file.path + "/caches"], input: ".keys")
        #expect(underAFile.status == 2 && underAFile.stdout == "")
        #expect(underAFile.errorLines == ["error: cannot create the cache directory \(file.path)/caches: \(file.path) is a file, not a directory"])

        let empty = try await normcache(["--cache-dir", ""], input: ".keys")
        #expect(empty.status == 2 && empty.errorLines == ["error: --cache-dir is empty: name a directory"], "\(empty.stderr)")

        chmod(dir.path, 0o555)
        let caches = dir.file("caches")
        let unwritableParent = try await normcacheBoundByPermissions(["--cache-dir", caches.path])
        #expect(unwritableParent.status == 2 && unwritableParent.stdout == "")
        #expect(unwritableParent.errorLines == ["error: cannot create the cache directory \(caches.path): \(caches.path): Permission denied"],
                "\(unwritableParent.stderr)")
        #expect(!FileManager.default.fileExists(atPath: caches.path))
    }

    @Test(arguments: ["../x", "a/b", ".hidden", "/tmp/x", "", String(repeating: "a", count: 101)])
    func aUserNameThatIsNotASafeFileNameIsRefused(_ name: String) async throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let cache = dir.file("cache")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: false)
        let refusal = #"user name "\#(name)" is not allowed"#

        let atStart = try await normcache(["--cache-dir", cache.path, "--user", name], input: ".keys")
        #expect(atStart.status == 2)
        #expect(atStart.errorLines.count == 1 && atStart.errorLines.first?.contains(refusal) == true, "\(atStart.stderr)")

        if !name.isEmpty {   // `.login` with no word is a usage error, not a name
            let login = try await normcache(["--cache-dir", cache.path], input: ".login \(name)\n.keys")
            #expect(login.status == 2)
            #expect(login.messages.count == 1 && login.messages.first?.contains(refusal) == true, "\(login.stderr)")
            #expect(login.errorLines.first?.hasPrefix("cache: default (") == true && login.outputLines.isEmpty,
                    "the session stays on its store, which is empty: \(login.stdout)")
        }
        let made = Disk.files(under: dir.url).map { $0.resolvingSymlinksInPath().path }
        #expect(made.allSatisfy { $0.hasPrefix(cache.resolvingSymlinksInPath().path + "/default.sqlite") }, "files made: \(made)")
    }

    @Test(arguments: [["--busy-timeout", "-1"], ["--busy-timeout=-1"], ["repl", "--busy-timeout=-1"]])
    func aNegativeBusyTimeoutIsAUsageError(_ arguments: [String]) async throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let run = try await normcache(arguments + ["--cache-dir", dir.path], input: ".keys")
        #expect(run.status == 64)
        #expect(run.stdout == "")
        #expect(run.stderr.contains("--busy-timeout"), "\(run.stderr)")
        #expect(Disk.files(under: dir.url).isEmpty, "no store is opened")
    }

    @Test func inspectRefusesANegativeBusyTimeoutToo() async throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let file = dir.file("starwars.sqlite")
        try FileManager.default.copyItem(at: fixturesDirectory.appendingPathComponent("apollo-ios-1.25.7-starwars.sqlite"), to: file)
        let run = try await normcache(["inspect", "--busy-timeout=-1", file.path], input: ".keys")
        #expect(run.status == 64, "inspect took --busy-timeout=-1; stdout: \(run.stdout)")
        #expect(run.stderr.contains("--busy-timeout must be 0 or more milliseconds"), "\(run.stderr)")
    }
}

/// Driving the workbench through pipes, as an editor or a test harness would.
@Suite(.childProcesses) struct PipeProcessTests {
    @Test func eachReplyArrivesBeforeTheNextCommandIsSent() async throws {
        let child = try Child.normcache([])
        defer { child.stop() }
        try child.send(".help quit")
        let replied = await child.stdout.wait(timeout: 5) { $0.contains(".quit\n") }
        #expect(replied, "no reply to .help quit within 5 s while stdin stays open (standard output is not flushed after each command)")
        let run = try await child.finish()
        #expect(run.status == 0 && run.outputLines.first == ".quit")
    }

    @Test func errorsStayBetweenTheRepliesAroundThemInOneStream() async throws {
        let child = try Child.normcache([], errorsToOutput: true)
        defer { child.stop() }
        try child.send(".help quit", ".bogus", ".help exit")
        let run = try await child.finish()
        #expect(run.status == 2)
        let help = [".quit", "  Leave the workbench (also Ctrl-D)", "  also: .exit"]
        #expect(run.outputLines == help + [#"error: <stdin>:2: unknown command ".bogus" (.help lists the commands)"#] + help,
                "with 2>&1 each error must follow the output of the commands before it")
    }
}
