import Foundation
import NormCache
import TestSupport
import Testing

/// Per-user stores under `--cache-dir`, seen from outside the process: what `.logout` leaves on disk and what each user sees.
@Suite(.childProcesses) struct UserStoreProcessTests {
    static let secret = "ALICE-SECRET-91c2"
    static let bobMark = "BOB-DATA-7f3e"

    /// Alice's records: her marker in a record key, in names, in other field values, and in a reference.
    static var aliceRecords: [(key: String, json: String)] {
        [(key: "User:\(secret)", json: #"{"__typename":"User","name":"Alice \#(secret)","email":"alice+\#(secret)@example.com"}"#)]
            + (1...60).map { n in
                (key: "Trip:\(n)", json: #"{"__typename":"Trip","name":"Trip \#(n) of \#(secret)","owner":{"$reference":"User:\#(secret)"},"notes":["\#(secret)",\#(n)]}"#)
            }
    }

    static let bobRecords: [(key: String, json: String)] = [
        (key: "User:bob", json: #"{"__typename":"User","name":"Bob \#(bobMark)"}"#),
        (key: "Trip:B1", json: #"{"__typename":"Trip","name":"Lisbon \#(bobMark)","owner":{"$reference":"User:bob"}}"#),
        (key: "Trip:B2", json: #"{"__typename":"Trip","name":"Oslo \#(bobMark)"}"#),
    ]

    static func writes(_ records: [(key: String, json: String)]) -> [String] {
        records.map { ".write \($0.key) \($0.json)" }
    }

    @Test func logoutLeavesNoByteOfTheUsersDataAndSparesOtherUsers() async throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let alice = dir.file("alice.sqlite")
        let aliceKeys = Self.aliceRecords.map(\.key).sorted()
        let bobKeys = Self.bobRecords.map(\.key).sorted()

        let child = try Child.normcache(["--cache-dir", dir.path, "--user", "alice"])
        defer { child.stop() }
        // Written twice, so that older versions of each record sit in the WAL and in freed pages too.
        for line in Self.writes(Self.aliceRecords) + Self.writes(Self.aliceRecords) { try child.send(line) }
        try child.send(".write Done:\(Self.secret)-last {\"ok\":true}")

        // Written through while the process is alive, to alice's files only.
        #expect(await Disk.waitUntil { !Disk.files(under: dir.url, containing: Self.secret + "-last").isEmpty },
                "alice's last write never reached the disk; stderr: \(child.stderr.text)")
        let holding = Disk.files(under: dir.url, containing: Self.secret)
        #expect(!holding.isEmpty && holding.allSatisfy { $0.hasPrefix("alice.sqlite") }, "files holding alice's marker: \(holding)")

        try child.send(".login bob", ".keys")
        for line in Self.writes(Self.bobRecords) { try child.send(line) }
        try child.send(".keys", ".login alice", ".keys", ".logout")

        // Gone while the process still runs, and nothing of alice left in any file (bob's included).
        #expect(await Disk.waitUntil { !Disk.exists(alice) }, "alice.sqlite still exists after .logout; stderr: \(child.stderr.text)")
        #expect(child.process.isRunning)
        #expect(Disk.files(under: dir.url, containing: Self.secret) == [])

        try child.send(".login bob", ".keys")
        let run = try await child.finish()
        #expect(run.status == 0 && !run.signaled)
        #expect(run.messages.isEmpty)

        // What each store showed: bob never alice's keys, alice all of hers before logging out.
        let sections = run.outputByStore
        try #require(sections.count == 4, "store headers in \(run.stdout)")
        #expect(sections[0].header.hasPrefix("cache: alice (") && sections[0].lines.isEmpty)
        #expect(sections[1].header.hasPrefix("cache: bob (") && sections[1].header.hasSuffix(", 0 records"))
        #expect(sections[1].lines.sorted() == bobKeys)
        #expect(sections[2].header.hasPrefix("cache: alice (") && sections[2].header.hasSuffix(", \(aliceKeys.count + 1) records"))
        #expect(sections[2].lines.dropLast().sorted() == (aliceKeys + ["Done:\(Self.secret)-last"]).sorted())
        #expect(sections[2].lines.last?.hasPrefix("logged out: alice (") == true)
        #expect(sections[3].header.hasPrefix("cache: bob (") && sections[3].header.hasSuffix(", \(bobKeys.count) records"))
        #expect(sections[3].lines.sorted() == bobKeys)

        // After the process: no marker in any byte of any file, alice's files gone, bob's records whole.
        #expect(Disk.files(under: dir.url, containing: Self.secret) == [])
        for suffix in ["", "-wal", "-shm", "-journal"] {
            #expect(!Disk.exists(dir.file("alice.sqlite" + suffix)), "alice.sqlite\(suffix) is left")
        }
        let bob = try storedRecords(at: dir.file("bob.sqlite"))
        #expect(bob.keys.sorted() == bobKeys)
        for record in Self.bobRecords {
            #expect(bob[record.key].map(fieldsByName) == cacheObject(record.json).map(fieldsByName), "bob's \(record.key)")
        }
    }

    @Test func eachUserSeesOnlyTheirOwnRecordsWithinAndAcrossRuns() async throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let aliceKeys = ["Profile:me", "Trip:A1", "Trip:A2"]
        let bobKeys = ["Profile:me", "Trip:B1"]

        let first = try await normcache(["--cache-dir", dir.path, "--user", "alice"], input: """
            .write Trip:A1 {"name":"Porto"}
            .write Trip:A2 {"name":"Faro"}
            .write Profile:me {"name":"alice"}
            .login bob
            .keys
            .write Trip:B1 {"name":"Bergen"}
            .write Profile:me {"name":"bob"}
            .inspect Profile:me
            .login alice
            .keys
            .inspect Profile:me
            """)
        #expect(first.status == 0 && first.messages.isEmpty)
        let firstSections = first.outputByStore
        try #require(firstSections.count == 3, "store headers in \(first.stdout)")
        #expect(firstSections[1].header.hasPrefix("cache: bob ("))
        #expect(firstSections[1].lines == ["Profile:me", "└─ name: \"bob\""])
        #expect(firstSections[2].header.hasPrefix("cache: alice (") && firstSections[2].header.hasSuffix(", 3 records"))
        #expect(firstSections[2].lines == aliceKeys + ["Profile:me", "└─ name: \"alice\""])

        let second = try await normcache(["--cache-dir", dir.path, "--user", "bob"], input: """
            .keys
            .inspect Profile:me
            .login alice
            .keys
            .inspect Profile:me
            .login bob
            .inspect Trip:A1
            """)
        #expect(second.status == 2, "the last .inspect must fail: bob has no Trip:A1")
        #expect(second.messages == [#"error: <stdin>:7: no record "Trip:A1"; did you mean Trip:B1?"#])
        let sections = second.outputByStore
        try #require(sections.count == 3, "store headers in \(second.stdout)")
        #expect(sections[0].header.hasPrefix("cache: bob (") && sections[0].header.hasSuffix(", 2 records"))
        #expect(sections[0].lines == bobKeys + ["Profile:me", "└─ name: \"bob\""])
        #expect(sections[1].header.hasPrefix("cache: alice ("))
        #expect(sections[1].lines == aliceKeys + ["Profile:me", "└─ name: \"alice\""])
        #expect(sections[2].lines == [])

        #expect(try storedRecords(at: dir.file("alice.sqlite")).keys.sorted() == aliceKeys)
        #expect(try storedRecords(at: dir.file("bob.sqlite")).keys.sorted() == bobKeys)
    }
}

/// A cache file survives its process being killed at any moment: it opens, passes SQLite's integrity check, and holds whole records.
@Suite(.childProcesses) struct CrashDurabilityProcessTests {
    static let keyCount = 50
    static let linesPerRound = 20_000
    static let rounds = 50
    /// Generations of round `r` are `r * generationStride + 1 ...`, above every earlier round's.
    static let generationStride = 1_000_000

    static func key(_ n: Int) -> String { "Rec:\(n % keyCount)" }

    /// A record as generation `g` writes it: eight fields, each naming `g` and the key.
    static func fields(_ key: String, _ g: Int) -> [(String, String)] {
        [("gen", "\(g)")] + (1...7).map { ("f\($0)", "\"\(g)-\(key)-\($0)-payload-payload-payload\"") }
    }

    static func expectedRecord(_ key: String, _ g: Int) -> CacheObject? {
        cacheObject("{" + fields(key, g).map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}")
    }

    /// Round `round`'s script: line `i` writes generation `round * stride + i + 1` of `key(i)`.
    static func script(round: Int) -> Data {
        var text = ""
        text.reserveCapacity(linesPerRound * 260)
        for i in 0..<linesPerRound {
            let key = key(i)
            text += ".write \(key) {"
            text += fields(key, round * generationStride + i + 1).map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",")
            text += "}\n"
        }
        return Data(text.utf8)
    }

    /// What the file must hold when the first `count` lines of round `round` committed over `before`.
    static func state(after count: Int, ofRound round: Int, over before: [String: Int]) -> [String: Int] {
        var state = before
        for i in max(0, count - keyCount)..<count { state[key(i)] = round * generationStride + i + 1 }
        return state
    }

    @Test func everyRecordIsWholeAfterSIGKILLAtRandomMoments() async throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let file = dir.file("crash.sqlite")
        let scriptFile = dir.file("round.repl")
        var generations: [String: Int] = [:]   // key → generation, as the file held it after the last round
        var killedWhileRunning = 0
        var roundsThatWrote = 0

        /// Whether round `round`'s first line has committed, as a reader of the file sees it.
        /// (Not when the write-ahead log changes: opening the file makes it, well before the
        /// first commit, and the time in between, the child's start, grows with the load.)
        func roundBegan(_ round: Int) -> Bool {
            guard let store = try? SQLiteStore(path: file.path, mode: .readOnly) else { return false }
            defer { store.close() }
            guard case .int(let g)? = (try? store.load([Self.key(0)]))?.first?.fields["gen"] else { return false }
            return Int(g) > round * Self.generationStride
        }
        for round in 1...Self.rounds {
            try Self.script(round: round).write(to: scriptFile)
            // Random moments after the child began committing: how long it takes to start
            // (plugins, the file's checks) varies with the machine's load, the kill must not.
            let delay = UInt32.random(in: 0...300_000)
            let child = try Child.normcache(["--cache-dir", dir.path, "--user", "crash"], input: .file(scriptFile))
            defer { child.stop() }
            _ = await Disk.waitUntil { roundBegan(round) || !child.process.isRunning }
            if await onThread({ usleep(delay); return child.process.isRunning }) { killedWhileRunning += 1 }
            child.kill(SIGKILL)
            await onThread { child.process.waitUntilExit() }

            let context = "round \(round), killed after \(delay / 1000) ms; stderr: \(child.stderr.text)"
            let store = try SQLiteStore(path: file.path, mode: .readWrite)
            defer { store.close() }
            #expect(try store.integrityCheck() == ["ok"], "\(context)")
            var found: [String: Int] = [:]
            for record in try store.loadAll() {
                guard case .int(let g)? = record.fields["gen"] else {
                    Issue.record("\(record.key) has no generation: \(record.fields), \(context)")
                    continue
                }
                found[record.key] = Int(g)
                #expect(fieldsByName(record.fields) == Self.expectedRecord(record.key, Int(g)).map(fieldsByName), "\(record.key) is not whole: \(record.fields), \(context)")
            }
            for (key, g) in generations {
                #expect((found[key] ?? 0) >= g, "\(key) went back from generation \(g) to \(found[key] ?? 0), \(context)")
            }
            // Each .write commits on its own, so the file holds exactly a prefix of the script.
            let newest = found.values.filter { $0 > round * Self.generationStride }.max()
            let committed = newest.map { $0 - round * Self.generationStride } ?? 0
            #expect(found == Self.state(after: committed, ofRound: round, over: generations),
                    "the file is not a prefix of the script: \(committed) lines committed, \(context)")
            if committed > 0 { roundsThatWrote += 1 }
            generations = found
        }
        #expect(killedWhileRunning >= Self.rounds / 2, "only \(killedWhileRunning) of \(Self.rounds) children were still writing when killed")
        #expect(roundsThatWrote >= Self.rounds / 2, "only \(roundsThatWrote) of \(Self.rounds) rounds committed anything before the kill")
        #expect(generations.count == Self.keyCount)
    }
}

