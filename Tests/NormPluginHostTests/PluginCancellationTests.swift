import Foundation
import NormCache
import NormClient
import NormEnvironment
import NormPluginHost
import TestSupport
import Testing

/// A plugin cancels a host call it no longer needs (`nc_host_api.cancel`), and the request
/// behind it ends `cancelled` on the network: from C (Tests/Plugins/hello/hello.c) and from
/// a Swift service whose task was cancelled (the bundled feed plugin's superseded searches).
@Suite(.timeLimit(.minutes(2)))
struct PluginCancellationTests {
    let client: Client
    let host: PluginHost

    init() throws {
        client = Client(cache: NormalizedCache())
        host = PluginHost(client: client, environment: Environment()) { _, _, _ in }
    }

    @Test func aCPluginCancelsItsHostCall() async throws {
        try host.load(try CPluginBuilder.library("hello/hello.c"))
        client.network.latency = .seconds(5)   // the request is still on its way when the cancel comes
        let start = ContinuousClock.now
        #expect(try await host.run(command: "hello.cancel", arguments: []) == ["cancelled: the request was cancelled"])
        #expect(ContinuousClock.now - start < .seconds(4), "the cancel cut the latency short")
        // The plugin hears "cancelled" as soon as it cancels; the request's task logs its end
        // once it has unwound, a moment later on a busy machine.
        #expect(await Poll.until { !client.network.log.isEmpty })
        #expect(client.network.log.map(\.status) == ["cancelled"])
        #expect(client.cache.record("Greeting:1") == nil)
    }

    @Test func aSupersededSearchOfTheFeedServiceEndsCancelledOnTheNetwork() async throws {
        try host.load(BuildProducts.directory + "/libnormcache_feed" + PluginHost.librarySuffix)
        client.network.latency = .seconds(1)   // every search is still in flight at the next keystroke
        #expect(try await host.run(command: "feed.search", arguments: ["lis", "lisb", "lisbon"]) == [
            #"search "lis": cancelled"#, #"search "lisb": cancelled"#,
            #"search "lisbon": 2 results (Lisbon in three days, The best pastries in Lisbon)"#,
        ])
        let log = client.network.log
        #expect(log.map(\.status) == ["cancelled", "cancelled", "ok"])
        #expect(log.prefix(2).allSatisfy { $0.milliseconds < 1000 }, "cancelled before the latency ran out: \(log)")
        let root = try #require(client.cache.record("QUERY_ROOT"))
        #expect(root.keys.filter { $0.hasPrefix("search") } == ["search(text:lisbon)"], "a cancelled search writes nothing")
    }
}
