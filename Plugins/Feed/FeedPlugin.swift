import NormPluginKit

/// The feed plugin: an in-process feed server (a feed per user, the same at every start,
/// a search that takes it about 100 ms, and the whole feed of 125 items a page at a time:
/// `feedConnection`, a Relay connection, and `feedItems`, by offset; `pagedFeed` and
/// `pagedItems` the same, declared merged in the cache), the operations of
/// its views (GraphQL/Operations, generated into Generated/ by `normcache codegen
/// --embed-schema`), and the `feed` service with its view state and commands.
///
/// ```
/// feed.load                   state feed: loading … state feed: loaded (6 items)
/// feed.search lis,lisb,lisbon search "lis": cancelled … search "lisbon": 2 results (…)
/// ```
@main
struct FeedPlugin: Plugin {
    static let name = "feed"
    static let version = "1.0.0"
    static let schema = FeedSchema.sdl
    static let typePolicies = FeedSchema.typePolicies
    static let operations = [NamedOperation(FeedQuery.self), NamedOperation(SearchQuery.self), NamedOperation(FeedPageQuery.self),
                             NamedOperation(FeedItemsQuery.self), NamedOperation(PagedFeedQuery.self), NamedOperation(PagedItemsQuery.self)]

    let resolvers: Resolvers<Environment>
    let services: [any Service]
    let commands: [Command]

    init(environment: Environment) throws {
        let server = FeedServer()
        environment.set(server)
        let feed = try FeedService(environment: environment)
        resolvers = server.resolvers
        services = [feed]
        commands = feed.commands
    }
}
