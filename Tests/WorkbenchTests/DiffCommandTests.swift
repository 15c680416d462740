import Foundation
import NormCache
import TestSupport
import Testing
@testable import Workbench

/// `.diff FILE [GLOB]` (issue 39): the current cache against a cache file opened read-only,
/// the file left byte for byte as it was; bad input is an error naming the file and the
/// problem, and the session goes on.
@Suite(.childProcesses) struct DiffCommandTests {
    static let fixture = fixturesDirectory.appendingPathComponent("apollo-ios-1.25.7-starwars.sqlite").path

    /// Runs SQL over the SQLite file at `path` with python3's sqlite3 (made when missing).
    static func sqlite(_ path: String, _ sql: String) async throws {
        let python = try Child(try executableInPath("python3"), ["-c", """
            import sqlite3, sys
            connection = sqlite3.connect(sys.argv[1])
            connection.executescript(sys.argv[2])
            connection.commit()
            """, path, sql])
        defer { python.stop() }
        let done = try await python.finish()
        try #require(done.status == 0, "python3: \(done.stderr)")
    }

    @Test func theCurrentCacheIsAAndTheFileB() async throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let file = dir.file("starwars.sqlite")
        try FileManager.default.copyItem(atPath: Self.fixture, toPath: file.path)
        let bytes = Disk.bytes(file)
        let bench = try await TestSession.start()
        try await bench.run(#".write Human:1000 {"__typename":"Human","id":"1000","name":"Luke"}"#, #".write Trip:1 {"name":"Porto"}"#)
        let event = try await bench.run(".diff \(file.path) Human:1000").event("diff")
        #expect(event.string("a") == "memory" && event.string("b") == file.path)
        #expect(event.strings("onlyA") == [] && event.strings("onlyB") == [])
        guard case .object(let changed)? = event["changed"], case .object(let luke)? = changed["Human:1000"] else {
            Issue.record("no change of Human:1000 in \(event)"); return
        }
        #expect(changed.keys == ["Human:1000"])
        #expect(luke["name"] == ["Luke", "Luke Skywalker"])
        #expect(luke["mass"] == [nil, 77], "a field only B holds is null on A's side")
        #expect(luke["starships"] == [nil, [reference("Starship:3001"), reference("Starship:3003")]], "references as references")
        #expect(luke["id"] == nil && luke["__typename"] == nil, "fields that are the same are left out")
        let whole = try await bench.run(".diff \(file.path)").event("diff")
        #expect(whole.strings("onlyA") == ["Trip:1"])
        #expect(whole.strings("onlyB")?.count == 11)
        #expect(Disk.bytes(file) == bytes)
        #expect(Disk.files(under: dir.url).map(\.lastPathComponent) == ["starwars.sqlite"], "nothing made beside the file")
        #expect(bench.session.failures == 0)
    }

    /// A file read through `normcache inspect` and the same file read by `.diff` are the same.
    @Test func aFileAgainstItselfIsTheSame() async throws {
        let printed = PrintedLines()
        let session = try await onThread {
            try Session(options: SessionOptions(inspectFile: Self.fixture, loadsBundledPlugins: false),
                        output: { printed.append(output: $0) }, errors: { printed.append(error: $0) })
        }
        let before = printed.counts
        await onThread { session.execute(".diff \(Self.fixture)") }
        let lines = printed.since(before)
        #expect(lines.output == ["\(Self.fixture), read-only and \(Self.fixture) hold the same 12 records"], "\(lines)")
        #expect(lines.errors.isEmpty)
    }

