import Testing
@testable import NormCache

/// Pages merged into one field, as a schema declares (``Pagination``, ``PageMerge``): the
/// scenario of Apollo Kotlin's `ConnectionPaginationTest` (first page, pages after and
/// before, a page not next to the list, an empty page, the first page again), offset lists,
/// embedded fields, what gc and the SQLite store see, and the declarations' errors.
@Suite struct PaginationTests {
    static let schema = """
        type Query {
          users(first: Int, after: String, last: Int, before: String): UserConnection
          posts(offset: Int, limit: Int): [Post!]!
          settings: Settings
        }
        type UserConnection { edges: [UserEdge!]! pageInfo: PageInfo! totalCount: Int }
        type UserEdge { cursor: String! node: User! }
        type PageInfo { startCursor: String endCursor: String hasNextPage: Boolean! hasPreviousPage: Boolean! }
        type User @typePolicy(keyFields: "id") { id: ID! name: String! }
        type Post @typePolicy(keyFields: "id") { id: ID! title: String! }
        type Settings { theme: String! owner: User! }

        """
    static let declared = schema + """
        extend type Query @typePolicy(connectionFields: "users", embeddedFields: "settings")
        extend type Query @fieldPolicy(forField: "posts", paginationArgs: "offset limit")
        """
    static let users = """
        query Users($first: Int, $after: String, $last: Int, $before: String) {
          users(first: $first, after: $after, last: $last, before: $before) {
            pageInfo { startCursor endCursor hasNextPage hasPreviousPage }
            edges { cursor node { id name } }
          }
        }
        """