/// Several processes on one cache file: they share committed records, and a lock held too long fails one command with a clear message.
@Suite(.childProcesses) final class SharedFileProcessTests {
    let dir: ScratchDirectory
    /// Alice's store, which every process of a test opens.
    var file: URL { dir.file("alice.sqlite") }
    var options: [String] { ["--cache-dir", dir.path, "--user", "alice"] }

    init() throws { dir = try ScratchDirectory() }
    deinit { dir.remove() }

    /// A normcache process kept running on alice's store, once `lines` reached the disk
    /// (`marker` found in a file of ``dir``).
    func writer(sending lines: [String], until marker: String) async throws -> Child {
        let child = try Child.normcache(options)
        for line in lines { try child.send(line) }
        #expect(await Disk.waitUntil { !Disk.files(under: self.dir.url, containing: marker).isEmpty }, "stderr: \(child.stderr.text)")
        return child
    }

    @Test func aSecondProcessReadsAndWritesWhileTheFirstHasTheStoreOpen() async throws {
        let first = try await writer(sending: [#".write Trip:1 {"name":"Porto FIRST-91"}"#, #".write Trip:2 {"name":"Faro FIRST-92"}"#], until: "FIRST-92")
        defer { first.stop() }

        let second = try await normcache(options, input: """
            .keys
            .write Trip:3 {"name":"Lagos SECOND"}
            .inspect Trip:3
            """)
        #expect(second.status == 0 && second.messages.isEmpty)
        #expect(second.outputLines == ["Trip:1", "Trip:2", "Trip:3", "└─ name: \"Lagos SECOND\""], "\(second.stdout)")

        // The first process writes on after the second one is done.
        try first.send(#".write Trip:4 {"name":"Tavira FIRST-94"}"#)
        #expect(await Disk.waitUntil { !Disk.files(under: self.dir.url, containing: "FIRST-94").isEmpty }, "stderr: \(first.stderr.text)")
        let done = try await first.finish()
        #expect(done.status == 0 && done.messages.isEmpty)
        #expect(try storedRecords(at: file).keys.sorted() == ["Trip:1", "Trip:2", "Trip:3", "Trip:4"])
    }

    /// Each process writes the fields it changed into the record as the file holds it, so
    /// a process that opened before another wrote does not put back what it read then.
    @Test func twoProcessesWritingOneRecordLoseNoWrite() async throws {
        let first = try await writer(sending: [#".write Trip:1 {"name":"Porto FIRST-91","seats":2}"#], until: "FIRST-91")
        defer { first.stop() }
        let second = try await normcache(options, input: #".write Trip:1 {"seats":3}"#)
        #expect(second.status == 0 && second.messages.isEmpty, "\(second.stderr)")
        try first.send(#".write Trip:1 {"name":"Lisbon FIRST-93"}"#)
        #expect(await Disk.waitUntil { !Disk.files(under: self.dir.url, containing: "FIRST-93").isEmpty }, "stderr: \(first.stderr.text)")
        #expect(try storedRecords(at: file)["Trip:1"] == ["name": "Lisbon FIRST-93", "seats": 3])

        // Both at once, a field of their own per write, into one record and one each.
        let lines = { (name: String) in (0..<100).flatMap { i in
            [#".write Shared:1 {"\#(name)\#(i)":\#(i)}"#, #".write \#(name.capitalized):\#(i) {"n":\#(i)}"#]
        }.joined(separator: "\n") }
        try first.send(lines("a"))
        let racing = try await normcache(options, input: lines("b"))
        #expect(racing.status == 0 && racing.messages.isEmpty, "\(racing.stderr)")
        let done = try await first.finish()
        #expect(done.status == 0 && done.messages.isEmpty, "\(done.stderr)")
        let stored = try storedRecords(at: file)
        #expect(stored["Shared:1"]?.count == 200, "\(stored["Shared:1"]?.keys ?? [])")
        #expect(stored.keys.filter { $0.hasPrefix("A:") || $0.hasPrefix("B:") }.count == 200)
    }

    @Test func aLogoutWhileAnotherProcessHasTheStoreOpenIsRefusedAndChangesNothing() async throws {
        let first = try await writer(sending: [#".write Trip:1 {"name":"Porto FIRST-91"}"#], until: "FIRST-91")
        defer { first.stop() }

        let refused = try await normcache(options, input: ".logout\n.keys")
        #expect(refused.status == 2 && !refused.signaled)
        #expect(refused.messages.count == 1, "\(refused.stderr)")
        let message = refused.messages.first ?? ""
        #expect(message.hasPrefix("error: ") && message.contains(
            "\(file.path): is open in process \(first.pid) (normcache): nothing was deleted; close it there first"), "\(message)")
        // The session stayed logged in to alice's store, and her file is still there.
        #expect(refused.outputLines == ["Trip:1"], "\(refused.stdout)")
        #expect(Disk.exists(file))

        let done = try await first.finish()
        #expect(done.status == 0 && done.messages.isEmpty)
        let loggedOut = try await normcache(options, input: ".logout")
        #expect(loggedOut.status == 0 && loggedOut.messages.isEmpty, "\(loggedOut.stderr)")
        #expect(Disk.files(under: dir.url).isEmpty, "left behind: \(Disk.files(under: dir.url).map(\.lastPathComponent))")
    }

    @Test func aWriteBlockedLongerThanTheBusyTimeoutFailsNamingTheHolderAndTheSessionGoesOn() async throws {
        let first = try await writer(sending: [#".write Trip:1 {"name":"Porto FIRST-91"}"#], until: "FIRST-91")
        defer { first.stop() }

        let holder = try await pythonHoldingWriteLock(on: file)
        defer { holder.stop() }
        let started = Date()
        let blocked = try await normcache(options + ["--busy-timeout", "300"], input: """
            .keys
            .write Trip:9 {"name":"never stored"}
            .keys
            .inspect Trip:1
            """)
        let elapsed = Date().timeIntervalSince(started)

        #expect(blocked.status == 2 && !blocked.signaled)
        #expect(blocked.messages.count == 1, "\(blocked.stderr)")
        let message = blocked.messages.first ?? ""
        #expect(message.hasPrefix("error: "))
        #expect(message.contains(file.path), "the message names the file: \(message)")
        #expect(message.contains("is locked by ") && message.contains("process \(holder.pid) (python3)"), "the message names the holder: \(message)")
        // The first process only has the file open (every WAL connection keeps a shared lock on
        // the -shm file while open); it blocks no writer and must not be named as a holder.
        #expect(!message.contains("process \(first.pid) ("), "an idle connection is named as a holder: \(message)")
        #expect(!message.contains("database is locked"), "SQLite's bare text: \(message)")
        // The failed write left nothing behind, in memory or on disk, and later commands ran.
        #expect(blocked.outputLines == ["Trip:1", "Trip:1", "Trip:1", "└─ name: \"Porto FIRST-91\""], "\(blocked.stdout)")
        #expect(elapsed < 30, "gave up after \(elapsed) s with --busy-timeout 300")

        holder.stop()
        #expect(try storedRecords(at: file).keys.sorted() == ["Trip:1"])
        let done = try await first.finish()
        #expect(done.status == 0 && done.messages.isEmpty)
    }
}
