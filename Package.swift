// swift-tools-version: 6.0
//
// normcache: a normalized GraphQL client cache for Swift, with a C key core,
// run-time service plugins and the `normcache` REPL workbench.
// Layers (each depends only on those below): CCore → NormCache → NormClient → NormPluginHost →
// Workbench → normcache. Plugins/* are dynamic libraries written against NormPluginKit, which speaks
// to the host only through the C ABI in NormPluginABI/include/normcache_plugin.h.
import PackageDescription

let package = Package(
    name: "normcache",
    // macOS 15: the workbench, the plugin host and the kit use Synchronization's Mutex and
    // Atomic and task executors (`Task(executorPreference:)`), which came with macOS 15 and
    // iOS 18. iOS builds only what an app links (NormClient, NormCache, NormAPI, CCore,
    // CSQLite), whose newest APIs are Duration and the clocks (iOS 16): a Mutex there would
    // raise this to 18. What builds where, and why: docs/platforms.md.
    platforms: [.macOS(.v15), .iOS(.v16)],
    products: [
        .executable(name: "normcache", targets: ["normcache"]),
        .library(name: "NormCache", targets: ["NormCache"]),
        // What an app adds to its Package.swift: the client, with the engine it re-exports.
        .library(name: "NormClient", targets: ["NormClient"]),
        // What generated Swift types (`normcache codegen`) build on.
        .library(name: "NormAPI", targets: ["NormAPI"]),
        // The plugin host, apart from the client so that an app's NormClient loads no code
        // (an iOS app cannot load a shared library at all); its API is package-level: the
        // workbench loads plugins, an app does not.
        .library(name: "NormPluginHost", targets: ["NormPluginHost"]),
        // Service plugins: the host loads every libnormcache_*.so beside its executable.
        .library(name: "normcache_trips", type: .dynamic, targets: ["TripsPlugin"]),
        .library(name: "normcache_purls", type: .dynamic, targets: ["PurlsPlugin"]),
        .library(name: "normcache_donuts", type: .dynamic, targets: ["DonutsPlugin"]),
        .library(name: "normcache_feed", type: .dynamic, targets: ["FeedPlugin"]),
        // A test fixture, loaded by tests only (the host loads libnormcache_* on its own).
        .library(name: "fixture_unnamed_plugin", type: .dynamic, targets: ["UnnamedPlugin"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/GraphQLSwift/GraphQL", from: "4.3.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // The WebSocket connection subscriptions run over, on Linux (NormWebSocketNIO).
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        // System libraries (Debian: libedit-dev, libsqlite3-dev, libutf8proc-dev). Darwin's SDKs
        // have SQLite, and macOS's has libedit: where no .pc file is found (macOS has no
        // pkg-config of its own), SwiftPM warns "couldn't find pc file", names the provider,
        // and builds with the module map's `link` and the SDK's headers.
        .systemLibrary(name: "CEdit", path: "Sources/CEdit", pkgConfig: "libedit",
                       providers: [.apt(["libedit-dev"]), .brew(["libedit"])]),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),

        // The C core: canonical keys, its own hash (nc_hash64), the key interner. Keys are
        // normalised (NFC) by utf8proc on Linux and by CoreFoundation on Apple's platforms,
        // whose SDKs (iOS's included) have no utf8proc (docs/platforms.md).
        .target(
            name: "CCore",
            path: "CCore",
            sources: ["src"],
            publicHeadersPath: "include",
            linkerSettings: [
                .linkedLibrary("utf8proc", .when(platforms: [.linux])),
                .linkedFramework("CoreFoundation", .when(platforms: [.macOS, .iOS, .tvOS, .watchOS, .visionOS])),
            ]
        ),

        // The plugin ABI: normcache_plugin.h, all a plugin links, and nothing of the key core.
        // A C target with no source file: SwiftPM (6.x) makes a Clang module of its public
        // header, so the host and the kit import the ABI's types while a C plugin includes
        // the same header (`-I NormPluginABI/include`); no empty translation unit is needed.
        .target(name: "NormPluginABI", path: "NormPluginABI"),

        // What the Swift types `normcache codegen` writes build on: selection sets decoded from
        // any ResponseData (the engine's CacheValue, the plugin kit's Map), GraphQLEnum, JSONValue
        // for variables and optimistic data. No dependencies: plugins link it as the host does.
        .target(name: "NormAPI"),

        // The engine: keys, values, operations (parsed by GraphQLSwift), records, watchers,
        // and the SQLite store in Apollo iOS's file format. No unsafe flags here or in any
        // target an app's library builds on: SwiftPM refuses them in a versioned dependency
        // (the architecture test checks; docs/platforms.md).
        .target(name: "NormCache", dependencies: ["CCore", "CSQLite", "NormAPI", .product(name: "GraphQL", package: "GraphQL")]),

        // The typed registry of utilities and services, and lifecycle events (host and plugins).
        .target(name: "NormEnvironment"),

        // The client: fetch policies, in-flight dedup, watchers that refetch, transports
        // (HTTP, simulated network, any an app writes). What an app links: no plugin, no dlopen.
        .target(name: "NormClient", dependencies: ["NormCache", "NormAPI"]),

        // WebSocket connections for subscriptions through swift-nio (ws: only, no TLS): linked by
        // the `normcache` executable and the tests, never by an app's NormClient, which has
        // Foundation's URLSession connector (docs/live.md, "Subscriptions").
        .target(
            name: "NormWebSocketNIO",
            dependencies: ["NormClient", .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                           .product(name: "NIOHTTP1", package: "swift-nio"), .product(name: "NIOWebSocket", package: "swift-nio"),
                           .product(name: "NIOConcurrencyHelpers", package: "swift-nio")]
        ),

        // The plugin host: loads plugins with dlopen, routes their service commands, answers
        // their host calls through the C ABI, and serves each plugin's endpoint as a transport.
        .target(
            name: "NormPluginHost",
            dependencies: ["NormClient", "NormCache", "NormEnvironment", "NormPluginABI", .product(name: "Logging", package: "swift-log")]
        ),

        // An app's GraphQL project: apollo-codegen-config.json or the .graphqls / schema.json and
        // .graphql files under a directory, @typePolicy / @fieldPolicy, validated operations.
        .target(name: "NormProject", dependencies: ["NormCache", .product(name: "GraphQL", package: "GraphQL")]),

        // `normcache codegen`: Swift types for a project's operations and fragments, on NormAPI.
        .target(name: "NormCodegen", dependencies: ["NormProject", "NormCache", .product(name: "GraphQL", package: "GraphQL")]),

        // The Swift SDK for plugin authors, over the C ABI. It exports `nc_plugin_init` for
        // every plugin it is linked into, and finds the plugin's type through the library's
        // own `main` (the type marked @main), which it looks up with dladdr (CDladdr). No
        // unsafe flag: plugin authors depend on it as a package.
        .target(
            name: "NormPluginKit",
            dependencies: ["NormPluginABI", "CDladdr", "NormEnvironment", "NormAPI", .product(name: "GraphQL", package: "GraphQL")]
        ),
        // dladdr, which glibc declares only under _GNU_SOURCE: defined in this target's one C
        // file rather than by `-Xcc -D_GNU_SOURCE` on the kit, an unsafe flag.
        .target(name: "CDladdr"),

        // The trips plugin: trips, journeys and reservations, per user, written with the kit.
        // Linked "nodelete" on Linux: dlclose must not unmap Swift code, whose type metadata
        // and conformances the Swift runtime keeps using (a cast after an unmap crashes).
        // `-z nodelete` is GNU ld's; Darwin needs none: there dlclose never unloads a library
        // that holds Swift metadata.
        .target(
            name: "TripsPlugin",
            dependencies: ["NormPluginKit", "NormAPI"],
            path: "Plugins/Trips",
            exclude: ["GraphQL"],
            linkerSettings: [.unsafeFlags(["-Xlinker", "-z", "-Xlinker", "nodelete"], .when(platforms: [.linux]))]
        ),
        // The PURLs plugin: a repository whose pages arrive as a stream; optimistic creates, the server wins.
        .target(name: "PurlsPlugin", dependencies: ["NormPluginKit", "NormAPI"], path: "Plugins/Purls", exclude: ["GraphQL"]),
        // The donuts plugin: stateless menu, orders, payments and users services sharing utilities.
        .target(name: "DonutsPlugin", dependencies: ["NormPluginKit", "NormAPI"], path: "Plugins/Donuts", exclude: ["GraphQL"]),
        // The feed plugin: a feed with view state, and searches that a newer one cancels.
        .target(name: "FeedPlugin", dependencies: ["NormPluginKit", "NormAPI"], path: "Plugins/Feed", exclude: ["GraphQL"]),

        // The REPL workbench and the benchmarks it runs.
        .target(
            name: "Workbench",
            dependencies: ["NormClient", "NormPluginHost", "NormCache", "NormEnvironment", "NormProject", "CEdit", .product(name: "Logging", package: "swift-log"),
                           .product(name: "GraphQL", package: "GraphQL")]
        ),
        // Generated/ is `normcache codegen --project Sources/NormBench/GraphQL` (typed.read.10k).
        .target(name: "NormBench", dependencies: ["Workbench", "NormPluginHost", "NormClient", "NormCache", "NormAPI", "NormProject", "CCore", "CSQLite",
                                                  .product(name: "GraphQL", package: "GraphQL")],
                exclude: ["GraphQL"]),

        // The executable: argument parsing and subcommands only.
        .executableTarget(
            name: "normcache",
            dependencies: [
                "Workbench", "NormPluginHost", "NormBench", "NormCodegen", "NormCache",
                .target(name: "NormWebSocketNIO", condition: .when(platforms: [.linux])),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // A plugin that forgets @main: its library must fail to load, saying so (PluginLoaderTests).
        .target(name: "UnnamedPlugin", dependencies: ["NormPluginKit"], path: "Tests/Plugins/Unnamed"),

        // What test targets share: blocking off Swift Testing's threads (onThread), and reading
        // a child process's output (PipeReader).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "NormCacheTests", dependencies: ["NormCache", "NormAPI", "CCore", "CSQLite"]),
        .testTarget(name: "NormClientTests", dependencies: ["NormClient", "NormWebSocketNIO", "NormCache", "NormAPI", "TripsAPI", "KitchenSinkTypes", "TestSupport"]),
        // The plugin host against the bundled plugins and C plugins the tests compile (CPluginBuilder).
        .testTarget(name: "NormPluginHostTests", dependencies: ["NormPluginHost", "NormClient", "NormCache", "NormEnvironment", "TestSupport"]),
        // The client as an app uses it: `import NormClient` alone, no @testable, no fixture.
        .testTarget(name: "LibraryUserTests", dependencies: ["NormClient"]),
        .testTarget(name: "NormProjectTests", dependencies: ["NormProject", "NormCache", "TestSupport", .product(name: "GraphQL", package: "GraphQL")]),
        // Checked-in codegen output, compiled as an app compiles it: the example app's (its
        // configuration asks for a package of its own, the module TripsAPI; its Package.swift
        // beside Sources is for an app that adds it as a package), and a fixture with every
        // shape and escaped name (NormCodegenTests regenerates both).
        .target(name: "TripsAPI", dependencies: ["NormAPI"], path: "examples/TripsApp/TripsAPI/Sources"),
        .target(name: "KitchenSinkTypes", dependencies: ["NormAPI"], path: "Tests/Codegen/KitchenSink/Generated"),
        .testTarget(name: "NormCodegenTests", dependencies: ["NormCodegen", "NormProject", "NormCache", "NormAPI", "TripsAPI", "KitchenSinkTypes", "TestSupport"]),
        .testTarget(name: "WorkbenchTests", dependencies: ["Workbench", "NormClient", "NormWebSocketNIO", "NormCache", "TestSupport"]),
        .testTarget(name: "NormPluginKitTests", dependencies: ["NormPluginKit", "NormPluginABI", "TestSupport", .product(name: "GraphQL", package: "GraphQL")]),
    ],
    swiftLanguageModes: [.v6],
    cLanguageStandard: .c11
)

// `make fuzz` only (NORMCACHE_FUZZ=1, `--sanitize=fuzzer`, scratch path .build-fuzz): the
// libFuzzer targets over the Swift code that reads what users, files and servers send.
// libFuzzer supplies `main`, so an ordinary build could not link this executable.
if Context.environment["NORMCACHE_FUZZ"] != nil {
    package.targets.append(.executableTarget(name: "NormFuzz", dependencies: ["NormCache", "Workbench", "NormCodegen", "NormProject"], path: "Tests/Fuzz/NormFuzz"))
}

// `make tsan` only (NORMCACHE_TSAN=1, scratch path .build-tsan): the engine and its tests, all
// that the ThreadSanitizer run of ConcurrencyTests needs, so that it does not build every
// product and test target a second time.
if Context.environment["NORMCACHE_TSAN"] != nil {
    let engine: Set = ["CCore", "CSQLite", "NormAPI", "NormCache", "NormCacheTests"]
    package.targets.removeAll { !engine.contains($0.name) }
    package.products = [.library(name: "NormCache", targets: ["NormCache"])]
}
