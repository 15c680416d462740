import NormAPI
import NormCache

extension Client {
    /// What asking for a watch's next page did.
    ///
    /// ```swift
    /// switch try await client.nextPage(of: watch) {
    /// case .fetched(let result, _): print(result.source)   // the page; the watch emits the merged list, cause .page
    /// case .none(let reason): print(reason)             // "users has no next page: pageInfo.hasNextPage is false"
    /// }
    /// ```
    public enum NextPageResult: Sendable {
        /// The next page, fetched from the network with `variables` and merged into the paginated field.
        case fetched(ClientResult, variables: CacheObject)
        /// There is no next page, and nothing was sent: why, naming the field.
        case none(String)
    }

    /// Fetches the page after what `watch` shows of its paginated field (the one field its
    /// endpoint's schema declares paginated: `@typePolicy(connectionFields:)`,
    /// `@fieldPolicy(paginationArgs:)`, docs/pagination.md) and merges it into that field:
    /// the watch, still on its first page's variables, emits the merged list with cause
    /// `page`. The next page's variables come from what the watch shows (`after:` the
    /// merged `pageInfo.endCursor`, or `offset:` the items shown; ``NextPage``); when there
    /// is none (`hasNextPage` false, a short last page) nothing is sent. Refused while the
    /// watch's own fetch is under way, and for a query whose paginated field is not one
    /// (none declared, several, or one in each item of a list).
    ///
    /// ```swift
    /// let feed = try client.watch(FeedQuery(first: 20), from: endpoint)
    /// try await client.nextPage(of: feed.watch)   // items 21–40 appended; the watch emits 40
    /// ```
    @discardableResult
    public func nextPage(of watch: ClientWatch) async throws(ClientError) -> NextPageResult {
        try await page(.next, of: watch)
    }

    /// The page after (`.next`, ``nextPage(of:)``) or before (`.previous`) what `watch`
    /// shows of its paginated field, fetched and merged into it: a previous page is
    /// asked for `before:` the merged list's `pageInfo.startCursor` with `last:` the page
    /// size, and the engine prepends it (`PageMerge`); a list merged by position starts at
    /// offset 0, so it has none.
    /// The workbench's `.more ID previous` asks for it; `.more ID all` hands the page it
    /// asked for last (`askedLast`), so a page that did not move the list is not asked again.
    ///
    /// ```swift
    /// try await client.page(.previous, of: feed)   // items 45–49 prepended to 50–54
    /// ```
    @discardableResult
    package func page(_ direction: NextPage.Direction, of watch: ClientWatch, askedLast: CacheObject? = nil) async throws(ClientError) -> NextPageResult {
        let operation = watch.operation
        let paths: [[String]]
        do { paths = try cache.paginatedFields(of: operation, schema: knowledge(over: watch.transport, generated: watch.generated)) }
        catch { throw .cache(error) }
        let name = operation.name ?? "the query"
        guard let path = paths.first else {
            throw .invalid("\(name) has no paginated field: declare one in the schema (@typePolicy(connectionFields:), "
                           + "@fieldPolicy(paginationArgs:)), or page it with Apollo iOS's pager")
        }
        guard paths.count == 1 else {
            throw .invalid("\(name) has \(paths.count) paginated fields (\(paths.map { $0.joined(separator: ".") }.joined(separator: ", "))): "
                           + "a \(direction.rawValue) page is for one")
        }
        let shown = watch.shownPage
        // Its own fetch would replace the list with the first page after this one merged.
        guard !shown.fetching else { throw .invalid("watcher \(watch.id) is still fetching: its \(direction.rawValue) page waits until it has answered") }
        guard case .object(let data)? = shown.data else { throw .invalid("watcher \(watch.id) has shown no page yet") }
        let page: NextPage
        do { page = try NextPage(direction, in: operation, at: path, page: data, variables: shown.variables, merged: true, askedLast: askedLast) }
        catch { return .none(error.reason) }
        return .fetched(try await fetch(operation, variables: page.variables, policy: .networkOnly, from: watch.transport,
                                        generated: watch.generated, cause: .page), variables: page.variables)
    }

    /// ``nextPage(of:)-(ClientWatch)`` of a typed watch: its next page, merged; the typed
    /// watch then yields the longer list.
    ///
    /// ```swift
    /// let feed = try client.watch(PagedFeedQuery(first: 20), from: endpoint)
    /// try await client.nextPage(of: feed)
    /// ```
    @discardableResult
    public func nextPage<Query: GraphQLQuery>(of watch: TypedWatch<Query>) async throws(ClientError) -> NextPageResult {
        try await nextPage(of: watch.watch)
    }
}
