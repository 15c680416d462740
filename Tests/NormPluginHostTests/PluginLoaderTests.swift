import Foundation
import NormCache
import NormClient
import NormEnvironment
import NormPluginHost
import TestSupport
import Testing

/// The plugin host against REAL shared libraries compiled from C (Tests/Plugins/broken/*.c
/// by ``CPluginBuilder``): every way a load fails, each with its exact reason and a message
/// that names the file, the host still working after each failure, `loadDirectory`, and a
/// working C plugin end to end through the ABI (manifest, commands, its endpoint, calls back
/// into the host, lifecycle events, unloading).
@Suite(.timeLimit(.minutes(2)))
struct PluginLoaderTests {
    // MARK: fixtures

    /// What the host's events delivered.
    final class Recorder: @unchecked Sendable {
        private let lock = NSLock()
        private var recorded: [String] = []
        var states: [String] { lock.withLock { recorded } }
        func record(_ service: String, _ state: String, _ detail: String?) {
            lock.withLock { recorded.append([service, state, detail].compactMap { $0 }.joined(separator: " ")) }
        }
    }

    struct Fixture {
        let host: PluginHost
        let client: Client
        let environment: Environment
        let recorder: Recorder
    }

    private func makeHost() throws -> Fixture {
        let client = Client(cache: NormalizedCache())
        let environment = Environment()
        let recorder = Recorder()
        let host = PluginHost(client: client, environment: environment) { recorder.record($0, $1, $2) }
        return Fixture(host: host, client: client, environment: environment, recorder: recorder)
    }

    /// The working C plugin: Tests/Plugins/broken/good.c.
    private func good() throws -> String { try CPluginBuilder.library("broken/good.c") }

    /// `load(path)` must fail with exactly `reason`, and its message must be
    /// "plugin PATH: <the reason's words>".
    @discardableResult
    private func expectRefused(_ host: PluginHost, _ path: String, _ reason: PluginLoadError.Reason,
                               sourceLocation: SourceLocation = #_sourceLocation) -> PluginLoadError? {
        do {
            let plugin = try host.load(path)
            Issue.record("\(path) loaded as \"\(plugin.name)\", expected it refused: \(reason)", sourceLocation: sourceLocation)
            return nil
        } catch {
            #expect(error.path == path, sourceLocation: sourceLocation)
            #expect(error.reason == reason, sourceLocation: sourceLocation)
            expectReadable(error, sourceLocation: sourceLocation)
            return error
        }
    }

    /// The message names the file and says what is wrong in words, not Swift/C internals.
    private func expectReadable(_ error: PluginLoadError, sourceLocation: SourceLocation = #_sourceLocation) {
        let message = "\(error)"
        let prefix = "plugin \(error.path): "
        #expect(message == prefix + "\(error.reason)", sourceLocation: sourceLocation)
        #expect(message.hasPrefix(prefix), sourceLocation: sourceLocation)
        let words = String(message.dropFirst(prefix.count))
        for jargon in ["Optional(", "Reason", "PluginError", "Unsafe", "CChar", "nil", "\0", "\\("] {
            #expect(!words.contains(jargon), "message \"\(message)\" contains \(jargon)", sourceLocation: sourceLocation)
        }
        #expect(words.count > 10, sourceLocation: sourceLocation)
        #expect(words.first?.isLetter == true, "a message starts with a word", sourceLocation: sourceLocation)
    }

    /// After a failure the session goes on: the good plugin loads and answers a command.
    private func expectHostStillWorks(_ fixture: Fixture, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let plugin: LoadedPlugin
        if let loaded = fixture.host.plugin(named: "good") {
            plugin = loaded
        } else {
            plugin = try fixture.host.load(try good())
        }
        #expect(plugin.name == "good", sourceLocation: sourceLocation)
        let output = try await fixture.host.run(command: "good.echo", arguments: ["still", "here"])
        #expect(output == ["still", "here"], sourceLocation: sourceLocation)
        #expect(fixture.host.plugins.map(\.name).filter { $0 == "good" } == ["good"], sourceLocation: sourceLocation)
    }

    /// `body` must throw a ``CommandFailure`` whose message is exactly `message`.
    private func expectCommandFails(_ message: String, sourceLocation: SourceLocation = #_sourceLocation,
                                    _ body: () async throws -> [String]) async {
        do {
            let output = try await body()
            Issue.record("expected \"\(message)\", the command printed \(output)", sourceLocation: sourceLocation)
        } catch {
            #expect((error as? CommandFailure)?.message == message, sourceLocation: sourceLocation)
            #expect("\(error)" == message, sourceLocation: sourceLocation)
        }
    }

    private func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    // MARK: the builder

