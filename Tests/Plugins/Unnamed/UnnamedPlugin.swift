import NormPluginKit

/// BREAKS: the entry point. A complete plugin that is not marked `@main`, so its library
/// names no plugin: the `nc_plugin_init` NormPluginKit exports finds no `main` in it and
/// fails, saying what to do (PluginLoaderTests loads it as the host loads any plugin).
///
/// ```swift
/// try host.load(".build/debug/libfixture_unnamed_plugin.so")
/// // plugin …: nc_plugin_init failed: the library names no plugin: mark its type that conforms to Plugin with @main
/// ```
struct UnnamedPlugin: Plugin {
    static let name = "unnamed"
    static let version = "1.0.0"
    static let schema = "type Query { ping: String }"
    static let typePolicies: [String: [String]] = [:]
    static let operations: [NamedOperation] = []

    let resolvers = Resolvers<Environment>(query: ["ping": { _, _ in "pong" }])
    let services: [any Service] = []
    let commands: [Command] = []

    init(environment: Environment) {}
}
