import Foundation
import NormCache
import NormClient
import NormEnvironment
import NormPluginHost
import Testing

/// Where the host finds plugins (``PluginSearch``): the directories of NORMCACHE_PLUGINS,
/// then the executable's, then ../lib/normcache/plugins from it, the first library of each
/// file name winning. Each test lays out an installation in a scratch directory
/// (PREFIX/bin, PREFIX/lib/normcache/plugins) with copies of the C plugins.
@Suite(.timeLimit(.minutes(2)))
struct PluginSearchTests {
    private let so = PluginHost.librarySuffix

    /// A new PREFIX/bin and PREFIX/lib/normcache/plugins, with `others` beside PREFIX.
    private func installation(_ others: [String] = [], _ label: String = #function) throws
        -> (root: String, bin: String, installed: String)
    {
        let root = try CPluginBuilder.scratchDirectory(label)
        let bin = root + "/prefix/bin", installed = root + "/prefix/lib/normcache/plugins"
        for directory in [bin, installed] + others.map({ root + "/" + $0 }) {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        return (root, bin, installed)
    }

    private func makeHost() -> PluginHost {
        PluginHost(client: Client(cache: NormalizedCache()), environment: Environment()) { _, _, _ in }
    }

    @Test func withoutTheVariableTheExecutablesDirectoryComesThenTheInstalledOne() {
        let search = PluginSearch(environment: [:], executableDirectory: "/usr/local/bin")
        #expect(search.directories == ["/usr/local/bin", "/usr/local/lib/normcache/plugins"])
    }

    /// The variable's directories first, in their order, empty entries skipped; a directory
    /// named twice, or by another path (`..`, a symbolic link), is searched once, by its first name.
    @Test func theVariablesDirectoriesComeFirstEachOnce() throws {
        let place = try installation(["first", "second"])
        let first = place.root + "/first", second = place.root + "/second", link = place.root + "/link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: place.bin)
        let variable = [first, "", second, first + "/../first", link, place.bin].joined(separator: ":")
        let search = PluginSearch(environment: [PluginSearch.variable: variable], executableDirectory: place.bin)
        #expect(search.directories == [first, second, link, place.installed])
    }

    /// NORMCACHE_PLUGINS's `libnormcache_svc` wins over the installed one of the same
    /// name; the installed `libnormcache_extra` loads too, and files of other names are not
    /// plugins. The libraries load in the order of their names, wherever they are.
    @Test func theFirstDirectoryThatHoldsANameWins() throws {
        let place = try installation(["mine"])
        let mine = place.root + "/mine"
        let good = try CPluginBuilder.library("broken/good.c"), hello = try CPluginBuilder.library("hello/hello.c")
        let svc = try CPluginBuilder.copy(good, into: mine, as: "libnormcache_svc" + so)
        try CPluginBuilder.copy(hello, into: place.installed, as: "libnormcache_svc" + so)
        let extra = try CPluginBuilder.copy(hello, into: place.installed, as: "libnormcache_extra" + so)
        try CPluginBuilder.copy(hello, into: place.installed, as: "libother" + so)
        try CPluginBuilder.write("", into: place.installed, as: "libnormcache_notes.txt")
        let search = PluginSearch(environment: [PluginSearch.variable: mine], executableDirectory: place.bin)
        #expect(search.libraries().paths == [extra, svc])

        let host = makeHost()
        defer { host.unloadAll() }
        #expect(host.load(search).isEmpty)
        #expect(host.plugins.map(\.name) == ["hello", "good"])
        #expect(host.plugins.map(\.path) == [extra, svc])
        #expect(host.searched == [mine, place.bin, place.installed])
    }

    /// The same library file reached through two directories (the variable names the
    /// executable's by a link) loads once, and nothing is reported.
    @Test func aLibraryInADirectoryNamedTwiceLoadsOnce() throws {
        let place = try installation()
        let link = place.root + "/link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: place.bin)
        try CPluginBuilder.copy(try CPluginBuilder.library("broken/good.c"), into: place.bin, as: "libnormcache_good" + so)
        let host = makeHost()
        defer { host.unloadAll() }
        #expect(host.load(PluginSearch(environment: [PluginSearch.variable: link], executableDirectory: place.bin)).isEmpty)
        #expect(host.plugins.map(\.path) == [link + "/libnormcache_good" + so])
    }

    /// A directory the variable names must be there; the executable's and the installed
    /// one need not (a build has no lib/, an installation may have no plugins).
    @Test func onlyTheVariablesDirectoriesMustBeThere() throws {
        let place = try installation()
        try FileManager.default.removeItem(atPath: place.installed)
        let missing = place.root + "/missing"
        let search = PluginSearch(environment: [PluginSearch.variable: missing], executableDirectory: place.bin)
        let (paths, failures) = search.libraries()
        #expect(paths.isEmpty)
        #expect(failures.map { "\($0)" } == ["plugin \(missing): no such file"])
        let host = makeHost()
        #expect(host.load(search).map(\.path) == [missing])
        #expect(host.plugins.isEmpty)
        #expect(host.searched == [missing, place.bin, place.installed])
    }
}
