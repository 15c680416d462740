import NormCache

/// Benchmarks of pagination: a page merged into a long list costs what the page costs.
enum PagingBenchmarks {
    static let schema = """
        type Query { feed(first: Int, after: String): ItemConnection! }
        type ItemConnection { edges: [ItemEdge!]! pageInfo: PageInfo! }
        type ItemEdge { cursor: String! node: Item! }
        type PageInfo { endCursor: String hasNextPage: Boolean! }
        type Item @typePolicy(keyFields: "id") { id: ID! title: String! }
        extend type Query @typePolicy(connectionFields: "feed")
        """
    static let query = "query Feed($after: String) { feed(first: 50, after: $after) { pageInfo { endCursor hasNextPage } edges { cursor node { id title } } } }"
    static let pageSize = 50

    /// A cache whose feed holds `pages` pages, and the pages to append to it next, each
    /// made beforehand so that only the write is timed.
    final class Feed {
        let cache = NormalizedCache()
        let operation: CompiledOperation
        let knowledge: SchemaKnowledge
        private(set) var pages = 0
        private var upcoming: [(data: CacheObject, variables: CacheObject)] = []

        init(pages: Int, then more: Int) throws {
            knowledge = try SchemaKnowledge(sdl: PagingBenchmarks.schema)
            operation = try cache.operation(PagingBenchmarks.query)
            upcoming = (0..<pages + more).map(PagingBenchmarks.page)
            upcoming.reverse()
            for _ in 0..<pages { _ = try appendPage() }
        }

        /// Appends the next page; the number of items the feed holds.
        func appendPage() throws -> Int {
            let (data, variables) = upcoming.removeLast()
            try cache.write(data: data, for: operation, variables: variables, schema: knowledge, cause: .page)
            pages += 1
            return pages * PagingBenchmarks.pageSize
        }
    }

    /// Page `n` (from 0) of the feed: items `n`×50 on, after the cursor of the one before.
    static func page(_ n: Int) -> (data: CacheObject, variables: CacheObject) {
        let edges: [CacheValue] = (n * pageSize..<(n + 1) * pageSize).map { i in
            ["__typename": "ItemEdge", "cursor": .string("c\(i)"), "node": ["__typename": "Item", "id": .string("\(i)"), "title": .string("Item \(i)")]]
        }
        let data: CacheObject = ["feed": ["__typename": "ItemConnection", "edges": .list(edges),
                                          "pageInfo": ["__typename": "PageInfo", "endCursor": .string("c\((n + 1) * pageSize - 1)"), "hasNextPage": true]]]
        return (data, n == 0 ? [:] : ["after": .string("c\(n * pageSize - 1)")])
    }

    static let append = Benchmark(
        name: "page.append", unit: "µs/page",
        summary: "merge a page of 50 edges after the end of a Relay connection holding 199 pages (page 200, then one more a round); "
            + "baseline: the same page merged into a connection holding 1 page (page 2); ratio = ours / baseline (goal ≤ 2: O(page), not O(list))"
    ) { trial in
        let long = trial.must { try Feed(pages: 199, then: trial.runs + 1) }
        let short = trial.must { try Feed(pages: 1, then: trial.runs + 1) }
        let seconds = trial.medians({ try long.appendPage() }, baseline: { try short.appendPage() })
        return .time(seconds, scale: 1e6, ratio: .oursOverBaseline)
    }
}
