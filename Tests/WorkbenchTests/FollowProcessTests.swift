import Foundation
import NormCache
import TestSupport
import Testing
@testable import Workbench

/// `normcache inspect --follow` and `.follow` while another process (python3's sqlite3)
/// writes the file: the way Apollo iOS writes (upserts in a transaction), by `INSERT OR
/// REPLACE` and by `DELETE`; each commit reported as a `follow` event and heard by a
/// watcher with cause `external`; a file deleted or replaced stops following with a warning.
@Suite(.childProcesses) struct FollowProcessTests {
    /// The other process: `python3 -c WRITER FILE HOW`.
    static let writer = #"""
        import json, sqlite3, sys
        path, how = sys.argv[1], sys.argv[2]
        db = sqlite3.connect(path, isolation_level=None, timeout=30)
        rows = dict(db.execute("SELECT key, record FROM records"))
        def record(key, **fields):
            value = json.loads(rows[key])
            value.update(fields)
            return json.dumps(value, separators=(",", ":"))
        if how == "upsert":  # as Apollo iOS writes: one transaction, rows updated in place (their _id kept)
            db.execute("BEGIN")
            for key, name in (("Human:1000", "Luke"), ("Human:1002", "Han")):
                db.execute("INSERT INTO records (key, record) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET record = excluded.record",
                           (key, record(key, name=name)))
            db.execute("COMMIT")
        elif how == "replace":
            db.execute("INSERT OR REPLACE INTO records (key, record) VALUES (?, ?)", ("Droid:2000", record("Droid:2000", name="Threepio")))
        elif how == "delete":
            db.execute("DELETE FROM records WHERE key = 'Human:1003'")
        """#

    static let watched = ".watch { hero(episode: EMPIRE) { name friends { name } } }"

    /// A copy of the Apollo iOS fixture in `directory`.
    static func appFile(in directory: ScratchDirectory, named name: String = "app.sqlite") throws -> URL {
        let file = directory.file(name)
        try FileManager.default.copyItem(at: fixturesDirectory.appendingPathComponent("apollo-ios-1.25.7-starwars.sqlite"), to: file)
        return file
    }

    /// Runs the writer to its end: `how` is upsert, replace or delete.
    static func write(_ file: URL, _ how: String) async throws {
        let python = try Child(try executableInPath("python3"), ["-c", writer, file.path, how])
        let run = try await python.finish(timeout: 30)
        try #require(run.status == 0, "the writer (\(how)) failed: \(run.stderr)")
    }

    /// The JSON events printed so far.
    static func events(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// Waits for an event that `matches`; whether one came within `timeout` seconds.
    static func waitFor(_ child: Child, timeout: TimeInterval = 10, _ matches: @escaping ([String: Any]) -> Bool) async -> Bool {
        await child.stdout.wait(timeout: timeout) { events($0).contains(where: matches) }
    }

    static func isFollow(_ event: [String: Any], changed: [String], removed: [String] = []) -> Bool {
        event["event"] as? String == "follow" && event["changed"] as? [String] == changed && event["removed"] as? [String] == removed
    }

    static func isExternalEmission(_ event: [String: Any], number: Int) -> Bool {
        event["event"] as? String == "watch" && event["emission"] as? Int == number && event["cause"] as? String == "external"
    }

    @Test func anAppWritingTheFileIsFollowedWhicheverWayItWrites() async throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let file = try Self.appFile(in: directory)
        let child = try Child.normcache(["inspect", "--follow", file.path, "--json"], errorsToOutput: true)
        defer { child.stop() }
        try child.send(Self.watched)
        try #require(await Self.waitFor(child) { $0["event"] as? String == "watching" }, "\(child.stdout.text)")

        try await Self.write(file, "upsert")
        #expect(await Self.waitFor(child) { Self.isFollow($0, changed: ["Human:1000", "Human:1002"]) }, "\(child.stdout.text)")
        #expect(await Self.waitFor(child) { Self.isExternalEmission($0, number: 2) }, "\(child.stdout.text)")
        let follow = try #require(Self.events(child.stdout.text).first { $0["event"] as? String == "follow" })
        let fields = follow["fields"] as? [String: [String: [String]]]
        #expect(fields?["Human:1000"]?["name"] == ["Luke Skywalker", "Luke"])

        try await Self.write(file, "replace")
        #expect(await Self.waitFor(child) { Self.isFollow($0, changed: ["Droid:2000"]) }, "\(child.stdout.text)")
        #expect(await Self.waitFor(child) { Self.isExternalEmission($0, number: 3) }, "\(child.stdout.text)")

        try await Self.write(file, "delete")
        #expect(await Self.waitFor(child) { Self.isFollow($0, changed: [], removed: ["Human:1003"]) }, "\(child.stdout.text)")

        try FileManager.default.removeItem(at: file)
        #expect(await Self.waitFor(child) { event in
            event["event"] as? String == "warning" && (event["message"] as? String)?.contains("\(file.path): was deleted; following stopped") == true
        }, "\(child.stdout.text)")
        try child.send(".follow", ".inspect Human:1000")
        let run = try await child.finish()
        #expect(run.status == 0)
        let events = Self.events(run.stdout)
        #expect(events.contains { $0["event"] as? String == "following" && $0["file"] is NSNull })
        // The session goes on over what it had read.
        let record = events.last { $0["event"] as? String == "record" }?["record"] as? [String: Any]
        #expect(record?["name"] as? String == "Luke")
    }

    @Test func aFileReplacedByAnotherStopsFollowingWithAWarning() async throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let file = try Self.appFile(in: directory)
        let child = try Child.normcache(["inspect", file.path, "--json"], errorsToOutput: true)
        defer { child.stop() }
        try child.send(".follow on", ".follow")
        try #require(await Self.waitFor(child) { $0["event"] as? String == "following" && $0["file"] as? String == file.path }, "\(child.stdout.text)")
        let other = try Self.appFile(in: directory, named: "new.sqlite")
        try #require(rename(other.path, file.path) == 0, "mv new.sqlite app.sqlite: errno \(errno)")
        #expect(await Self.waitFor(child) { event in
            event["event"] as? String == "warning"
                && (event["message"] as? String)?.contains("\(file.path): was replaced by another file (another inode at its path); following stopped") == true
        }, "\(child.stdout.text)")
        let run = try await child.finish()
        #expect(run.status == 0)
    }
}

/// `.follow` in a script: what a command's process wrote is reported, and its emissions
/// printed, before the next line runs; and where there is no file to follow, a clear refusal.
@Suite struct FollowCommandTests {
    final class Transcript: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        var all: [String] { lock.withLock { lines } }
        func add(_ line: String) { lock.withLock { lines.append(line) } }
    }

    func run(_ options: SessionOptions, _ lines: [String]) async throws -> (Session, [String]) {
        try await onThread {
            let transcript = Transcript()
            let session = try Session(options: options, output: transcript.add, errors: transcript.add)
            for line in lines where !session.isFinished { session.execute(line) }
            return (session, transcript.all)
        }
    }

    @Test func aScriptSeesWhatAShellCommandWroteBeforeItsNextLine() async throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let file = try FollowProcessTests.appFile(in: directory)
        let writer = try directory.write("writer.py", FollowProcessTests.writer)
        let (session, lines) = try await run(SessionOptions(inspectFile: file.path, loadsBundledPlugins: false), [
            ".follow on",
            FollowProcessTests.watched,
            ".shell python3 \(writer.path) \(file.path) upsert",
            ".expect emissions 1 == 2",
            ".expect watch 1 cause external",
            ".history Human:1002.name",
        ])
        #expect(session.failures == 0 && session.failedExpectations == 0, "\(lines)")
        let follow = try #require(lines.firstIndex { $0.hasPrefix("follow \(file.path) 2 records changed") }, "\(lines)")
        #expect(lines[follow + 1] == #"  Human:1000: name "Luke Skywalker" → "Luke""#)
        #expect(lines[follow + 2] == #"  Human:1002: name "Han Solo" → "Han""#)
        #expect(lines.contains { $0.hasPrefix("watch 1 (anonymous) #2 external (Human:1000.name, Human:1002.name)") }, "\(lines)")
        #expect(lines.last?.hasSuffix(#" external (follow \#(file.path)): name "Han Solo" → "Han""#) == true, "\(lines)")
    }

    @Test func followingAgainReloadsWhatWasWrittenWhileItWasOff() async throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let file = try FollowProcessTests.appFile(in: directory)
        let writer = try directory.write("writer.py", FollowProcessTests.writer)
        let (session, lines) = try await run(SessionOptions(inspectFile: file.path, follows: true, loadsBundledPlugins: false), [
            FollowProcessTests.watched,
            ".follow off",
            ".shell python3 \(writer.path) \(file.path) replace",
            ".expect emissions 1 == 1",
            ".follow on",
            ".expect emissions 1 == 2",
        ])
        #expect(session.failures == 0 && session.failedExpectations == 0, "\(lines)")
        let follow = try #require(lines.firstIndex { $0.hasPrefix("follow \(file.path) 1 record changed") }, "\(lines)")
        #expect(lines[follow + 1] == #"  Droid:2000: name "C-3PO" → "Threepio""#)
    }

    @Test func thereIsNothingToFollowInMemoryOrInAUsersStore() async throws {
        let (memory, memoryLines) = try await run(SessionOptions(loadsBundledPlugins: false), [".follow on", ".follow"])
        #expect(memory.failures == 1)
        #expect(memoryLines == [
            "error: the cache is in memory: there is no file to follow (normcache inspect --follow FILE, or .open FILE first)",
            "not following a file",
        ])
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let (user, userLines) = try await run(SessionOptions(cacheDirectory: directory.path, user: "alice", loadsBundledPlugins: false), [".follow on"])
        #expect(user.failures == 1)
        #expect(userLines.contains { $0.hasPrefix("error: the cache is alice's store ") && $0.hasSuffix("under --cache-dir, which this session writes: .follow follows a file another process writes (normcache inspect --follow FILE, or .open FILE)") },
                "\(userLines)")
    }

    @Test func openingAnotherFileStopsFollowingTheFirst() async throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let file = try FollowProcessTests.appFile(in: directory)
        let other = try FollowProcessTests.appFile(in: directory, named: "other.sqlite")
        let (session, lines) = try await run(SessionOptions(inspectFile: file.path, follows: true, loadsBundledPlugins: false),
                                             [".follow", ".open \(other.path)", ".follow"])
        #expect(session.failures == 0)
        #expect(lines.contains("following \(file.path): another process's commits to it reload here"))
        #expect(lines.contains("warning: stopped following \(file.path): the session's cache moved to another store"))
        #expect(lines.last == "not following a file")
    }
}
