import Foundation
import NormPluginKit

/// The server behind the plugin's endpoint: the feed of the user logged in (`login`
/// switches the user, `logout` goes back to the user `default`), a search that takes it
/// about 100 ms, and the whole feed (older posts too) a page at a time: `feedConnection`
/// (a Relay connection) and `feedItems` (offset and limit), and the same again as
/// `pagedFeed` and `pagedItems`, whose pages the schema declares merged in the cache.
///
/// ```swift
/// let server = FeedServer()
/// await server.follow(.login(user: "ana"))
/// let schema = try ExecutableSchema(sdl: FeedSchema.sdl, resolvers: server.resolvers)
/// ```
actor FeedServer {
    /// How long the server takes to answer a search.
    static let searchTime: Duration = .milliseconds(100)

    private var feeds = PerUser { FeedItem.seed(for: $0) }
    private var archives = PerUser { FeedItem.archive(for: $0) }

    /// Follows the app's lifecycle: `login` switches the user, `logout` drops their feed.
    func follow(_ event: LifecycleEvent) {
        feeds.follow(event)
        archives.follow(event)
    }

    /// The resolvers of the endpoint's root fields.
    nonisolated var resolvers: Resolvers<Environment> {
        Resolvers(query: [
            "feed": { _, _ in await self.feed.map(\.object) },
            "search": { arguments, _ in
                let text = try arguments["text"].stringValue()
                guard !text.isEmpty else { throw PluginError("a search needs some text") }
                try await Task.sleep(for: Self.searchTime)
                return await self.feed.filter { $0.title.range(of: text, options: .caseInsensitive) != nil }.map(\.object)
            },
            "feedConnection": { arguments, _ in
                try Self.connection(of: await self.archive, first: arguments["first"].int, after: arguments["after"].string,
                                    last: arguments["last"].int, before: arguments["before"].string)
            },
            "feedItems": { arguments, _ in
                try Self.slice(of: await self.archive, offset: arguments["offset"].int ?? 0, limit: arguments["limit"].int ?? 20)
            },
            "pagedFeed": { arguments, _ in
                try Self.connection(of: await self.archive, first: arguments["first"].int, after: arguments["after"].string,
                                    last: arguments["last"].int, before: arguments["before"].string)
            },
            "pagedItems": { arguments, _ in
                try Self.slice(of: await self.archive, offset: arguments["offset"].int ?? 0, limit: arguments["limit"].int ?? 20)
            },
        ])
    }

    private var feed: [FeedItem] { feeds.current { $0 } }
    private var archive: [FeedItem] { archives.current { $0 } }
}
