import Foundation
import NormCache
import NormClient
import NormEnvironment
import NormPluginHost
import Testing

/// A plugin that misbehaves (Tests/Plugins/broken/misbehaving.c): one that hangs in a
/// call, never replies, replies with malformed JSON, or calls the host after its destroy.
/// Each call fails with an error that names the plugin, the cache keeps what it had, and
/// the host goes on serving the plugin's other calls.
@Suite(.timeLimit(.minutes(2)))
struct PluginFaultTests {
    let client: Client
    let host: PluginHost

    init() throws {
        client = Client(cache: NormalizedCache())
        host = PluginHost(client: client, environment: Environment()) { _, _, _ in }
        host.callTimeout = .milliseconds(500)
    }

    /// The plugin, from a library file of the test's own (its statics are its own).
    private func load(_ label: String = #function) throws -> LoadedPlugin {
        let library = try CPluginBuilder.library("broken/misbehaving.c")
        return try host.load(try CPluginBuilder.copy(library, into: try CPluginBuilder.scratchDirectory(label), as: "libmisbehaving.so"))
    }

    private func fetch(_ name: String, from plugin: LoadedPlugin) async throws -> ClientResult {
        try await client.fetch(try client.cache.operation("query \(name) { greeting { code text } }"), policy: .networkOnly, from: plugin.endpoint)
    }

    /// The plugin still answers, and its answer reaches the cache.
    private func expectStillServing(_ plugin: LoadedPlugin, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        #expect(try await host.run(command: "misbehaving.ok", arguments: []) == ["fine"], sourceLocation: sourceLocation)
        #expect(try await fetch("Greeting", from: plugin).data == ["greeting": ["__typename": "Greeting", "code": "en", "text": "hello"]],
                sourceLocation: sourceLocation)
    }

    @Test(arguments: ["misbehaving.hang", "misbehaving.silent"])
    func aCommandThatNeverAnswersTimesOutNamingThePlugin(command: String) async throws {
        _ = try load("\(#function)-\(command)")
        let start = ContinuousClock.now
        let failure = await #expect(throws: CommandFailure.self) { try await host.run(command: command, arguments: []) }
        #expect(failure?.message == "misbehaving did not answer \(command) within 0.5 s (timed out; --timeout or .timeout sets how long to wait)")
        #expect(ContinuousClock.now - start < .seconds(10))
        try await expectStillServing(try #require(host.plugin(named: "misbehaving")))
    }

    @Test func aRequestThatHangsTimesOutAndTheCacheKeepsWhatItHad() async throws {
        let plugin = try load()
        try await expectStillServing(plugin)
        let before = client.cache.record("Greeting:en")
        await #expect(throws: ClientError.transport(.plugin("misbehaving did not answer the request within 0.5 s (timed out; --timeout or .timeout sets how long to wait)"))) {
            try await fetch("Hang", from: plugin)
        }
        #expect(client.cache.record("Greeting:en") == before)
        #expect(client.network.log.last?.status == "error")
        try await expectStillServing(plugin)
    }

    /// A lifecycle event (`.login`, `.logout`) the plugin never finishes handling is left
    /// behind after the timeout, and the plugin's other calls go on.
    @Test func aLifecycleEventThatHangsIsLeftBehindAfterTheTimeout() async throws {
        let plugin = try load()
        let start = ContinuousClock.now
        await plugin.handle(.login(user: "hang"))
        #expect(ContinuousClock.now - start < .seconds(10))
        await plugin.handle(.logout)
        try await expectStillServing(plugin)
    }

    /// Ctrl-C in the workbench cancels the task of the command in flight.
    @Test func cancellingACallThatHangsEndsItAtOnce() async throws {
        _ = try load()
        host.callTimeout = .seconds(60)
        let start = ContinuousClock.now
        let call = Task { try await host.run(command: "misbehaving.hang", arguments: []) }
        try await Task.sleep(for: .milliseconds(200))
        call.cancel()
        let result = await call.result
        let failure = #expect(throws: CommandFailure.self) { try result.get() }
        #expect(failure?.message == "misbehaving.hang was cancelled")
        #expect(ContinuousClock.now - start < .seconds(10))
        try await expectStillServing(try #require(host.plugin(named: "misbehaving")))
    }

    @Test func malformedRepliesNameThePluginAndWriteNothing() async throws {
        let plugin = try load()
        let keys = try client.cache.keys()
        await #expect(throws: ClientError.transport(.plugin(
            "misbehaving replied with malformed JSON: invalid JSON at line 1, column 41 (data.greeting): unterminated string"))) {
            try await fetch("Malformed", from: plugin)
        }
        await #expect(throws: ClientError.transport(.plugin("misbehaving replied with a list, not a GraphQL response object"))) {
            try await fetch("List", from: plugin)
        }
        let failure = await #expect(throws: CommandFailure.self) { try await host.run(command: "misbehaving.malformed", arguments: []) }
        #expect(failure?.message == "misbehaving.malformed: misbehaving replied with malformed JSON: invalid JSON at line 1, column 1: unexpected 'o': expected a value")
        #expect(try client.cache.keys() == keys)
        try await expectStillServing(plugin)
    }

    @Test func callsAfterDestroyAreRefusedNamingThePlugin() async throws {
        let plugin = try load()
        try await expectStillServing(plugin)
        let path = plugin.path
        host.unloadAll()
        // The library stays mapped (RTLD_NODELETE): its statics say what the host replied.
        let handle = try #require(dlopen(path, RTLD_NOW | RTLD_NOLOAD))
        defer { dlclose(handle) }
        typealias LateReply = @convention(c) () -> UnsafePointer<CChar>?
        let lateReply = unsafeBitCast(try #require(dlsym(handle, "misbehaving_late_reply")), to: LateReply.self)
        let deadline = ContinuousClock.now + .seconds(5)
        while lateReply() == nil, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        let reply = try #require(lateReply().map { String(cString: $0) })
        #expect(reply == #"ok=0 {"message":"misbehaving called the host's run after its destroy; the host ignored it"}"#)
        #expect(client.network.log.count == 1, "the refused run sent no request")
    }
}
