/// How a page merges into what a paginated field holds (``Pagination/Style``): the one
/// owner of when a page is appended, prepended, replaces the list, or is refused. A page
/// refused leaves the field as it was, and the reason is a warning naming the field.
///
/// ```swift
/// // Query.users holds edges c1, c2 (end cursor "c2"); a page after "c2" brings c3, c4:
/// PageMerge.connection(page, into: cached, arguments: ["after": .string("c2")], field: "Query.users")
/// // .merged(edges c1…c4, pageInfo.endCursor "c4", hasNextPage as the page says)
/// PageMerge.offset(items, into: cached, at: 60, field: "Query.posts")   // 50 items cached
/// // .refused("Query.posts: a page at offset 60 is beyond the 50 items cached: …")
/// ```
enum PageMerge {
    enum Outcome<Value> {
        /// The field's new value.
        case merged(Value)
        /// The page does not fit: the field keeps what it holds.
        case refused(String)
    }

    // MARK: Relay connections

    /// `page` (a connection kept inline: members are field keys, nodes references) merged
    /// into `cached` by the page's `after` or `before` argument: after the cached end
    /// cursor, its edges are appended; before the start cursor, prepended; with neither,
    /// it replaces the list (a first page, a pull to refresh), as it replaces an empty
    /// list. Edges whose node is in the list already are left out. Any other page is
    /// refused: one not next to the list, a null one, one whose cursors are missing or
    /// contradict its `pageInfo`, one after a list whose end has no cursor.
    /// `listed` keeps the node keys of the list from one page to the next (``ListedNodes``).
    static func connection(_ page: CacheValue, into cached: CacheValue?, arguments: [String: ArgumentValue], field: String,
                           listed: inout ListedNodes) -> Outcome<CacheValue> {
        let after = text(arguments["after"]), before = text(arguments["before"])
        let next = after != nil || before != nil
        guard case .object(let existing)? = cached, next, !Cursors.isEmpty(existing) else {
            if case .object(let incoming) = page, case .failure(let problem) = Cursors.of(incoming) {
                return .refused("\(field): the page \(problem.text): the cached list is kept")
            }
            return .merged(page)  // a first page (null too: no connection), or any page of an empty list
        }
        guard case .object(let incoming) = page else {
            return .refused("\(field): the page \(after.map { "after \"\($0)\"" } ?? "before \"\(before!)\"") is null: the cached list is kept")
        }
        let pageCursors: Cursors
        switch Cursors.of(incoming) {
        case .success(let cursors): pageCursors = cursors
        case .failure(let problem): return .refused("\(field): the page \(problem.text): the cached list is kept")
        }
        // The cached list's own cursors: its pageInfo's, which describe the whole list (its
        // last edge may have been left out as a duplicate), else its edges'.
        let cachedCursors = Cursors.cached(existing)
        if let after {
            guard after == cachedCursors.end else { return notAdjacent("after", after, field: field, cachedEnd: "ends", cachedCursors.end) }
            return .merged(.object(joined(existing, incoming, start: cachedCursors.start, end: pageCursors.end ?? cachedCursors.end,
                                          appending: true, listed: &listed)))
        }
        guard before == cachedCursors.start else { return notAdjacent("before", before!, field: field, cachedEnd: "starts", cachedCursors.start) }
        return .merged(.object(joined(existing, incoming, start: pageCursors.start ?? cachedCursors.start, end: cachedCursors.end,
                                      appending: false, listed: &listed)))
    }

    private static func notAdjacent(_ argument: String, _ cursor: String, field: String, cachedEnd: String, _ cached: String?) -> Outcome<CacheValue> {
        .refused("\(field): a page \(argument) \"\(cursor)\" is not next to the cached list, which \(cachedEnd) at "
                 + (cached.map { "\"\($0)\"" } ?? "no cursor") + ": the cached list is kept (fetch the first page to start again)")
    }

    /// `existing` with `incoming`'s edges (and `nodes`) added at the end or the start, its
    /// other members taken from `incoming`, and its `pageInfo` describing the whole list.
    /// An edge or node whose node the list has already, or the page has before it, is left out.
    private static func joined(_ existing: CacheObject, _ incoming: CacheObject, start: String?, end: String?, appending: Bool,
                               listed: inout ListedNodes) -> CacheObject {
        var merged = existing
        for (key, value) in incoming.members where key != "edges" && key != "nodes" && key != "pageInfo" { merged[key] = value }
        let tracked = existing["edges"] != nil ? "edges" : "nodes"
        var keys: Set<String> = []
        if case .list(let list)? = existing[tracked] { keys = listed.take(listing: list) }
        // Each list is filtered against the nodes listed before the page, and its own.
        var addedKeys: [String] = []
        var trackedList: [CacheValue]?
        for key in ["edges", "nodes"] {
            guard case .list(let old)? = existing[key], case .list(let new)? = incoming[key] else { continue }
            var inPage = Set<String>()
            let added = new.filter { item in
                guard let node = ListedNodes.nodeKey(item) else { return true }
                guard !keys.contains(node), inPage.insert(node).inserted else { return false }
                if key == tracked { addedKeys.append(node) }
                return true
            }
            let list = appending ? old + added : added + old
            merged[key] = .list(list)
            if key == tracked { trackedList = list }
        }
        if let trackedList {
            keys.formUnion(addedKeys)
            listed.update(list: trackedList, keys: keys)
        }
        var pageInfo = CacheObject()
        if case .object(let old)? = existing["pageInfo"] { pageInfo = old }
        if case .object(let new)? = incoming["pageInfo"] { for (key, value) in new.members { pageInfo[key] = value } }
        let kept: (String, CacheValue?)
        if appending {
            kept = ("hasPreviousPage", existingPageInfo(existing)?["hasPreviousPage"])
        } else {
            kept = ("hasNextPage", existingPageInfo(existing)?["hasNextPage"])
        }
        if let value = kept.1 { pageInfo[kept.0] = value }
        if pageInfo["startCursor"] != nil { pageInfo["startCursor"] = start.map(CacheValue.string) ?? .null }
        if pageInfo["endCursor"] != nil { pageInfo["endCursor"] = end.map(CacheValue.string) ?? .null }
        if existing["pageInfo"] != nil || incoming["pageInfo"] != nil { merged["pageInfo"] = .object(pageInfo) }
        return merged
    }

    private static func existingPageInfo(_ connection: CacheObject) -> CacheObject? {
        if case .object(let info)? = connection["pageInfo"] { return info }
        return nil
    }

    private static func text(_ argument: ArgumentValue?) -> String? {
        if case .string(let text)? = argument { return text }
        return nil
    }

    /// A connection's start and end cursors: its `pageInfo`'s, else its first and last
    /// edge's `cursor`.
    private struct Cursors {
        let start: String?
        let end: String?

        struct Problem: Error { let text: String }

        private static func edges(_ connection: CacheObject) -> [CacheValue] {
            if case .list(let edges)? = connection["edges"] { return edges }
            if case .list(let nodes)? = connection["nodes"] { return nodes }
            return []
        }

        private static func cursor(_ edge: CacheValue?) -> String? {
            if case .object(let edge)? = edge, case .string(let cursor)? = edge["cursor"] { return cursor }
            return nil
        }

        private static func infoCursor(_ name: String, of connection: CacheObject) -> String? {
            if case .string(let cursor)? = existingPageInfo(connection)?[name] { return cursor }
            return nil
        }

        /// Whether the connection lists nothing: no edges (nor nodes) and no cursors.
        static func isEmpty(_ connection: CacheObject) -> Bool {
            edges(connection).isEmpty && infoCursor("startCursor", of: connection) == nil && infoCursor("endCursor", of: connection) == nil
        }

        /// The cursors of a list the cache holds, as it holds them.
        static func cached(_ connection: CacheObject) -> Cursors {
            let edges = edges(connection)
            return Cursors(start: infoCursor("startCursor", of: connection) ?? cursor(edges.first),
                           end: infoCursor("endCursor", of: connection) ?? cursor(edges.last))
        }

        /// The cursors of a page, or what in it contradicts itself.
        static func of(_ connection: CacheObject) -> Result<Cursors, Problem> {
            let edges = edges(connection)
            let (firstEdge, lastEdge) = (cursor(edges.first), cursor(edges.last))
            let (givenStart, givenEnd) = (infoCursor("startCursor", of: connection), infoCursor("endCursor", of: connection))
            let start = givenStart ?? firstEdge, end = givenEnd ?? lastEdge
            if !edges.isEmpty, start == nil || end == nil {
                return .failure(Problem(text: "has edges without a cursor and a pageInfo without startCursor and endCursor"))
            }
            if let givenEnd, let lastEdge, givenEnd != lastEdge {
                return .failure(Problem(text: "has pageInfo.endCursor \"\(givenEnd)\", but its last edge's cursor is \"\(lastEdge)\""))
            }
            if let givenStart, let firstEdge, givenStart != firstEdge {
                return .failure(Problem(text: "has pageInfo.startCursor \"\(givenStart)\", but its first edge's cursor is \"\(firstEdge)\""))
            }
            if case .bool(true)? = existingPageInfo(connection)?["hasNextPage"], end == nil {
                return .failure(Problem(text: "says hasNextPage but gives no end cursor to fetch it after"))
            }
            return .success(Cursors(start: start, end: end))
        }
    }

    // MARK: Offset lists

    /// `page`'s items put at `offset` in `cached`: offset 0 replaces the list (a first page,
    /// a pull to refresh); up to the list's end they replace the items there and extend
    /// it. An offset beyond the list, or below 0, is refused.
    static func offset(_ page: [StoredValue], into cached: [StoredValue]?, at offset: Int, field: String) -> Outcome<[StoredValue]> {
        if offset == 0 { return .merged(page) }
        let count = cached?.count ?? 0
        guard offset > 0, offset <= count, let cached else {
            return .refused("\(field): a page at offset \(offset) is " + (offset < 0 ? "not a position in a list" : "beyond the \(count) items cached")
                            + ": the cached list is kept (fetch offset 0 to start again)")
        }
        let end = offset + page.count
        return .merged(Array(cached[..<offset]) + page + (end < count ? Array(cached[end...]) : []))
    }
}

extension CacheValue {
    /// The key a reference names; nil for another value.
    var referenceKey: String? {
        if case .reference(let key) = self { return key }
        return nil
    }
}
