import Foundation
import KitchenSinkTypes
import NormCache
import NormClient
import Testing

/// `Client.nextPage(of:)`: the page after what a watch shows of its declared paginated
/// field, fetched and merged into that field, so the watch emits the longer list with cause
/// `page`; nothing is sent when there is no next page, and a query without a declared
/// paginated field is refused. A typed watch pages as its generated schema declares, even
/// over a transport that knows nothing of the schema.
@Suite struct ClientNextPageTests {
    static let schema = """
        type Query { users(first: Int, after: String): UserConnection! plain(first: Int, after: String): UserConnection! }
        type UserConnection { edges: [UserEdge!]! pageInfo: PageInfo! }
        type UserEdge { cursor: String! node: User! }
        type PageInfo { endCursor: String hasNextPage: Boolean! }
        type User @typePolicy(keyFields: "id") { id: ID! }
        extend type Query @typePolicy(connectionFields: "users")
        """

    /// A server of users 0…5, two a page, the cursor of each its id.
    static func server(field: String) -> FakeTransport.Handler {
        { request throws(TransportError) in
            var start = 0
            if case .string(let after)? = request.variables["after"], let position = Int(after) { start = position + 1 }
            let ids = Array(start..<min(start + 2, 6))
            let edges: [CacheValue] = ids.map { ["__typename": "UserEdge", "cursor": .string("\($0)"), "node": ["__typename": "User", "id": .string("\($0)")]] }
            let pageInfo: CacheValue = ["__typename": "PageInfo", "endCursor": ids.last.map { .string("\($0)") } ?? .null, "hasNextPage": .bool((ids.last ?? 5) < 5)]
            return ["data": .object([field: ["__typename": "UserConnection", "edges": .list(edges), "pageInfo": pageInfo]])]
        }
    }

    static func ids(_ data: CacheValue?, _ field: String = "users") -> [String] {
        guard case .list(let edges)? = data?[field]?["edges"] else { return [] }
        return edges.compactMap { if case .string(let id)? = $0["node"]?["id"] { id } else { nil } }
    }

    @Test func eachNextPageIsMergedAndTheWatchEmitsTheLongerList() async throws {
        let client = Client(cache: NormalizedCache())
        let fake = FakeTransport(name: "users", handler: Self.server(field: "users"), schema: try SchemaKnowledge(sdl: Self.schema))
        let users = try client.cache.operation("query Users($after: String) { users(first: 2, after: $after) { edges { cursor node { id } } pageInfo { endCursor hasNextPage } } }")
        let events = WatchEvents()
        let watch = try client.watch(users, from: fake, onEvent: events.callback)
        await client.settle()
        #expect(Self.ids(events.emissions.last?.data) == ["0", "1"])
        guard case .fetched(_, let variables) = try await client.nextPage(of: watch) else { Issue.record("no page fetched"); return }
        #expect(variables["after"] == "1")
        await client.settle()
        #expect(events.emissions.last?.cause == .page)
        #expect(Self.ids(events.emissions.last?.data) == ["0", "1", "2", "3"])
        _ = try await client.nextPage(of: watch)
        await client.settle()
        #expect(Self.ids(events.emissions.last?.data) == ["0", "1", "2", "3", "4", "5"])
        guard case .none(let reason) = try await client.nextPage(of: watch) else { Issue.record("a page past the end was fetched"); return }
        #expect(reason.contains("hasNextPage is false"))
        #expect(fake.requestCount == 3)
        watch.cancel()
    }

    /// The fixture's generated `SchemaMetadata` declares `tripPages` a connection: over a
    /// transport without schema knowledge (a plain HTTP endpoint's), the typed watch's next
    /// pages merge into its one list, and generated types read it as one.
    @Test func aTypedWatchPagesAsItsGeneratedSchemaDeclares() async throws {
        let client = Client(cache: NormalizedCache())
        let fake = FakeTransport(name: "trips", handler: { request throws(TransportError) in
            var start = 0
            if case .string(let after)? = request.variables["after"], let position = Int(after) { start = position + 1 }
            let ids = Array(start..<min(start + 2, 4))
            let edges: [CacheValue] = ids.map {
                ["__typename": "TripEdge", "cursor": .string("\($0)"), "node": ["__typename": "Trip", "id": .string("\($0)"), "name": .string("Trip \($0)")]]
            }
            let pageInfo: CacheValue = ["__typename": "PageInfo", "endCursor": .string("\(ids.last ?? 3)"), "hasNextPage": .bool((ids.last ?? 3) < 3)]
            return ["data": ["tripPages": ["__typename": "TripConnection", "edges": .list(edges), "pageInfo": pageInfo]]]
        })
        #expect(fake.schemaKnowledge == nil)
        let watch = try client.watch(TripPagesQuery(), from: fake)
        var updates = watch.makeAsyncIterator()
        #expect(await updates.next()?.data?.tripPages.edges.map(\.node.id) == ["0", "1"])
        guard case .fetched(_, let variables) = try await client.nextPage(of: watch) else { Issue.record("no page fetched"); return }
        #expect(variables["after"] == "1")
        let merged = await updates.next()
        #expect(merged?.cause == .page)
        #expect(merged?.data?.tripPages.edges.map(\.node.name) == ["Trip 0", "Trip 1", "Trip 2", "Trip 3"])
        #expect(client.cache.record("QUERY_ROOT")?.keys.filter { $0.hasPrefix("tripPages") } == ["tripPages"], "one field, not one per page")
        guard case .none = try await client.nextPage(of: watch) else { Issue.record("a page past the end was fetched"); return }
        #expect(fake.requestCount == 2)
        watch.cancel()
    }

    @Test func aQueryWithoutADeclaredPaginatedFieldIsRefused() async throws {
        let client = Client(cache: NormalizedCache())
        let fake = FakeTransport(name: "users", handler: Self.server(field: "plain"), schema: try SchemaKnowledge(sdl: Self.schema))
        let plain = try client.cache.operation("query Plain($after: String) { plain(first: 2, after: $after) { edges { cursor node { id } } pageInfo { endCursor hasNextPage } } }")
        let watch = try client.watch(plain, from: fake) { _, _ in }
        await client.settle()
        await #expect(throws: ClientError.self) { try await client.nextPage(of: watch) }
        #expect(fake.requestCount == 1)
        watch.cancel()
    }
}
