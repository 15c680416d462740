import Foundation
import NormCache
import TestSupport
import Testing
@testable import Workbench

/// The session interpreter, fed lines as a pipe or the REPL would feed them.
@Suite struct SessionTests {
    /// What a session printed; appended to from any thread, as watch emissions are.
    final class Transcript: @unchecked Sendable {
        private let lock = NSLock()
        private var _output: [String] = []
        private var _errors: [String] = []
        var output: [String] { lock.withLock { _output } }
        var errors: [String] { lock.withLock { _errors } }
        func out(_ line: String) { lock.withLock { _output.append(line) } }
        func err(_ line: String) { lock.withLock { _errors.append(line) } }
    }

    func run(_ lines: String...) async throws -> (Session, Transcript) {
        try await onThread {
            let transcript = Transcript()
            let session = try Session(output: transcript.out, errors: transcript.err)
            for line in lines where !session.isFinished { session.execute(line) }
            return (session, transcript)
        }
    }

    @Test func helpIsGeneratedFromTheCommandTable() async throws {
        let (_, transcript) = try await run(".help")
        #expect(transcript.output.count == CommandTable.commands.count)
        for (line, command) in zip(transcript.output, CommandTable.commands) {
            #expect(line.hasPrefix(command.synopsis))
            #expect(line.hasSuffix(command.help))
        }
    }

    @Test func helpForOneCommand() async throws {
        let (_, transcript) = try await run(".help quit", ".help .help")
        #expect(transcript.output == [
            ".quit", "  Leave the workbench (also Ctrl-D)", "  also: .exit",
            ".help [COMMAND]", "  List the commands, or show one command's help",
        ])
        #expect(transcript.errors.isEmpty)
    }

    @Test func quitAndExitEndTheSession() async throws {
        for word in [".quit", ".exit", "  .quit  "] {
            let (session, transcript) = try await run(word, ".help")
            #expect(session.isFinished)
            #expect(transcript.output.isEmpty)
        }
    }

    @Test func commentsAndBlankLinesDoNothing() async throws {
        let (session, transcript) = try await run("", "   ", "# a comment", "  # indented")
        #expect(!session.isFinished && session.failures == 0)
        #expect(transcript.output.isEmpty && transcript.errors.isEmpty)
    }

    @Test func mistakesAreNamedWithSuggestions() async throws {
        let (session, transcript) = try await run(".hlep", ".qit", ".frobnicate", "hello", ".quit now", ".help xyzzy")
        #expect(session.failures == 6)
        #expect(transcript.errors == [
            "error: unknown command \".hlep\"; did you mean .help? (.help lists the commands)",
            "error: unknown command \".qit\"; did you mean .quit? (.help lists the commands)",
            "error: unknown command \".frobnicate\" (.help lists the commands)",
            "error: \"hello\" is not a command; commands start with \".\" (.help lists them), "
                + "service commands with a domain (.commands lists them), GraphQL with query, mutation or {",
            "error: .quit takes no arguments",
            "error: unknown command \".xyzzy\" (.help lists the commands)",
        ])
        #expect(!session.isFinished)
    }

    @Test func logoutAfterOpenDeletesNothing() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("normcache-session-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let other = directory.appendingPathComponent("other.sqlite").path
        let transcript = Transcript()
        try await onThread {
            let session = try Session(options: SessionOptions(cacheDirectory: directory.path, user: "alice"),
                                      output: transcript.out, errors: transcript.err)
            for line in [".open \(other)", #".write Trip:1 {"name":"Porto"}"#, ".logout"] { session.execute(line) }
        }
        #expect(transcript.errors.dropFirst() == ["error: no user is logged in"], "after the session's start: \(transcript.errors)")
        #expect(FileManager.default.fileExists(atPath: other))
        #expect(try NormalizedCache(store: try SQLiteStore(path: other)).keys() == ["Trip:1"])
    }

    /// `.logout` deletes the user's file, and with it when each record was received (its
    /// `normcache_received` table): nothing else keeps them, and the next login has none.
    @Test func logoutTakesTheReceivedTimesWithTheFile() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("normcache-session-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let alice = directory.appendingPathComponent("alice.sqlite").path
        func keptTimes() throws -> [String: String] {
            let store = try SQLiteStore(path: alice, mode: .readOnly)
            defer { store.close() }
            return try store.receivedTimes(of: ["Trip:1"])
        }
        let transcript = Transcript()
        try await onThread {
            let session = try Session(options: SessionOptions(cacheDirectory: directory.path, user: "alice"),
                                      output: transcript.out, errors: transcript.err)
            session.execute(#".write Trip:1 {"name":"Porto"}"#)
            #expect(try keptTimes().keys.sorted() == ["Trip:1"])
            session.execute(".logout")
            #expect(!FileManager.default.fileExists(atPath: alice))
            session.execute(".login alice")
            #expect(try session.client.cache.ages(of: "Trip:1") == nil)
            #expect(try keptTimes().isEmpty)
            #expect(session.failures == 0, "\(transcript.errors)")
        }
    }

    @Test func editDistance() async throws {
        #expect(DidYouMean.editDistance("help", "hlep") == 2)
        #expect(DidYouMean.editDistance("", "abc") == 3)
        #expect(DidYouMean.editDistance("quit", "quit") == 0)
    }

    /// One rule for every "did you mean": closest first, at most three, within one edit
    /// for a short name and up to three for a long one.
    @Test func didYouMeanNamesTheClosestFew() {
        #expect(DidYouMean("Trip:9", among: ["Trip:1", "Trip:2", "Tripe:9x", "User:9", "QUERY_ROOT"]).names == ["Trip:1", "Trip:2", "Tripe:9x"])
        #expect(DidYouMean("qit", among: ["quit", "exit"], prefix: ".").names == [".quit"])
        #expect(DidYouMean("ab", among: ["abc", "xy"]).names == ["abc"])
        #expect(DidYouMean("ab", among: ["xy"]).hint == "")
        #expect(DidYouMean("trips.renmae", among: ["trips.rename", "trips.remove", "purls.rename"]).hint == "; did you mean trips.rename or trips.remove?")
    }

    /// A key's suggestions come from the keys sharing the longest prefix with it: all of a
    /// small cache's, a bounded few of a large one's, so a typo costs the same over a million.
    @Test func keySuggestionsLookAtTheNeighboursOfTheKey() {
        let keys = ["QUERY_ROOT", "Seat:1", "Trip:1", "Trip:10", "Trip:2", "User:9"]
        #expect(Array(DidYouMean.neighbours(of: "Trip:9", inSorted: keys)) == keys)
        #expect(DidYouMean.neighbours(of: "Trip:9", inSorted: keys, count: 3) == ["Trip:1", "Trip:10", "Trip:2"])
        #expect(DidYouMean.neighbours(of: "Trip:1", inSorted: keys, count: 2) == ["Trip:1", "Trip:10"])
        #expect(DidYouMean.neighbours(of: "Zebra:1", inSorted: keys, count: 2) == ["Trip:2", "User:9"])
        let many = (1...20_000).map { "Trip:\($0)" }.sorted()
        let neighbours = DidYouMean.neighbours(of: "Trip:1234x", inSorted: many)
        #expect(neighbours.count == 5_000 && neighbours.allSatisfy { $0.hasPrefix("Trip:1") })
        let names = DidYouMean("Trip:1234x", among: neighbours).names
        #expect(names.count == 3 && names.allSatisfy { DidYouMean.editDistance($0, "Trip:1234x") == 1 })
    }
}
