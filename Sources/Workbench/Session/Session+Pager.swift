import NormCache
import NormClient

/// Apollo iOS's pager in the workbench (`.pager OP [JSON]`, `.more ID [next|previous|all]`, `.refetch ID`,
/// `.unwatch ID`): one watcher per page (``QueryPager``), the pages' items printed
/// concatenated as a `pager` event each time a page emits.
extension Session {
    /// `.pager OP [JSON]`: starts a pager of `operation`'s paginated field with `given`
    /// variables (else the `.vars` it declares); its first page is a watcher, whose id is the pager's.
    func startPager(_ operation: CompiledOperation, variables given: CacheObject?) throws {
        guard operation.kind == .query else { throw CommandError("a pager pages a query, and \(operation.name ?? "this operation") is a \(operation.kind.rawValue)") }
        let field: NextPage.Field
        do { field = try NextPage.Field(in: operation) } catch { throw CommandError("no pager over \(operation.name ?? "this query"): \(error)") }
        let endpoint = try currentEndpoint(for: operation)
        let (client, policy, partial, printer, log) = (self.client, settings.policy, settings.returnsPartialData, self.printer, ledger.watchLog)
        let pass = client.watchEvents ?? { _, _ in }
        let pager = QueryPager(operation: operation, field: field, show: { printer.emit(.pager($0)) }, pass: pass) { variables, onEvent in
            try client.watch(operation, variables: variables, policy: policy, returnPartialData: partial, from: endpoint) { watch, event in
                // A page's watcher is a watcher: `.expect watch ID` and `.expect emissions` see it.
                if case .emission(_, let emission) = event { log.append(emission, of: watch.id) }
                onEvent(watch, event)
            }
        }
        try pager.start(variables: variables(given, for: operation))
        pagers[pager.id] = pager
        printer.emit(.paging(id: pager.id, operation: operation.name, list: field.itemsName))
    }

    /// The pager whose id is `word`, while its first page's watcher runs; nil for anything else.
    func pager(_ word: String) -> QueryPager? {
        guard let id = Int(word), let pager = pagers[id] else { return nil }
        guard client.watch(id: id) != nil else {
            pagers[id] = nil   // its first page's watcher was stopped (.unwatch, a switch of cache)
            return nil
        }
        return pager
    }

    /// `.refetch ID` on a pager: back to the initial page (the other pages' watchers
    /// cancelled), which refetches; then the pager shows it.
    func refetchPager(_ pager: QueryPager) throws {
        pager.hold()
        defer { client.deliverWatchEvents(); pager.release() }
        try startOver(pager)
    }

    /// `.more ID [next|previous|all]`: the next page, the previous one or every page of
    /// pager ID (``QueryPager``: a watcher more), or of watcher ID's paginated field,
    /// merged into it (``Client/page(_:of:)``), so that the watcher's emission shows the
    /// longer list. Prints a `more` event for each page asked for (its direction and
    /// variables), or for one page, why none was sent.
    func more(_ word: String, asking which: String) throws {
        let direction = NextPage.Direction(rawValue: which)
        guard direction != nil || which == "all" else { throw CommandError(".more ID takes next, previous or all after the id, not \"\(which)\"") }
        let pager = pager(word), id: Int, load: LoadPage
        if let pager {
            (id, load) = (pager.id, pager.load)
        } else {
            guard Int(word) != nil else { throw CommandError(".more takes a pager's or a watcher's id, not \"\(word)\" (.watches lists them)") }
            let watch = try watches(word)[0]
            (id, load) = (watch.id, { direction, askedLast in try self.mergePage(direction, of: watch, askedLast: askedLast) })
        }
        guard let direction else { return try pager.map { try loadAll($0) } ?? pageBothWays(id: id, load: load) }
        switch try load(direction, nil) {
        case .success(let variables): printer.emit(.more(id: id, direction: direction, variables: variables, reason: nil))
        case .failure(let none): printer.emit(.more(id: id, direction: direction, variables: nil, reason: none.reason))
        }
    }

    /// Asks for the page after (or before) what a pager or a watcher shows, unless it is
    /// the one asked for last (``NextPage``): its variables, or why there is none.
    private typealias LoadPage = (NextPage.Direction, _ askedLast: CacheObject?) throws -> Result<CacheObject, NextPage.Unavailable>

    /// Watcher `watch`'s page before or after what it shows, fetched and merged: its
    /// variables, or why there is none.
    private func mergePage(_ direction: NextPage.Direction, of watch: ClientWatch, askedLast: CacheObject?) throws -> Result<CacheObject, NextPage.Unavailable> {
        let client = self.client
        return switch try wait({ try await client.page(direction, of: watch, askedLast: askedLast) }) {
        case .fetched(_, let variables): .success(variables)
        case .none(let reason): .failure(NextPage.Unavailable(reason: reason))
        }
    }

    /// `.more ID all` on a pager: Apollo iOS's `loadAll()` (from the initial page): back to
    /// the initial page, refetched, then the next pages until there is none and the
    /// previous ones until there is none, each once the page before has answered; the
    /// pager shows the list once, at the end.
    private func loadAll(_ pager: QueryPager) throws {
        pager.hold()
        defer { client.deliverWatchEvents(); pager.release() }
        try startOver(pager)
        try pageBothWays(id: pager.id, load: pager.load)
    }

    /// Loads the next pages until there is none, then the previous ones, with `load`,
    /// waiting for each page's answer before asking for the one after it. A direction
    /// ends where there is no page that way, or where the page to ask for is the one
    /// asked for just before (it did not move the list: an empty last page, or a merge
    /// refused with a warning), before it is sent again. Asking again for one asked
    /// earlier (a server whose cursors go round), or more than ``pageLimit`` pages, fails.
    private func pageBothWays(id: Int, load: LoadPage) throws {
        let client = self.client
        for direction in [NextPage.Direction.next, .previous] {
            var asked: [CacheObject] = []
            while true {
                try wait { await client.settle() }
                guard case .success(let variables) = try load(direction, asked.last) else { break }
                printer.emit(.more(id: id, direction: direction, variables: variables, reason: nil))
                guard !asked.contains(variables) else {
                    throw CommandError("\(id): the \(direction.rawValue) page \(JSON.string(.object(variables), sortedKeys: true)) was asked for before: "
                                       + "the pages go round, .more all stops")
                }
                guard asked.count < Self.pageLimit else {
                    throw CommandError("\(id): \(Self.pageLimit) \(direction.rawValue) pages and still more: .more all stops")
                }
                asked.append(variables)
            }
        }
    }

    /// The most pages `.more all` asks for in one direction.
    static let pageLimit = 1_000

    /// Back to the pager's initial page: the other pages' watchers cancelled, the initial
    /// one refetched (network-only).
    private func startOver(_ pager: QueryPager) throws {
        guard let first = pager.reset() else { return }
        try wait { try await first.refetch() }
    }

    /// `.unwatch ID` on a pager: stops every page's watcher.
    func stopPager(_ pager: QueryPager) {
        pagers[pager.id] = nil
        pager.cancel()
    }
}