    @Test func theBuilderFailsWithClangsOwnErrorMessage() throws {
        let directory = try CPluginBuilder.scratchDirectory()
        let source = try CPluginBuilder.write("int nc_plugin_init(void) { return undeclared_variable; }\n", into: directory,
                                              as: "does_not_compile.c")
        do {
            let library = try CPluginBuilder.library(source)
            Issue.record("\(source) compiled into \(library)")
        } catch let failure as CPluginBuilder.CompileFailure {
            #expect(failure.stderr.contains("undeclared_variable"))
            #expect("\(failure)".contains("clang could not compile \(source)"))
            #expect("\(failure)".contains("error:"))
        }
        // Compiled once per process: the same answer again, from the cache.
        #expect(throws: CPluginBuilder.CompileFailure.self) { try CPluginBuilder.library(source) }
        #expect(try CPluginBuilder.library("broken/good.c") == (try CPluginBuilder.library("broken/good.c")))
    }

    // MARK: 1. missing

    @Test func aMissingFileIsRefusedAsMissing() async throws {
        let fixture = try makeHost()
        let directory = try CPluginBuilder.scratchDirectory()
        let error = expectRefused(fixture.host, directory + "/libnormcache_nope.so", .missing)
        #expect(error.map { "\($0)" } == "plugin \(directory)/libnormcache_nope.so: no such file")
        expectRefused(fixture.host, "/nonexistent-directory/libnormcache_nope.so", .missing)
        expectRefused(fixture.host, "", .missing)
        #expect(fixture.host.plugins.isEmpty)
        try await expectHostStillWorks(fixture)
    }

    // MARK: 2. not a shared library

    @Test func aTextFileNamedLikeALibraryIsNotASharedLibrary() async throws {
        let fixture = try makeHost()
        let directory = try CPluginBuilder.scratchDirectory()
        // Longer than an ELF header (64 bytes), so dlopen reads it and finds no ELF magic.
        let text = String(repeating: "this is a text file named like a library, not an ELF object.\n", count: 4)
        let path = try CPluginBuilder.write(text, into: directory, as: "libx.so")
        let error = expectRefused(fixture.host, path, .notSharedLibrary("invalid ELF header"))
        #expect(error.map { "\($0)" } == "plugin \(path): not a shared library: not an ELF object (invalid ELF header)")
        try await expectHostStillWorks(fixture)
    }

    @Test func anEmptyFileIsNotASharedLibrary() async throws {
        let fixture = try makeHost()
        let directory = try CPluginBuilder.scratchDirectory()
        let path = try CPluginBuilder.write("", into: directory, as: "libnormcache_empty.so")
        let error = expectRefused(fixture.host, path, .notSharedLibrary("file too short"))
        // dlerror's text names the path; the detail drops it, the message names it once.
        #expect(error.map { "\($0)".components(separatedBy: path).count - 1 } == 1)
        try await expectHostStillWorks(fixture)
    }

    @Test func aLibraryWithAnUnresolvedSymbolIsRefusedNamingTheSymbol() async throws {
        let fixture = try makeHost()
        let path = try CPluginBuilder.library("broken/unresolved_symbol.c")
        let error = expectRefused(fixture.host, path, .libraryRefused("undefined symbol: nc_helper_that_no_library_defines"))
        #expect(error.map { "\($0)" } == "plugin \(path): a shared library that cannot be loaded: undefined symbol: nc_helper_that_no_library_defines")
        try await expectHostStillWorks(fixture)
    }

    // MARK: 3. no entry point

    @Test func aLibraryWithoutNcPluginInitHasNoEntryPoint() async throws {
        let fixture = try makeHost()
        let path = try CPluginBuilder.library("broken/no_entry.c")
        let error = expectRefused(fixture.host, path, .noEntryPoint)
        #expect(error.map { "\($0)" } == "plugin \(path): not a normcache plugin: it does not export nc_plugin_init")
        try await expectHostStillWorks(fixture)
    }

    /// A Swift plugin exports nothing itself: NormPluginKit's `nc_plugin_init` makes the type
    /// marked `@main`, and a library without one is refused with what to do.
    @Test func aSwiftPluginWithoutAMainTypeNamesNoPlugin() async throws {
        let fixture = try makeHost()
        let path = BuildProducts.directory + "/libfixture_unnamed_plugin" + PluginHost.librarySuffix
        let reason = "the library names no plugin: mark its type that conforms to Plugin with @main"
        let error = expectRefused(fixture.host, path, .initFailed(reason))
        #expect(error.map { "\($0)" } == "plugin \(path): nc_plugin_init failed: \(reason)")
        try await expectHostStillWorks(fixture)
    }

    // MARK: 4. ABI mismatch

