import NormPluginKit

/// The PURLs plugin: an in-process PURL server (one directory per user, seeded the same at
/// every start), the operations of its views (GraphQL/Operations, generated into Generated/
/// by `normcache codegen --embed-schema`), and the `purls` repository with its commands.
///
/// ```
/// purls.fetch ana@example.org        page 1: 2 purls (cv, blog) … total: 5 purls in 3 pages
/// purls.create ana@example.org cv https://new.example    server kept https://ana.example.org/cv.pdf …
/// ```
@main
struct PurlsPlugin: Plugin {
    static let name = "purls"
    static let version = "1.0.0"
    static let schema = PurlSchema.sdl
    static let typePolicies = PurlSchema.typePolicies
    static let operations = [
        NamedOperation(PurlListQuery.self), NamedOperation(PurlListPageQuery.self),
        NamedOperation(CreatePurlMutation.self), NamedOperation(DeletePurlMutation.self),
    ]

    let resolvers: Resolvers<Environment>
    let services: [any Service]
    let commands: [Command]

    init(environment: Environment) throws {
        let server = PurlServer()
        environment.set(server)
        let purls = try PurlRepository(environment: environment)
        resolvers = server.resolvers
        services = [purls]
        commands = purls.commands
    }
}
