import Foundation
import NormCache
import Testing

/// `normcache run FILE...` as scripts and CI use it: exit statuses, standard input, one
/// session over several files, what runs first (`--init`, `~/.normcacherc`, `-c`), and
/// the `--bail`, `--echo` and `--json` flags. Every run gets a HOME of its own, so the
/// user's `~/.normcacherc` never takes part.
@Suite(.childProcesses) struct BatchProcessTests {
    /// A scratch directory for scripts, with an empty `home/` to be HOME.
    final class Workspace {
        let dir: ScratchDirectory
        var home: URL { dir.file("home") }

        init() throws {
            dir = try ScratchDirectory()
            try FileManager.default.createDirectory(at: dir.file("home"), withIntermediateDirectories: true)
        }

        deinit { dir.remove() }

        /// Writes a script and returns its path.
        func script(_ name: String, _ lines: String...) throws -> String {
            try dir.write(name, lines.map { $0 + "\n" }.joined()).path
        }

        /// `normcache ARGUMENTS` with HOME set to ``home``, `input` on standard input.
        func normcache(_ arguments: [String], input: String = "") async throws -> Finished {
            try await WorkbenchTests.normcache(arguments, input: input, environment: ["HOME": home.path])
        }
    }

    @Test func runExitsZeroWhenEveryCommandRanAndEveryExpectationHeld() async throws {
        let space = try Workspace()
        let script = try space.script("ok.repl", #".write Trip:1 {"name":"Lisbon"}"#, #".expect record Trip:1.name == "Lisbon""#, ".keys")
        let run = try await space.normcache(["run", script])
        #expect(run.status == 0 && !run.signaled, "\(run.stderr)")
        #expect(run.outputLines == ["Trip:1"])
        #expect(run.stderr == "")
    }

    @Test func runExitsOneWhenAnExpectationFailedAndSaysWhereWhatAndWhy() async throws {
        let space = try Workspace()
        let script = try space.script("expect.repl", #".write Trip:1 {"name":"Lisbon"}"#, #".expect record Trip:1.name == "Porto""#, ".keys")
        let run = try await space.normcache(["run", script])
        #expect(run.status == 1)
        #expect(run.outputLines == ["Trip:1"], "the lines after a failed expectation still run")
        #expect(run.errorLines == [#"expectation failed at \#(script):2: record Trip:1.name == "Porto": expected "Porto", got "Lisbon""#])
    }

    @Test func runExitsTwoWhenACommandFailedEvenIfAnExpectationFailedToo() async throws {
        let space = try Workspace()
        let script = try space.script("fail.repl", ".bogus", ".expect watchers == 3", ".keys")
        let run = try await space.normcache(["run", script])
        #expect(run.status == 2)
        #expect(run.errorLines.first == #"error: \#(script):1: unknown command ".bogus" (.help lists the commands)"#)
    }

    @Test func anExpectedErrorDoesNotFailTheRun() async throws {
        let space = try Workspace()
        let script = try space.script("expected.repl", ".inspect Nope:1", #".expect error "no record""#)
        let run = try await space.normcache(["run", script])
        #expect(run.status == 0, "\(run.stderr)")
    }

    @Test func runOfAMissingFileExitsTwoNamingItAndRunsTheOtherFiles() async throws {
        let space = try Workspace()
        let missing = space.dir.file("missing.repl").path
        let other = try space.script("other.repl", ".shell echo other ran")
        let run = try await space.normcache(["run", missing, other])
        #expect(run.status == 2)
        #expect(run.errorLines == ["error: \(missing): no such file"])
        #expect(run.outputLines == ["other ran"])
    }

    @Test func runDashReadsTheScriptFromStandardInput() async throws {
        let space = try Workspace()
        let run = try await space.normcache(["run", "-"], input: """
            .write Trip:1 {"name":"Lisbon"}
            .keys
            .expect record Trip:1.name == "Porto"
            """)
        #expect(run.status == 1)
        #expect(run.outputLines == ["Trip:1"])
        #expect(run.errorLines.first?.hasPrefix("expectation failed at <stdin>:3: ") == true, "\(run.stderr)")
    }

    @Test func severalFilesRunInOrderInOneSession() async throws {
        let space = try Workspace()
        let first = try space.script("first.repl", #".write Trip:1 {"name":"Lisbon"}"#, ".shell echo first")
        let second = try space.script("second.repl", ".shell echo second", #".expect record Trip:1.name == "Lisbon""#)
        let run = try await space.normcache(["run", first, "-", second], input: #".write Trip:2 {"name":"Porto"}"# + "\n.keys\n")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.outputLines == ["first", "Trip:1", "Trip:2", "second"])
    }

    @Test func dashCCommandsRunInOrderBeforeTheScripts() async throws {
        let space = try Workspace()
        let script = try space.script("script.repl", ".shell echo script", #".expect record Pre:1.n == 1"#)
        let run = try await space.normcache(["run", "-c", #".write Pre:1 {"n":1}"#, "-c", ".shell echo dash-c", script])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.outputLines == ["dash-c", "script"])
    }

    @Test func initFileRunsBeforeDashCAndTheScripts() async throws {
        let space = try Workspace()
        try space.dir.write("home/.normcacherc", ".shell echo normcacherc\n")
        let initFile = try space.script("init.repl", ".shell echo init")
        let script = try space.script("script.repl", ".shell echo script")
        let run = try await space.normcache(["run", "--init", initFile, "-c", ".shell echo dash-c", script])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.outputLines == ["init", "dash-c", "script"], "--init runs instead of ~/.normcacherc")
    }

    @Test func normcachercInHomeRunsFirstWhenThereIsNoInit() async throws {
        let space = try Workspace()
        try space.dir.write("home/.normcacherc", ".shell echo normcacherc\n.mode json\n")
        let script = try space.script("script.repl", ".keys")
        let run = try await space.normcache(["run", "-c", ".shell echo dash-c", script])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.outputLines.first == "normcacherc")
        #expect(run.outputLines.last == #"{"event":"keys","keys":[]}"#, "what ~/.normcacherc set holds for the scripts: \(run.stdout)")
    }

    @Test func anInitFileThatCannotBeReadExitsTwoNamingIt() async throws {
        let space = try Workspace()
        let missing = space.dir.file("nope.repl").path
        let script = try space.script("script.repl", ".shell echo script")
        let run = try await space.normcache(["run", "--init", missing, script])
        #expect(run.status == 2)
        #expect(run.errorLines == ["error: \(missing): no such file"])
        #expect(run.outputLines.isEmpty, "nothing runs after an init file that cannot be read")
    }

    @Test func bailStopsAtTheFirstFailedCommand() async throws {
        let space = try Workspace()
        let first = try space.script("first.repl", ".shell echo before", ".bogus", ".shell echo after")
        let second = try space.script("second.repl", ".shell echo second file")
        let bailed = try await space.normcache(["run", "--bail", first, second])
        #expect(bailed.status == 2)
        #expect(bailed.outputLines == ["before"], "nothing after the failure runs")
        #expect(bailed.errorLines.count == 1, "\(bailed.stderr)")

        let goesOn = try await space.normcache(["run", first, second])
        #expect(goesOn.status == 2)
        #expect(goesOn.outputLines == ["before", "after", "second file"])
    }

    @Test func bailStopsAtTheFirstFailedExpectation() async throws {
        let space = try Workspace()
        let script = try space.script("expect.repl", ".shell echo before", ".expect watchers == 2", ".shell echo after")
        let run = try await space.normcache(["run", "--bail", script])
        #expect(run.status == 1)
        #expect(run.outputLines == ["before"])
    }

    @Test func echoPrintsEachCommandBeforeItRuns() async throws {
        let space = try Workspace()
        let script = try space.script("echo.repl", "# a comment", "", ".shell echo hi", #".write Trip:1 {"name":"Lisbon"}"#, ".keys")
        let run = try await space.normcache(["run", "--echo", script])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.outputLines == [".shell echo hi", "hi", #".write Trip:1 {"name":"Lisbon"}"#, ".keys", "Trip:1"])
    }

    @Test func jsonPrintsOnlyJSONEventsOnStandardOutput() async throws {
        let space = try Workspace()
        let script = try space.script("json.repl",
            #".write QUERY_ROOT {"greeting":"hi"}"#, ".policy cache-only", "{ greeting }", ".watch { greeting }",
            #".write QUERY_ROOT {"greeting":"hello"}"#, ".keys", ".inspect QUERY_ROOT", ".stats", ".shell echo hi",
            ".bogus", ".expect watchers == 2", ".help quit", "{ a b(: 1) }")
        let run = try await space.normcache(["run", "--json", script])
        #expect(run.status == 2)
        var names: [String] = []
        for line in run.outputLines {
            guard case .object(let event)? = try? JSON.parse(line), case .string(let name)? = event["event"] else {
                Issue.record("not a JSON event on standard output: \(line)")
                continue
            }
            names.append(name)
        }
        #expect(names == ["ok", "ok", "result", "watch", "watching", "watch", "keys", "record", "stats", "shell",
                          "error", "expect", "help", "error"], "\(run.stdout)")
    }
}