    /// A newer plugin, and older ones: version 1, from before `nc_host_api.cancel`, and
    /// version 2, from before `nc_host_api.entity_key`, are refused too (docs/plugins.md:
    /// rebuilt, not served with part of the ABI).
    @Test(arguments: [("broken/abi_mismatch.c", UInt32(NC_PLUGIN_ABI_VERSION_FOR_TESTS) + 1), ("broken/abi_old.c", 1), ("broken/abi_v2.c", 2), ("broken/abi_v3.c", 3)])
    func anABIMismatchIsRefusedWithBothVersionsAndNeverDestroyed(source: String, version: UInt32) async throws {
        let fixture = try makeHost()
        let directory = try CPluginBuilder.scratchDirectory()
        let path = try CPluginBuilder.copy(try CPluginBuilder.library(source), into: directory, as: "libnormcache_future.so")
        let host = UInt32(NC_PLUGIN_ABI_VERSION_FOR_TESTS)
        #expect(version != host)
        let error = expectRefused(fixture.host, path, .abiMismatch(plugin: version, host: host))
        #expect(error.map { "\($0)" }
            == "plugin \(path): built for plugin ABI version \(version), but this normcache speaks version \(host); rebuild the plugin")
        #expect(exists(path + ".init"), "nc_plugin_init ran (it writes the .init marker)")
        #expect(!exists(path + ".destroyed"), "the host must not call the destroy of a plugin of another ABI")
        #expect(!exists(path + ".called"), "the host must not call any function of a plugin of another ABI")
        #expect(fixture.host.plugin(named: "future") == nil)
        #expect(fixture.environment.service(for: "future") == nil)
        try await expectHostStillWorks(fixture)
        #expect(!exists(path + ".destroyed"))
    }

    // MARK: 5. already loaded

    @Test func theSamePluginTwiceIsRefusedAsAlreadyLoaded() async throws {
        let fixture = try makeHost()
        let first = try good()
        let plugin = try fixture.host.load(first)
        let error = expectRefused(fixture.host, first, .alreadyLoaded(name: "good", path: first))
        #expect(error.map { "\($0)" } == "plugin \(first): a plugin named \"good\" is loaded already (from \(first))")

        // A copy at another path is another library with the same name.
        let directory = try CPluginBuilder.scratchDirectory()
        let copy = try CPluginBuilder.copy(first, into: directory, as: "libnormcache_good.so")
        let second = expectRefused(fixture.host, copy, .alreadyLoaded(name: "good", path: first))
        #expect(second.map { "\($0)" } == "plugin \(copy): a plugin named \"good\" is loaded already (from \(first))")

        // The first one is untouched: still the only one, still working, with its state.
        #expect(fixture.host.plugins.count == 1)
        #expect(fixture.host.plugin(named: "good") === plugin)
        #expect(fixture.environment.service(for: "good") === plugin)
        _ = try await fixture.client.fetch(try fixture.host.operation(named: "Greeting", of: plugin), policy: .networkOnly,
                                           from: plugin.endpoint)
        #expect(try await fixture.host.run(command: "good.count", arguments: []) == ["executed 1"])
        try await expectHostStillWorks(fixture)
    }

    @Test func theSameLibraryAgainIsRefusedBeforeItsInitRuns() async throws {
        let fixture = try makeHost()
        let directory = try CPluginBuilder.scratchDirectory()
        let path = try CPluginBuilder.copy(try good(), into: directory, as: "libnormcache_good.so")   // its own init count
        let link = directory + "/libnormcache_link.so"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        let plugin = try fixture.host.load(path)
        #expect(try await fixture.host.run(command: "good.inits", arguments: []) == ["initialized 1"])

        expectRefused(fixture.host, path, .alreadyLoaded(name: "good", path: path))
        expectRefused(fixture.host, link, .alreadyLoaded(name: "good", path: path))
        #expect(try await fixture.host.run(command: "good.inits", arguments: []) == ["initialized 1"])
        #expect(fixture.host.plugin(named: "good") === plugin)

        // Unloaded, the same library loads again, and its init runs again.
        fixture.host.unloadAll()
        try fixture.host.load(link)
        #expect(try await fixture.host.run(command: "good.inits", arguments: []) == ["initialized 2"])
    }

    // MARK: 6. init failed

    @Test func anInitFailureCarriesThePluginsMessage() async throws {
        let fixture = try makeHost()
        let directory = try CPluginBuilder.scratchDirectory()
        let path = try CPluginBuilder.copy(try CPluginBuilder.library("broken/init_fails.c"), into: directory,
                                           as: "libnormcache_seeded.so")
        let error = expectRefused(fixture.host, path, .initFailed("database seed missing"))
        #expect(error.map { "\($0)" } == "plugin \(path): nc_plugin_init failed: database seed missing")
        #expect(!exists(path + ".destroyed"), "after a failed init the host calls nothing else in the library")
        #expect(fixture.host.plugin(named: "seeded") == nil)
        try await expectHostStillWorks(fixture)
    }

    @Test func anInitFailureWithoutAMessageSaysWhatItReturned() async throws {
        let fixture = try makeHost()
        let path = try CPluginBuilder.library("broken/init_fails_silently.c")
        let error = expectRefused(fixture.host, path, .initFailed("it returned 7 without a message"))
        #expect(error.map { "\($0)" } == "plugin \(path): nc_plugin_init failed: it returned 7 without a message")
        try await expectHostStillWorks(fixture)
    }

    // MARK: 7. world-writable, directories

    @Test func aWorldWritableLibraryIsRefusedUntilChmodOMinusW() async throws {
        let fixture = try makeHost()
        let directory = try CPluginBuilder.scratchDirectory()
        let path = try CPluginBuilder.copy(try good(), into: directory, as: "libnormcache_good.so")
        #expect(chmod(path, 0o666) == 0)
        let error = expectRefused(fixture.host, path, .worldWritable)
        #expect(error.map { "\($0)" }
            == "plugin \(path): refused: the file is world-writable, so anyone could replace its code (chmod o-w it)")
        #expect(chmod(path, 0o757) == 0)
        expectRefused(fixture.host, path, .worldWritable)
        #expect(fixture.host.plugins.isEmpty)

        // The advice in the message works.
        #expect(chmod(path, 0o755) == 0)
        let plugin = try fixture.host.load(path)
        #expect(plugin.path == path)
        #expect(try await fixture.host.run(command: "good.echo", arguments: ["ok"]) == ["ok"])
    }

    @Test func aDirectoryGivenAsThePluginPathIsRefused() async throws {
        let fixture = try makeHost()
        let directory = try CPluginBuilder.scratchDirectory()
        let named = directory + "/libnormcache_dir.so"
        try FileManager.default.createDirectory(atPath: named, withIntermediateDirectories: false)
        expectRefused(fixture.host, directory, .notARegularFile("a directory"))
        let error = expectRefused(fixture.host, named, .notARegularFile("a directory"))
        #expect(error.map { "\($0)" } == "plugin \(named): a directory, not a plugin library")
        let pipe = directory + "/libnormcache_pipe.so"
        #expect(mkfifo(pipe, 0o644) == 0)
        expectRefused(fixture.host, pipe, .notARegularFile("a named pipe"))
        try await expectHostStillWorks(fixture)
    }

    // MARK: 8. bad manifest

    @Test func aCommandNameWithoutADomainIsABadManifestNamingTheMember() async throws {
        let fixture = try makeHost()
        let directory = try CPluginBuilder.scratchDirectory()
        let path = try CPluginBuilder.copy(try CPluginBuilder.library("broken/bad_manifest.c"), into: directory,
                                           as: "libnormcache_badmanifest.so")
        let error = expectRefused(fixture.host, path,
                                  .badManifest("commands[0].name \"rename\" must be DOMAIN.COMMAND, e.g. trips.rename"))
        #expect(error.map { "\($0)" }
            == "plugin \(path): bad manifest: commands[0].name \"rename\" must be DOMAIN.COMMAND, e.g. trips.rename")
        #expect(exists(path + ".destroyed"), "init succeeded, so the host calls destroy to free what it allocated")
        #expect(fixture.host.plugin(named: "badmanifest") == nil)
        #expect(fixture.environment.service(for: "badmanifest") == nil)
        try await expectHostStillWorks(fixture)
    }

    @Test func aManifestThatIsNotJSONIsABadManifestSayingWhere() async throws {
        let fixture = try makeHost()
        let path = try CPluginBuilder.library("broken/manifest_not_json.c")
        var parseError: JSONError?
        do { _ = try JSON.parse("{schema: \"type Query { a: Int }\",}") } catch { parseError = error }
        let detail = try #require(parseError)
        #expect("\(detail)".hasPrefix("invalid JSON at line 1, column 2"))
        let error = expectRefused(fixture.host, path, .badManifest("not JSON: \(detail)"))
        #expect(error.map { "\($0)" } == "plugin \(path): bad manifest: not JSON: \(detail)")
        try await expectHostStillWorks(fixture)
    }

    // MARK: one host, every failure in a row

    @Test func oneSessionSurvivesEveryFailureInARowAndKeepsWorking() async throws {
        let fixture = try makeHost()
        let directory = try CPluginBuilder.scratchDirectory()
        let cases: [(String, PluginLoadError.Reason)] = [
            (directory + "/libnormcache_missing.so", .missing),
            (try CPluginBuilder.write("", into: directory, as: "libempty.so"), .notSharedLibrary("file too short")),
            (try CPluginBuilder.library("broken/no_entry.c"), .noEntryPoint),
            (try CPluginBuilder.copy(try CPluginBuilder.library("broken/abi_mismatch.c"), into: directory, as: "libabi.so"),
             .abiMismatch(plugin: UInt32(NC_PLUGIN_ABI_VERSION_FOR_TESTS) + 1, host: UInt32(NC_PLUGIN_ABI_VERSION_FOR_TESTS))),
            (try CPluginBuilder.copy(try CPluginBuilder.library("broken/init_fails.c"), into: directory, as: "libinit.so"),
             .initFailed("database seed missing")),
            (try CPluginBuilder.library("broken/init_fails_silently.c"), .initFailed("it returned 7 without a message")),
            (try CPluginBuilder.copy(try CPluginBuilder.library("broken/bad_manifest.c"), into: directory, as: "libbad.so"),
             .badManifest("commands[0].name \"rename\" must be DOMAIN.COMMAND, e.g. trips.rename")),
        ]
        for (path, reason) in cases {
            expectRefused(fixture.host, path, reason)
            try await expectHostStillWorks(fixture)
        }
        #expect(fixture.host.plugins.map(\.name) == ["good"])
        #expect(fixture.environment.domains == ["good"])
    }

    // MARK: loadDirectory

    /// The suffix the host looks for in a directory: `.so`, `.dylib` on Darwin.
    private let so = PluginHost.librarySuffix

    @Test func loadDirectoryLoadsTheGoodOneAndReturnsExactlyTheTwoFailures() async throws {
        let directory = try CPluginBuilder.scratchDirectory()
        try CPluginBuilder.copy(try good(), into: directory, as: "libnormcache_good\(so)")
        let noEntry = try CPluginBuilder.copy(try CPluginBuilder.library("broken/no_entry.c"), into: directory, as: "no_entry\(so)")
        let initFails = try CPluginBuilder.copy(try CPluginBuilder.library("broken/init_fails.c"), into: directory,
                                                as: "libseeded\(so)")
        try CPluginBuilder.write("not a library\n", into: directory, as: "README.txt")

        // Every shared library (*.so): the good one loads, the two broken ones fail, the text file is ignored.
        let every = try makeHost()
        let failures = every.host.loadDirectory(directory, everySharedLibrary: true)
        #expect(failures.count == 2)
        #expect(failures.map(\.path) == [initFails, noEntry])
        #expect(failures.map(\.reason) == [.initFailed("database seed missing"), .noEntryPoint])
        for failure in failures { expectReadable(failure) }
        #expect(every.host.plugins.map(\.name) == ["good"])
        #expect(every.host.plugins.map(\.path) == [directory + "/libnormcache_good\(so)"])
        try await expectHostStillWorks(every)

        // The default filter: only libnormcache_*, so the two broken libraries are not even tried.
        let filtered = try makeHost()
        #expect(filtered.host.loadDirectory(directory).isEmpty)
        #expect(filtered.host.plugins.map(\.name) == ["good"])
        try await expectHostStillWorks(filtered)
    }

    @Test func loadDirectoryWithTheDefaultFilterReportsBrokenLibnormcacheLibraries() async throws {
        let directory = try CPluginBuilder.scratchDirectory()
        try CPluginBuilder.copy(try good(), into: directory, as: "libnormcache_good\(so)")
        let noEntry = try CPluginBuilder.copy(try CPluginBuilder.library("broken/no_entry.c"), into: directory,
                                              as: "libnormcache_no_entry\(so)")
        let silent = try CPluginBuilder.copy(try CPluginBuilder.library("broken/init_fails_silently.c"), into: directory,
                                             as: "libnormcache_silent\(so)")
        try CPluginBuilder.copy(try CPluginBuilder.library("broken/abi_mismatch.c"), into: directory, as: "libother\(so)")
        try CPluginBuilder.write("", into: directory, as: "libnormcache_notes.txt")
        let fixture = try makeHost()
        let failures = fixture.host.loadDirectory(directory)
        #expect(failures.map(\.path) == [noEntry, silent])
        #expect(failures.map(\.reason) == [.noEntryPoint, .initFailed("it returned 7 without a message")])
        #expect(fixture.host.plugins.map(\.name) == ["good"])
        #expect(!exists(directory + "/libother\(so).init"), "libother is not libnormcache_*: never opened")
        try await expectHostStillWorks(fixture)
    }

    @Test func loadDirectoryOfAMissingDirectoryIsOneMissingFailure() async throws {
        let fixture = try makeHost()
        let missing = try CPluginBuilder.scratchDirectory() + "/nope"
        let failures = fixture.host.loadDirectory(missing)
        #expect(failures.map(\.path) == [missing])
        #expect(failures.map(\.reason) == [.missing])
        #expect(failures.first.map { "\($0)" } == "plugin \(missing): no such file")
        try await expectHostStillWorks(fixture)
    }

    @Test func loadDirectoryOfAFileIsOneNotADirectoryFailure() async throws {
        let fixture = try makeHost()
        let file = try CPluginBuilder.write("", into: try CPluginBuilder.scratchDirectory(), as: "plugins.txt")
        let failures = fixture.host.loadDirectory(file)
        #expect(failures.map(\.reason) == [.notADirectory])
        #expect(failures.first.map { "\($0)" } == "plugin \(file): not a directory")
        try await expectHostStillWorks(fixture)
    }

    // MARK: end to end through the C ABI

    @Test func theManifestIsParsedAndTheTypePoliciesApplied() async throws {
        let fixture = try makeHost()
        let plugin = try fixture.host.load(try good())
        #expect(plugin.name == "good")
        #expect(plugin.version == "1.0.0")
        #expect(plugin.domain == "good")
        #expect(plugin.manifest.schema == """
            type Query { greeting: Greeting greetingByCode(code: String!): Greeting }
            type Greeting @typePolicy(keyFields: "text") { code: String! text: String! }
            extend type Query @fieldPolicy(forField: "greetingByCode", keyArgs: "code")
            """)
        #expect(plugin.manifest.operations == ["Greeting": "query Greeting { greeting { code text } }"])
        #expect(plugin.manifest.services.map(\.domain) == ["good"])
        #expect(plugin.manifest.services.map(\.name) == ["GoodService"])
        #expect(plugin.manifest.commands.map(\.name)
            == ["good.echo", "good.fail", "good.fetch", "good.remember", "good.count", "good.touch", "good.events", "good.inits"])
        #expect(plugin.manifest.commands.first?.usage == "WORDS...")
        #expect(plugin.manifest.commands.first?.help == "prints its arguments")
        #expect(plugin.manifest.commands.first { $0.name == "good.touch" }?.refetch == ["Greeting"])
        #expect(plugin.manifest.commands.allSatisfy { $0.domain == "good" })
        #expect(plugin.manifest.typePolicies.map(\.type) == ["Greeting"])
        #expect(plugin.manifest.typePolicies.map(\.keyFields) == [["code"]])
        // The policies are the plugin endpoint's, not the cache's: another endpoint's
        // Greeting objects are keyed as the cache says.
        // The manifest's type policies win over its schema's @typePolicy for the same type;
        // the schema's @fieldPolicy counts.
        #expect(plugin.endpoint.schemaKnowledge?.typePolicies["Greeting"] == .keyFields(["code"]))
        #expect(plugin.endpoint.schemaKnowledge?.fieldPolicies["Query", "greetingByCode"] == ["code"])
        #expect(fixture.client.cache.typePolicies["Greeting"] == nil)
        #expect(fixture.host.command(named: "good.echo")?.plugin === plugin)
        #expect(fixture.host.command(named: "good.nope") == nil)
        #expect(fixture.environment.service(for: "good") === plugin)
        let schema = try await plugin.endpoint.schema()
        #expect(schema == plugin.manifest.schema)
        #expect(plugin.endpoint.name == "good")
    }

    /// Schema knowledge belongs to its endpoint. The trips plugin's schema has a `Trip`
    /// that is no `Node`; with the plugin loaded, another endpoint's answer to a fragment on
    /// Node (its `Trip` is one) is stored whole and read back whole.
    @Test func aLoadedPluginsSchemaDoesNotDecideForAnotherEndpoint() async throws {
        let fixture = try makeHost()
        defer { fixture.host.unloadAll() }
        try fixture.host.load(BuildProducts.directory + "/libnormcache_trips" + PluginHost.librarySuffix)
        #expect(fixture.host.plugin(named: "trips")?.schemaKnowledge.possibleTypes.satisfies("Trip", condition: "Node") == false)
        let query = try fixture.client.cache.operation(#"query Nodes { trip(id: "1") { ...N } } fragment N on Node { id }"#)
        let other = Answering(response: ["data": ["trip": ["__typename": "Trip", "id": "1"]]])
        let fetched = try await fixture.client.fetch(query, from: other)
        #expect(fetched.data == ["trip": ["__typename": "Trip", "id": "1"]])
        #expect(fixture.client.cache.record("Trip:1")?["id"] == "1")
        let read = try fixture.client.cachedResult(of: query, from: other)
        #expect(read.complete && read.data == fetched.data)
    }

    /// An endpoint that answers every request with `response` and knows nothing of its schema.
    private struct Answering: Transport {
        let response: CacheValue
        var name: String { "answering" }
        func send(_ request: GraphQLRequest) async throws(TransportError) -> CacheValue { response }
        func schema() async throws(TransportError) -> String { "" }
    }

    @Test func commandsReturnThePluginsOutputLines() async throws {
        let fixture = try makeHost()
        try fixture.host.load(try good())
        #expect(try await fixture.host.run(command: "good.echo", arguments: ["2", "Porto", "a \"quoted\" [word]", "ü ✓"])
            == ["2", "Porto", "a \"quoted\" [word]", "ü ✓"])
        #expect(try await fixture.host.run(command: "good.echo", arguments: []) == [])
        #expect(try await fixture.host.run(command: "good.touch", arguments: []) == [])
    }

    @Test func anUnknownCommandAndAFailingCommandFailWithClearMessages() async throws {
        let fixture = try makeHost()
        try fixture.host.load(try good())
        await expectCommandFails("no service command \"good.nope\"") { try await fixture.host.run(command: "good.nope", arguments: []) }
        await expectCommandFails("no service command \"nope\"") { try await fixture.host.run(command: "nope", arguments: ["x"]) }
        await expectCommandFails("good.fail always fails: there is nothing to do") { try await fixture.host.run(command: "good.fail", arguments: []) }
        try await expectHostStillWorks(fixture)
    }

    @Test func fetchingFromThePluginsEndpointWritesRecords() async throws {
        let fixture = try makeHost()
        let plugin = try fixture.host.load(try good())
        let operation = try fixture.host.operation(named: "Greeting", of: plugin)
        let result = try await fixture.client.fetch(operation, policy: .networkOnly, from: plugin.endpoint)
        #expect(result.source == .network)
        #expect(result.errors.isEmpty)
        #expect(result.data?["greeting"]?["code"] == "en")
        #expect(result.data?["greeting"]?["text"] == "hello from C")
        // Keyed by the manifest's type policy: code, not id.
        let record = try #require(fixture.client.cache.record("Greeting:en"))
        #expect(record["text"] == "hello from C")
        #expect(record["code"] == "en")
        let again = try await fixture.client.fetch(operation, policy: .cacheFirst, from: plugin.endpoint)
        #expect(again.source == .cache)
        #expect(again.data?["greeting"]?["text"] == "hello from C")
        #expect(try await fixture.host.run(command: "good.count", arguments: []) == ["executed 1"])
    }

    /// GraphQL errors from a C endpoint are data; a response `{"data": null, "errors": [...]}`
    /// has no data: ClientResult.data is documented "nil when there is none (… a failed operation)".
    @Test func aResponseWithNullDataAndErrorsHasNoData() async throws {
        let fixture = try makeHost()
        let plugin = try fixture.host.load(try good())
        let other = try fixture.client.cache.operation("query Other { somethingElse }")
        let failed = try await fixture.client.fetch(other, policy: .networkOnly, from: plugin.endpoint)
        #expect(failed.source == .network)
        #expect(failed.errors.first?["message"] == "good serves only greeting")
        #expect(failed.errors.count == 1)
        #expect(failed.data == nil, "ClientResult(operation:response:) keeps data: null as .null instead of nil")
    }

    @Test func aCommandThatCallsBackIntoTheHostsRunWorks() async throws {
        let fixture = try makeHost()
        try fixture.host.load(try good())
        let lines = try await fixture.host.run(command: "good.fetch", arguments: [])
        #expect(lines.count == 2)
        #expect(lines.first == "fetched")
        let reply = try JSON.parse(try #require(lines.last))
        #expect(reply["source"] == "network")
        #expect(reply["data"]?["greeting"]?["text"] == "hello from C")
        #expect(reply["errors"] == [])
        #expect(reply["missing"] == [])
        #expect(fixture.client.cache.record("Greeting:en")?["text"] == "hello from C")
        #expect(fixture.recorder.states == ["good loading", "good loaded"])
    }

    @Test func aCommandWritesARecordThroughTheHost() async throws {
        let fixture = try makeHost()
        try fixture.host.load(try good())
        let lines = try await fixture.host.run(command: "good.remember", arguments: [])
        #expect(lines.first == "remembered")
        #expect(try lines.last.map { try JSON.parse($0) }?["changed"] == ["Note:1.text"])
        #expect(fixture.client.cache.record("Note:1")?["text"] == "remembered by C")
    }

    @Test func aCommandsRefetchListIsFetchedAfterIt() async throws {
        let fixture = try makeHost()
        try fixture.host.load(try good())
        #expect(try await fixture.host.run(command: "good.count", arguments: []) == ["executed 0"])
        #expect(fixture.client.cache.record("Greeting:en") == nil)
        #expect(try await fixture.host.run(command: "good.touch", arguments: []) == [])
        #expect(try await fixture.host.run(command: "good.count", arguments: []) == ["executed 1"])
        #expect(fixture.client.cache.record("Greeting:en")?["text"] == "hello from C")
    }

    @Test func lifecycleEventsReachThePlugin() async throws {
        let fixture = try makeHost()
        let plugin = try fixture.host.load(try good())
        await plugin.handle(.login(user: "ana"))
        await plugin.handle(.logout)
        await fixture.environment.broadcast(.foreground)
        #expect(try await fixture.host.run(command: "good.events", arguments: []) == ["login ana", "logout", "foreground"])
    }

    @Test func commandsAndFetchesFromManyTasksAtOnce() async throws {
        let fixture = try makeHost()
        let plugin = try fixture.host.load(try good())
        let operation = try fixture.host.operation(named: "Greeting", of: plugin)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<40 {
                group.addTask {
                    if index % 4 == 0 {
                        let result = try await fixture.client.fetch(operation, policy: .networkOnly, from: plugin.endpoint)
                        #expect(result.data?["greeting"]?["text"] == "hello from C")
                    } else if index % 4 == 1 {
                        let lines = try await fixture.host.run(command: "good.fetch", arguments: [])
                        #expect(lines.first == "fetched")
                    } else {
                        #expect(try await fixture.host.run(command: "good.echo", arguments: ["\(index)"]) == ["\(index)"])
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(fixture.client.cache.record("Greeting:en")?["text"] == "hello from C")
    }

    @Test func unloadAllThenLoadingAgainWorks() async throws {
        let fixture = try makeHost()
        let path = try good()
        try fixture.host.load(path)
        _ = try await fixture.host.run(command: "good.fetch", arguments: [])
        fixture.host.unloadAll()
        #expect(fixture.host.plugins.isEmpty)
        #expect(fixture.environment.service(for: "good") == nil)
        #expect(fixture.host.command(named: "good.echo") == nil)
        await expectCommandFails("no service command \"good.echo\"") { try await fixture.host.run(command: "good.echo", arguments: []) }

        // Loading again: a fresh instance (its counter starts at 0), the same cache.
        let again = try fixture.host.load(path)
        #expect(fixture.host.plugins.map(\.name) == ["good"])
        #expect(fixture.environment.service(for: "good") === again)
        #expect(try await fixture.host.run(command: "good.count", arguments: []) == ["executed 0"])
        #expect(fixture.client.cache.record("Greeting:en")?["text"] == "hello from C")
        try await expectHostStillWorks(fixture)
        fixture.host.unloadAll()
        fixture.host.unloadAll()
        #expect(fixture.host.plugins.isEmpty)
    }

    /// Another engineer's working C plugin, Tests/Plugins/hello/hello.c, when it is there:
    /// it compiles with the strict flags (-Werror) and works end to end, including
    /// hello.fetch, which calls back into the host's run.
    @Test(.enabled(if: CPluginBuilder.sourceExists("hello/hello.c")))
    func theHelloPluginWorksEndToEnd() async throws {
        let fixture = try makeHost()
        let path = try CPluginBuilder.library("hello/hello.c")
        let hello = try fixture.host.load(path)
        #expect(hello.name == "hello")
        #expect(hello.manifest.commands.map(\.name) == ["hello.greet", "hello.fetch", "hello.cancel"])
        #expect(hello.manifest.services.map(\.domain) == ["hello"])
        #expect(hello.manifest.operations["Greeting"] == "query Greeting { greeting { id text } }")
        #expect(try await fixture.host.run(command: "hello.greet", arguments: ["ana"]) == ["Hello, ana!"])
        await expectCommandFails("usage: hello.greet NAME") { try await fixture.host.run(command: "hello.greet", arguments: []) }
        #expect(try await fixture.host.run(command: "hello.fetch", arguments: []) == ["Hello from C"])
        #expect(fixture.client.cache.record("Greeting:1")?["text"] == "Hello from C")
        let result = try await fixture.client.fetch(try fixture.host.operation(named: "Greeting", of: hello), policy: .networkOnly,
                                                    from: hello.endpoint)
        #expect(result.data?["greeting"]?["text"] == "Hello from C")
        await hello.handle(.logout)
        await fixture.environment.broadcast(.login(user: "ana"))

        // Both C plugins side by side, then unloaded and loaded again.
        try fixture.host.load(try good())
        #expect(fixture.host.plugins.map(\.name) == ["hello", "good"])
        fixture.host.unloadAll()
        #expect(fixture.host.plugins.isEmpty)
        let again = try fixture.host.load(path)
        #expect(try await fixture.host.run(command: "hello.greet", arguments: ["bo"]) == ["Hello, bo!"])
        #expect(fixture.environment.service(for: "hello") === again)
        try await expectHostStillWorks(fixture)
    }
}

/// NC_PLUGIN_ABI_VERSION of normcache_plugin.h, read from the header itself: the test
/// target does not import NormPluginABI, and the test must follow the header when it changes.
let NC_PLUGIN_ABI_VERSION_FOR_TESTS: Int = {
    let header = (try? String(contentsOfFile: CPluginBuilder.repositoryRoot + "/NormPluginABI/include/normcache_plugin.h",
                              encoding: .utf8)) ?? ""
    for line in header.split(separator: "\n") where line.hasPrefix("#define NC_PLUGIN_ABI_VERSION ") {
        if let version = Int(line.split(separator: " ").last ?? "") { return version }
    }
    return -1
}()
