import Foundation
import NormCache
import NormClient
import NormEnvironment
import NormPluginHost
import TestSupport
import Testing

/// A plugin names records by keys the host makes (`nc_host_api.entity_key`), never by
/// joining values itself: the bundled purls plugin creates and deletes a PURL whose address
/// holds `+` and `\` and whose name has an é written decomposed (e, U+0301), and the key it
/// evicts and reports is the one the cache holds, byte for byte (escaped, in Unicode NFC).
@Suite(.timeLimit(.minutes(2)))
struct PluginEntityKeyTests {
    @Test func thePurlsPluginNamesTheRecordByTheHostsKey() async throws {
        let client = Client(cache: NormalizedCache())
        let host = PluginHost(client: client, environment: Environment()) { _, _, _ in }
        try host.load(BuildProducts.directory + "/libnormcache_purls" + PluginHost.librarySuffix)
        let (address, name) = (#"a+b\c@example.org"#, "cafe\u{301}")
        let key = #"PURL:a\+b\\c@example.org+caf"# + "\u{E9}"
        _ = try await host.run(command: "purls.create", arguments: [address, name, "https://x.example.org/c"])
        #expect(client.cache.record(key)?["url"] == .string("https://x.example.org/c"))

        let output = try await host.run(command: "purls.delete", arguments: [address, name])
        // Scalars, not Strings: Swift's == would take the decomposed é for the composed one.
        #expect(output.map { Array($0.unicodeScalars) } == [Array("deleted \(name) of \(address); evicted \(key)".unicodeScalars)])
        #expect(client.cache.record(key) == nil)
    }
}
