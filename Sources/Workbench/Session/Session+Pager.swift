import NormCache
import NormClient

/// Apollo iOS's pager in the workbench (`.pager OP [JSON]`, `.more ID`, `.refetch ID`,
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

    /// `.refetch ID` on a pager: back to the first page (the other pages' watchers cancelled),
    /// which refetches; then the pager shows it.
    func refetchPager(_ pager: QueryPager) throws {
        guard let first = pager.reset() else { return }
        defer { client.deliverWatchEvents(); pager.endReset() }
        try wait { try await first.refetch() }
    }

    /// `.more ID`: the next page of pager ID (a watcher more), or of watcher ID's paginated
    /// field, merged into it (``Client/nextPage(of:)``), so that the watcher's emission shows
    /// the longer list. Prints the `more` event: the variables sent, or why nothing was.
    func more(_ word: String) throws {
        let id: Int, variables: CacheObject?, reason: String?
        if let pager = pager(word) {
            id = pager.id
            switch try pager.loadNext() {
            case .success(let next): (variables, reason) = (next, nil)
            case .failure(let none): (variables, reason) = (nil, none.reason)
            }
        } else {
            guard Int(word) != nil else { throw CommandError(".more takes a pager's or a watcher's id, not \"\(word)\" (.watches lists them)") }
            let (watch, client) = (try watches(word)[0], self.client)
            id = watch.id
            switch try wait({ try await client.nextPage(of: watch) }) {
            case .fetched(_, let next): (variables, reason) = (next, nil)
            case .none(let none): (variables, reason) = (nil, none)
            }
        }
        printer.emit(.more(id: id, variables: variables, reason: reason))
    }

    /// `.unwatch ID` on a pager: stops every page's watcher.
    func stopPager(_ pager: QueryPager) {
        pagers[pager.id] = nil
        pager.cancel()
    }
}
