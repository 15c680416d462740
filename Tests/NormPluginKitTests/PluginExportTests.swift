import Foundation
import NormPluginABI
import NormPluginKit
import Testing

/// The export path, in-process: `PluginExport.initialize` against a host written in Swift,
/// then the host's side of the ABI, called through the filled `nc_plugin`.
@Suite struct PluginExportTests {
    let host = FakeHost()

    func load<P: Plugin>(_ type: P.Type, abiVersion: UInt32 = UInt32(NC_PLUGIN_ABI_VERSION)) throws -> LoadedPlugin {
        try LoadedPlugin(host: host, abiVersion: abiVersion) {
            PluginExport.initialize(P.self, host: $0, plugin: $1, error: $2, errorSize: $3)
        }
    }

    @Test func fillsNameVersionAndManifest() throws {
        let plugin = try load(GreetingsPlugin.self)
        defer { plugin.destroy() }
        #expect(plugin.name == "greetings")
        #expect(plugin.version == "0.1.0")
        #expect(plugin.manifest == """
            {"commands":[\
            {"help":"Greets NAME.","name":"greetings.say","refetch":[],"usage":"NAME"},\
            {"help":"Fetches Ana's greeting through the host.","name":"greetings.fetch","refetch":["Greeting"],"usage":""},\
            {"help":"Fails.","name":"greetings.fail","refetch":[],"usage":""}],\
            "operations":{"Greeting":"query Greeting($name: String!) { greeting(name: $name) { ...GreetingText } }\\nfragment GreetingText on Greeting { id text }"},\
            "schema":"type Query { greeting(name: String!): Greeting } type Greeting { id: ID! text: String! }",\
            "services":[{"domain":"greetings","name":"GreetingService"}],\
            "typePolicies":{"Greeting":["id"]}}
            """)
    }

    @Test func executeAnswersWithTheGraphQLResponse() async throws {
        let plugin = try load(GreetingsPlugin.self)
        defer { plugin.destroy() }
        let reply = try await plugin.execute(#"""
            {"query": "query Greeting($name: String!) { greeting(name: $name) { text id } }", "variables": {"name": "Ana"}, "operationName": "Greeting"}
            """#)
        #expect(reply == (true, #"{"data":{"greeting":{"text":"Hello, Ana!","id":"1"}}}"#))
        let invalid = try await plugin.execute(#"{"query": "{ greeting { text } }"}"#)
        #expect(invalid.ok)
        #expect(invalid.json.contains(#""message":"Field \"greeting\" argument \"name\" of type \"String!\" is required, but it was not provided.""#))
    }

    @Test func commandRepliesWithItsOutput() async throws {
        let plugin = try load(GreetingsPlugin.self)
        defer { plugin.destroy() }
        #expect(try await plugin.command("greetings.say", "Ana \"Bo\"") == (true, #"{"output":["Hello, Ana \"Bo\"!"]}"#))
    }

    @Test func commandCallsBackIntoTheHost() async throws {
        let plugin = try load(GreetingsPlugin.self)
        defer { plugin.destroy() }
        #expect(try await plugin.command("greetings.fetch") == (true, #"{"output":["Hello, Ana!"]}"#))
        #expect(host.received == [#"run {"operation":"Greeting","variables":{"name":"Ana"},"policy":"network-only"}"#])
    }

    @Test func commandFailuresReplyWithAMessage() async throws {
        let plugin = try load(GreetingsPlugin.self)
        defer { plugin.destroy() }
        #expect(try await plugin.command("greetings.fail") == (false, #"{"message":"greetings.fail failed, as it should"}"#))
        #expect(try await plugin.command("greetings.say") == (false, #"{"message":"usage: greetings.say NAME"}"#))
        #expect(try await plugin.command("greetings.say", "Ana", "Bo") == (false, #"{"message":"usage: greetings.say NAME"}"#))
        #expect(try await plugin.command("greetings.fetch", "now") == (false, #"{"message":"usage: greetings.fetch (no arguments)"}"#))
        #expect(try await plugin.command("greetings.wave") == (false,
            #"{"message":"unknown command greetings.wave; the commands are greetings.fail, greetings.fetch, greetings.say"}"#))
        host.reply(to: "run", with: (false, #"{"message": "the network is offline"}"#))
        #expect(try await plugin.command("greetings.fetch") == (false, #"{"message":"the network is offline"}"#))
    }

    /// Each event has reached the services when the call returns (the host calls it from a
    /// thread that may block, as ``LoadedPlugin/lifecycle(_:)`` does).
    @Test func lifecycleEventsAreHandledBeforeTheCallReturns() async throws {
        let plugin = try load(GreetingsPlugin.self)
        defer { plugin.destroy() }
        let events = [#"{"event": "login", "user": "ana"}"#, #"{"event": "logout"}"#, #"{"event": "sunrise"}"#, #"{"event": "foreground"}"#]
        var heard: [[String]] = []
        for event in events {
            await plugin.lifecycle(event)
            heard.append(host.received)
        }
        #expect(heard.map { $0.count } == [1, 2, 3, 4])
        #expect(host.received == [
            "log info heard login ana", "log info heard logout",
            #"log warning ignored the lifecycle event {"event": "sunrise"}: unknown event sunrise"#, "log info heard foreground",
        ])
    }

    @Test func destroyReleasesThePlugin() async throws {
        try load(GreetingsPlugin.self).destroy()
        try await eventually { host.received == ["log debug greetings released"] }
    }

    @Test(arguments: [UInt32(NC_PLUGIN_ABI_VERSION) - 1, UInt32(NC_PLUGIN_ABI_VERSION) + 1])
    func anotherABIVersionIsRefused(host version: UInt32) {
        #expect(throws: PluginError("greetings 0.1.0 speaks plugin ABI version \(NC_PLUGIN_ABI_VERSION), the host version \(version)")) {
            try load(GreetingsPlugin.self, abiVersion: version)
        }
    }

    @Test func initErrorsAreReported() {
        #expect(throws: PluginError("the database of café ☕ cannot be opened")) { try load(BrokenPlugin.self) }
        #expect(throws: PluginError(#"the operation Greeting is not valid: Cannot query field "greting" on type "Query". Did you mean "greeting"?"#)) {
            try load(MisspelledPlugin.self)
        }
    }

    @Test(arguments: [
        (0, nil), (1, ""), (2, "t"), (20, "the database of caf"), (21, "the database of caf"),
        (22, "the database of café"), (25, "the database of café "), (26, "the database of café ☕"),
    ] as [(Int, String?)])
    func initErrorIsCutOnACharacterBoundary(size: Int, expected: String?) {
        var api = host.api()
        var plugin = nc_plugin()
        var error = [CChar](repeating: 0x7F, count: 32)
        #expect(PluginExport.initialize(BrokenPlugin.self, host: &api, plugin: &plugin, error: &error, errorSize: size) == 1)
        let written = error.firstIndex(of: 0).flatMap { String(validating: error[..<$0].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        #expect(written == expected)
    }
}

/// Waits until `condition` holds, for up to ten seconds (lifecycle events arrive in a task).
func eventually(_ condition: () async throws -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(10)
    while try await !condition() && ContinuousClock.now < deadline {
        try await Task.sleep(for: .milliseconds(5))
    }
    #expect(try await condition())
}