    @Test func rowsThatReadTheSameAreNoDifference() async throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let file = dir.file("reordered.sqlite")
        try FileManager.default.copyItem(atPath: Self.fixture, toPath: file.path)
        // Members in another order, 77 as 77.0, 20 as 2e1, a reference's text with spaces.
        try await Self.sqlite(file.path, """
            UPDATE records SET record = '{"__typename":"Starship","length":2e1,"id":"3003","name":"Imperial shuttle"}' WHERE key = 'Starship:3003';
            UPDATE records SET record = '{"__typename":"Appearance", "hairColor":"blond","eyeColor":"blue"}' WHERE key = 'Human:1000.appearance';
            UPDATE records SET record = replace(replace(record, '"mass":77', '"mass":77.0'), '{"$reference":"Starship:3001"}', '{ "$reference" : "Starship:3001" }') WHERE key = 'Human:1000';
            """)
        let bench = try await TestSession.start(mode: .tree)
        let run = try await bench.run(".open \(file.path)", ".diff \(Self.fixture)")
        #expect(run.output.last == "\(file.path) and \(Self.fixture) hold the same 12 records", "\(run)")
        // A changed value does show.
        try await Self.sqlite(file.path, #"UPDATE records SET record = replace(record, '"mass":77.0', '"mass":78') WHERE key = 'Human:1000'"#)
        let changed = try await bench.run(".open \(file.path)", ".diff \(Self.fixture) Human:*")
        #expect(Array(changed.output.suffix(3)) == ["~ Human:1000", "    mass: 78 → 77",
                                                     "0 records only in \(file.path), 0 only in \(Self.fixture), 1 changed, 4 the same matching Human:*"],
                "\(changed)")
    }

    /// Each bad file or argument: an error naming the file (or the command) and the problem;
    /// the session goes on, its cache as it was, the file as it was.
    @Test func badInputIsAnErrorAndTheSessionGoesOn() async throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let text = try dir.write("notes.sqlite", "just some notes, not a database\n").path
        let other = dir.file("other.sqlite").path
        try await Self.sqlite(other, "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('hello');")
        let columns = dir.file("columns.sqlite").path
        try await Self.sqlite(columns, #"CREATE TABLE "records" ("_id" INTEGER PRIMARY KEY AUTOINCREMENT, "key" TEXT UNIQUE, "value" TEXT);"#)
        let damaged = dir.file("damaged.sqlite").path
        try FileManager.default.copyItem(atPath: Self.fixture, toPath: damaged)
        try await Self.sqlite(damaged, #"UPDATE records SET record = '{"name":"Han",' WHERE key = 'Human:1002'"#)
        let missing = dir.file("missing.sqlite").path
        let bench = try await TestSession.start(mode: .tree)
        try await bench.run(#".write Trip:1 {"name":"Porto"}"#)
        let cases: [(String, String)] = [
            (".diff \(missing)", "\(missing): does not exist"),
            (".diff \(text)", "\(text): is not a SQLite database"),
            (".diff \(other)", "\(other): is a SQLite database without a records table, so not an Apollo iOS cache (its tables: notes)"),
            (".diff \(columns)", #"\#(columns): its records table has no "record" column (columns: _id, key, value)"#),
            (".diff \(damaged)", "\(damaged): record Human:1002 cannot be read: "),
            (".diff", "usage: .diff FILE [GLOB]"),
            (".diff \(Self.fixture) Human:* more", "usage: .diff FILE [GLOB]"),
            (#".diff \#(Self.fixture) """#, "the glob of record keys is empty"),
        ]
        for (line, message) in cases {
            let run = try await bench.run(line)
            #expect(run.output.isEmpty, "\(line): \(run.output)")
            #expect(run.errors.count == 1 && run.errors[0].hasPrefix("error: ") && run.errors[0].contains(message), "\(line): \(run.errors)")
        }
        #expect(bench.session.failures == cases.count)
        #expect(try await bench.run(".keys").output == ["Trip:1"])
        #expect(!FileManager.default.fileExists(atPath: missing), "a missing file is not made")
        #expect(Disk.files(under: dir.url).map(\.lastPathComponent).sorted() == ["columns.sqlite", "damaged.sqlite", "notes.sqlite", "other.sqlite"])
    }
}