    /// A page of users `ids`, their cursors `c` + id.
    static func page(_ ids: [Int], next: Bool = true, previous: Bool = false) throws -> CacheObject {
        let edges = ids.map { #"{"__typename":"UserEdge","cursor":"c\#($0)","node":{"__typename":"User","id":"\#($0)","name":"U\#($0)"}}"# }
        let start = ids.first.map { #""c\#($0)""# } ?? "null", end = ids.last.map { #""c\#($0)""# } ?? "null"
        return try Support.object(#"""
            {"users":{"__typename":"UserConnection","pageInfo":{"__typename":"PageInfo","startCursor":\#(start),"endCursor":\#(end),
             "hasNextPage":\#(next),"hasPreviousPage":\#(previous)},"edges":[\#(edges.joined(separator: ","))]}}
            """#)
    }

    let cache: NormalizedCache
    let knowledge: SchemaKnowledge
    let operation: CompiledOperation

    init() throws {
        cache = try Support.cache()
        knowledge = try SchemaKnowledge(sdl: Self.declared)
        operation = try cache.operation(Self.users)
    }

    func write(_ ids: [Int], _ variables: String, next: Bool = true, previous: Bool = false) throws {
        try cache.write(data: try Self.page(ids, next: next, previous: previous), for: operation,
                        variables: try Support.object(variables), schema: knowledge)
    }

    /// The user ids the first page's query reads back, and its page info.
    func listed() throws -> (ids: [String], pageInfo: CacheValue?) {
        let result = try cache.read(operation, variables: try Support.object(#"{"first":2}"#), schema: knowledge)
        guard case .object(let data)? = result.data, case .object(let users)? = data["users"], case .list(let edges)? = users["edges"] else {
            throw Support.Failure("no users read: missing \(result.missing)")
        }
        let ids = edges.compactMap { edge -> String? in
            if case .object(let node)? = edge["node"], case .string(let id)? = node["id"] { return id }
            return nil
        }
        return (ids, users["pageInfo"])
    }

    @Test func declarationsReadFromTheSchema() throws {
        #expect(knowledge.pagination["Query", "users"] == .connection)
        #expect(knowledge.pagination["Query", "posts"] == .offset(argument: "offset", arguments: ["offset", "limit"]))
        #expect(knowledge.pagination.isEmbedded("Query", "settings"))
        #expect(knowledge.pagination["Query", "settings"] == nil)
    }

    /// Apollo Kotlin's ConnectionPaginationTest, step by step, read back each time with the first page's query.
    @Test func connectionPagesMergeIntoOneField() throws {
        try write([42, 43], #"{"first":2}"#)
        #expect(try listed().ids == ["42", "43"])
        #expect(cache.record("QUERY_ROOT")?["users"] != nil)  // one field, no page arguments in its key
        try write([44, 45], #"{"first":2,"after":"c43"}"#)
        #expect(try listed().ids == ["42", "43", "44", "45"])
        try write([46, 47], #"{"first":2,"after":"c45"}"#, next: false)
        let merged = try listed()
        #expect(merged.ids == ["42", "43", "44", "45", "46", "47"])
        let pageInfo = Support.canonical(merged.pageInfo)
        #expect(pageInfo == #"{"__typename":"PageInfo","endCursor":"c47","hasNextPage":false,"hasPreviousPage":false,"startCursor":"c42"}"#)
        try write([40, 41], #"{"last":2,"before":"c42"}"#, previous: false)
        #expect(try listed().ids == ["40", "41", "42", "43", "44", "45", "46", "47"])
        #expect(cache.takeWarnings().isEmpty)
        // Not next to the list: ignored, with a warning naming the field.
        try write([50, 51], #"{"first":2,"after":"c50"}"#)
        #expect(try listed().ids.count == 8)
        #expect(cache.takeWarnings().contains { $0.contains("Query.users") && $0.contains("\"c50\"") })
        // An empty page after the end keeps the list.
        try write([], #"{"first":2,"after":"c47"}"#, next: false)
        #expect(try listed().ids.count == 8)
        // The first page again (pull to refresh) replaces the list.
        try write([42, 43], #"{"first":2}"#)
        #expect(try listed().ids == ["42", "43"])
    }

    /// A watcher of the first page hears the next page merged into its field once, with
    /// the cause its writer gave, and the new nodes among what changed.
    @Test func aWatcherOfTheFirstPageHearsTheNextPage() throws {
        try write([1, 2], #"{"first":2}"#)
        let recorder = Recorder()
        let watch = try cache.watch(operation, variables: ["first": 2], schema: knowledge, onEmission: recorder.callback)
        defer { watch.cancel() }
        try cache.write(data: try Self.page([3, 4]), for: operation, variables: try Support.object(#"{"first":2,"after":"c2"}"#),
                        schema: knowledge, cause: .page)
        #expect(recorder.count == 2)
        #expect(recorder.last?.cause == .page)
        #expect(recorder.last?.changed.contains("QUERY_ROOT.users") == true)
        #expect(try listed().ids == ["1", "2", "3", "4"])
    }

    /// Edges whose node is listed already are left out (Relay's rule; Apollo Kotlin keeps both).
    @Test func edgesAreDeduplicatedByNodeKey() throws {
        try write([1, 2], #"{"first":2}"#)
        try write([2, 3], #"{"first":2,"after":"c2"}"#)
        #expect(try listed().ids == ["1", "2", "3"])
    }

    @Test func aPageThatContradictsItselfIsRefused() throws {
        try write([1, 2], #"{"first":2}"#)
        let bad = try Support.object(#"""
            {"users":{"__typename":"UserConnection","pageInfo":{"__typename":"PageInfo","startCursor":"c3","endCursor":"c9",
             "hasNextPage":true,"hasPreviousPage":false},"edges":[{"__typename":"UserEdge","cursor":"c3","node":{"__typename":"User","id":"3","name":"U3"}}]}}
            """#)
        try cache.write(data: bad, for: operation, variables: try Support.object(#"{"first":2,"after":"c2"}"#), schema: knowledge)
        #expect(try listed().ids == ["1", "2"])
        #expect(cache.takeWarnings().contains { $0.contains("Query.users") && $0.contains("endCursor \"c9\"") })
    }

    @Test func offsetPagesMergeByPosition() throws {
        let posts = try cache.operation("query Posts($offset: Int, $limit: Int) { posts(offset: $offset, limit: $limit) { id title } }")
        func write(_ ids: ClosedRange<Int>, offset: Int) throws {
            let items = ids.map { #"{"__typename":"Post","id":"\#($0)","title":"P\#($0)"}"# }.joined(separator: ",")
            try cache.write(data: try Support.object(#"{"posts":[\#(items)]}"#), for: posts,
                            variables: try Support.object(#"{"offset":\#(offset),"limit":2}"#), schema: knowledge)
        }
        func ids() throws -> [String] {
            let data = try cache.read(posts, variables: try Support.object(#"{"offset":0,"limit":2}"#), schema: knowledge).data
            guard case .object(let object)? = data, case .list(let items)? = object["posts"] else { return [] }
            return items.compactMap { if case .string(let id)? = $0["id"] { id } else { nil } }
        }
        try write(1...2, offset: 0)
        try write(3...4, offset: 2)
        #expect(try ids() == ["1", "2", "3", "4"])
        try write(13...14, offset: 1)  // overlapping: replaces positions 1 and 2
        #expect(try ids() == ["1", "13", "14", "4"])
        try write(7...8, offset: 9)
        #expect(try ids() == ["1", "13", "14", "4"])
        #expect(cache.takeWarnings().contains { $0.contains("Query.posts") && $0.contains("offset 9 is beyond the 4 items") })
        try write(1...2, offset: 0)
        #expect(try ids() == ["1", "2"])
    }

    /// Without a declaration each page keeps its own field key, as Apollo iOS keeps it.
    @Test func undeclaredPagesStaySeparate() throws {
        let plain = try SchemaKnowledge(sdl: Self.schema)
        try cache.write(data: try Self.page([1, 2]), for: operation, variables: try Support.object(#"{"first":2}"#), schema: plain)
        try cache.write(data: try Self.page([3, 4]), for: operation, variables: try Support.object(#"{"first":2,"after":"c2"}"#), schema: plain)
        let root = try #require(cache.record("QUERY_ROOT"))
        #expect(root["users(first:2)"] != nil)
        #expect(root["users(after:c2,first:2)"] != nil || root.keys.contains { $0.hasPrefix("users(") && $0.contains("c2") })
    }

    /// An embedded object is kept inline in its parent's field; keyed objects in it stay records.
    @Test func embeddedFieldsKeepTheirObjectsInline() throws {
        let settings = try cache.operation("{ settings { theme owner { id name } } }")
        try cache.write(data: try Support.object(#"{"settings":{"__typename":"Settings","theme":"dark","owner":{"__typename":"User","id":"1","name":"Ann"}}}"#),
                        for: settings, schema: knowledge)
        #expect(cache.record("QUERY_ROOT.settings") == nil)
        #expect(cache.record("User:1")?["name"] == "Ann")
        let data = try cache.read(settings, schema: knowledge).data
        let read = Support.canonical(data)
        #expect(read == #"{"settings":{"__typename":"Settings","owner":{"__typename":"User","id":"1","name":"Ann"},"theme":"dark"}}"#)
    }

    /// gc follows the references a merged list keeps inline.
    @Test func gcKeepsTheNodesOfAMergedList() throws {
        try write([1, 2], #"{"first":2}"#)
        try write([3], #"{"first":2,"after":"c2"}"#)
        #expect(try cache.gc().isEmpty)
        #expect(cache.record("User:3")?["name"] == "U3")
    }

    // MARK: what a review found

    /// A page whose last edge was a duplicate leaves the list's end cursor the page's: the
    /// next page still follows it (the cached pageInfo describes the whole list).
    @Test func aPageAfterADeduplicatedEndStillAppends() throws {
        try write([1, 2], #"{"first":2}"#)
        try write([3, 1], #"{"first":2,"after":"c2"}"#)   // its last node, User:1, is listed: left out
        #expect(try listed().ids == ["1", "2", "3"])
        try write([5], #"{"first":2,"after":"c1"}"#)
        #expect(try listed().ids == ["1", "2", "3", "5"])
    }

    /// The connection selected twice (directly and in a fragment) keeps what both select.
    @Test func aConnectionSelectedTwiceKeepsBothSelections() throws {
        let twice = try cache.operation("""
            query Twice($after: String) { users(first: 2, after: $after) { edges { cursor } ...More } }
            fragment More on UserConnection { edges { node { id name } } pageInfo { startCursor endCursor hasNextPage hasPreviousPage } }
            """)
        try cache.write(data: try Self.page([1, 2]), for: twice, schema: knowledge)
        try cache.write(data: try Self.page([3, 4]), for: twice, variables: ["after": "c2"], schema: knowledge)
        #expect(try listed().ids == ["1", "2", "3", "4"])
        #expect(try cache.paginatedFields(of: twice, schema: knowledge) == [["users"]])
    }

    /// Two pages of the field in one response (aliases) merge one after the other.
    @Test func twoPagesInOneResponseMergeInOrder() throws {
        let both = try cache.operation("""
            query Both($after: String) {
              x: users(first: 2) { pageInfo { startCursor endCursor hasNextPage hasPreviousPage } edges { cursor node { id name } } }
              y: users(first: 2, after: $after) { pageInfo { startCursor endCursor hasNextPage hasPreviousPage } edges { cursor node { id name } } }
            }
            """)
        guard case .object(let first)? = try Self.page([1, 2])["users"], case .object(let second)? = try Self.page([3, 4])["users"] else { return }
        try cache.write(data: ["x": .object(first), "y": .object(second)], for: both, variables: ["after": "c2"], schema: knowledge)
        #expect(try listed().ids == ["1", "2", "3", "4"])
    }

    /// A null page after the list is refused: the list stays.
    @Test func aNullPageAfterTheListIsRefused() throws {
        try write([1, 2], #"{"first":2}"#)
        try cache.write(data: ["users": .null], for: operation, variables: ["after": "c2"], schema: knowledge)
        #expect(try listed().ids == ["1", "2"])
        #expect(cache.takeWarnings().contains { $0.contains("Query.users") && $0.contains("null") })
    }

    /// Both `edges` and `nodes`: each keeps every new node.
    @Test func edgesAndNodesBothGrow() throws {
        let both = try cache.operation("""
            query Both($after: String) { users(first: 2, after: $after) { edges { cursor node { id name } } nodes { id name } pageInfo { startCursor endCursor hasNextPage hasPreviousPage } } }
            """)
        func page(_ ids: [Int]) throws -> CacheObject {
            var page = try Self.page(ids)
            guard case .object(var users)? = page["users"], case .list(let edges)? = users["edges"] else { return page }
            users["nodes"] = .list(edges.compactMap { $0["node"] })
            page["users"] = .object(users)
            return page
        }
        try cache.write(data: try page([1, 2]), for: both, schema: knowledge)
        try cache.write(data: try page([3, 4]), for: both, variables: ["after": "c2"], schema: knowledge)
        let data = try cache.read(both, schema: knowledge).data
        guard case .list(let nodes)? = data?["users"]?["nodes"], case .list(let edges)? = data?["users"]?["edges"] else {
            Issue.record("no users")
            return
        }
        #expect(nodes.count == 4 && edges.count == 4)
    }

    /// A page written to the base while an optimistic layer holds the field merges with the
    /// base's list, and rolling the layer back leaves none of its edges.
    @Test func anOptimisticLayerDoesNotLeakIntoTheBase() throws {
        try write([1, 2], #"{"first":2}"#)
        try cache.writeOptimistic("new-user", data: try Self.page([9]), for: operation, variables: ["first": 2], schema: knowledge)
        try write([3, 4], #"{"first":2,"after":"c2"}"#)
        try cache.rollBackOptimistic("new-user")
        #expect(try listed().ids == ["1", "2", "3", "4"])
    }

    /// On an interface whose every implementation declares the field a connection, the field is one.
    @Test func aConnectionDeclaredOnEveryImplementation() throws {
        let sdl = """
            type Query { node(id: ID!): Node }
            interface Node { id: ID! }
            interface Social { friends(first: Int, after: String): UserConnection! }
            type UserConnection { edges: [UserEdge!]! pageInfo: PageInfo! }
            type UserEdge { cursor: String! node: User! }
            type PageInfo { startCursor: String endCursor: String hasNextPage: Boolean! hasPreviousPage: Boolean! }
            type User implements Node & Social @typePolicy(keyFields: "id") { id: ID! name: String! friends(first: Int, after: String): UserConnection! }
            extend type User @typePolicy(connectionFields: "friends")
            """
        let social = try SchemaKnowledge(sdl: sdl)
        let friends = try cache.operation("""
            query Friends($after: String) { node(id: "9") { id ... on Social { friends(first: 2, after: $after) { edges { cursor node { id } } pageInfo { endCursor hasNextPage } } } } }
            """)
        let page: (String, String) throws -> CacheObject = { first, second in try Support.object(#"""
            {"node":{"__typename":"User","id":"9","friends":{"__typename":"UserConnection","pageInfo":{"__typename":"PageInfo","endCursor":"c\#(second)","hasNextPage":true},
             "edges":[{"__typename":"UserEdge","cursor":"c\#(first)","node":{"__typename":"User","id":"\#(first)"}},{"__typename":"UserEdge","cursor":"c\#(second)","node":{"__typename":"User","id":"\#(second)"}}]}}}
            """#) }
        try cache.write(data: try page("1", "2"), for: friends, schema: social)
        try cache.write(data: try page("3", "4"), for: friends, variables: ["after": "c2"], schema: social)
        #expect(cache.record("User:9")?.keys.filter { $0.hasPrefix("friends") } == ["friends"])
    }

    /// A list of scalars paginated by offset merges by position too.
    @Test func scalarListsMergeByOffset() throws {
        let knowledge = try SchemaKnowledge(sdl: """
            type Query { tags(offset: Int, limit: Int): [String!]! }
            extend type Query @fieldPolicy(forField: "tags", paginationArgs: "offset limit")
            """)
        let tags = try cache.operation("query Tags($offset: Int) { tags(offset: $offset, limit: 2) }")
        try cache.write(data: ["tags": ["a", "b"]], for: tags, variables: ["offset": 0], schema: knowledge)
        try cache.write(data: ["tags": ["c", "d"]], for: tags, variables: ["offset": 2], schema: knowledge)
        #expect(try cache.read(tags, variables: ["offset": 0], schema: knowledge).data?["tags"] == ["a", "b", "c", "d"])
    }

    /// gc follows a reference inside an object kept inline in a list that also holds
    /// references (an offset list of a union); `.gc dangling` drops an edge whose node is gone.
    @Test func referencesInlineInMixedListsAndDanglingEdges() throws {
        let knowledge = try SchemaKnowledge(sdl: """
            type Query { results(offset: Int, limit: Int): [Result!]! users(first: Int, after: String): UserConnection! }
            union Result = User | Ad
            type Ad { title: String! advertiser: User! }
            type UserConnection { edges: [UserEdge!]! pageInfo: PageInfo! }
            type UserEdge { cursor: String! node: User! }
            type PageInfo { endCursor: String hasNextPage: Boolean! }
            type User @typePolicy(keyFields: "id") { id: ID! name: String! }
            extend type Query @fieldPolicy(forField: "results", paginationArgs: "offset limit") @typePolicy(connectionFields: "users")
            """)
        let results = try cache.operation("{ results(offset: 0, limit: 2) { ... on User { id name } ... on Ad { title advertiser { id name } } } }")
        try cache.write(data: try Support.object(#"""
            {"results":[{"__typename":"User","id":"1","name":"Ann"},{"__typename":"Ad","title":"Buy","advertiser":{"__typename":"User","id":"7","name":"Ed"}}]}
            """#), for: results, schema: knowledge)
        #expect(try cache.gc().isEmpty)
        #expect(cache.record("User:7")?["name"] == "Ed")
        #expect(cache.referrers(of: "User:7") == ["QUERY_ROOT"])
        let users = try cache.operation("{ users(first: 2) { edges { cursor node { id name } } pageInfo { endCursor hasNextPage } } }")
        try cache.write(data: try Support.object(#"""
            {"users":{"__typename":"UserConnection","pageInfo":{"__typename":"PageInfo","endCursor":"c2","hasNextPage":true},
             "edges":[{"__typename":"UserEdge","cursor":"c1","node":{"__typename":"User","id":"1","name":"Ann"}},{"__typename":"UserEdge","cursor":"c2","node":{"__typename":"User","id":"2","name":"Bo"}}]}}
            """#), for: users, schema: knowledge)
        try cache.evict("User:2")
        let removed = try cache.removeDanglingReferences()
        #expect(removed.fields.contains("QUERY_ROOT.users"))
        guard case .list(let edges)? = try cache.read(users, schema: knowledge).data?["users"]?["edges"] else {
            Issue.record("users not read")
            return
        }
        #expect(edges.count == 1)
    }

    static let problems: [(sdl: String, message: String)] = [
        (#"extend type Query @typePolicy(connectionFields: "nope")"#, #"@typePolicy(connectionFields:) names "nope", which Query does not have"#),
        (#"extend type Query @typePolicy(connectionFields: "posts")"#, "names \"posts\", whose type Post has no edges"),
        (#"extend type Query @typePolicy(embeddedFields: "nope")"#, #"@typePolicy(embeddedFields:) names "nope", which Query does not have"#),
        (#"extend type Query @fieldPolicy(forField: "posts", paginationArgs: "page")"#, #"names "page", which Query.posts has no argument for"#),
        (#"extend type Query @fieldPolicy(forField: "posts", paginationArgs: "limit")"#, "names no offset or skip argument"),
        ("extend type PageInfo @connection", "@connection on PageInfo, which has no edges"),
    ]

    @Test(arguments: problems) func badDeclarationsAreErrorsAtTheirPlace(_ problem: (sdl: String, message: String)) {
        #expect {
            _ = try SchemaKnowledge(sdl: Self.schema + problem.sdl)
        } throws: { error in
            let error = error as! OperationError
            return error.message.contains(problem.message) && error.line != nil
        }
    }

    /// Apollo Kotlin's newer forms of embeddedFields: `@embeddedField(name:)` on the type, `@embedded` on the field.
    @Test func embeddedFieldAndEmbedded() throws {
        let knowledge = try SchemaKnowledge(sdl: Self.schema.replacingOccurrences(of: "settings: Settings", with: "settings: Settings @embedded")
                                            + #"extend type Settings @embeddedField(name: "owner")"#)
        #expect(knowledge.pagination.isEmbedded("Query", "settings"))
        #expect(knowledge.pagination.isEmbedded("Settings", "owner"))
        #expect(throws: OperationError.self) { try SchemaKnowledge(sdl: Self.schema + #"extend type Settings @embeddedField(name: "theme")"#) }
    }

    /// `@connection` on the connection type makes every field of that type a connection.
    @Test func connectionDirectiveOnTheType() throws {
        let knowledge = try SchemaKnowledge(sdl: Self.schema + "extend type UserConnection @connection")
        #expect(knowledge.pagination["Query", "users"] == .connection)
    }
}
