import Foundation
import NormCache
import NormClient

/// Apollo iOS's pager (apollo-ios-pagination's `GraphQLQueryPager`) over one query with
/// a paginated field (``NextPage/Field``): one watcher per page, each page its own field
/// key in the cache, the pages' items shown concatenated, first page first.
///
/// The first page's watcher starts with the pager and gives it its id. ``loadNext()``
/// starts the next page's watcher with the variables ``NextPage`` tells from the last
/// page (it refuses while that page has not answered yet, or when there is no next page);
/// whether there is one (`canLoadNext`) is read from the last page alone. Every page
/// re-emits on its own: the pager then shows the whole list again, saying which page
/// emitted. ``reset()`` goes back to the first page: the other pages' watchers are
/// cancelled, and the first one refetches.
///
/// ```swift
/// let pager = QueryPager(operation: feedPage, field: try NextPage.Field(in: feedPage), show: { print($0.items.count) },
///                        pass: { _, _ in }) { variables, onEvent in try client.watch(feedPage, variables: variables, onEvent: onEvent) }
/// try pager.start(variables: ["first": 5])   // 5
/// try pager.loadNext()                        // .success(["first": 5, "after": "4"]); shows 10
/// ```
final class QueryPager: @unchecked Sendable {
    /// What the pager shows after a page emitted: every page's items, in order.
    struct Snapshot: Sendable {
        let id: Int
        let operation: String?
        /// The list the items are from: `feedConnection.edges`, `feedItems`.
        let list: String
        /// How many pages the pager has (those still loading included).
        let pages: Int
        /// Whether the last page has a page after it.
        let canLoadNext: Bool
        /// The page that emitted (1 = the first).
        let page: Int
        let items: [CacheValue]

        /// What the `pager` JSON event and `.expect pager` see.
        var json: CacheObject {
            ["id": CacheValue(id), "op": operation.map(CacheValue.string) ?? .null, "pages": CacheValue(pages),
             "canLoadNext": .bool(canLoadNext), "page": CacheValue(page), "data": .list(items)]
        }
    }

    /// Starts a page's watcher with its variables, handing its events to the callback.
    typealias StartPage = (CacheObject, @escaping @Sendable (ClientWatch, ClientWatch.Event) -> Void) throws -> ClientWatch

    let operation: CompiledOperation
    let field: NextPage.Field
    private let show: @Sendable (Snapshot) -> Void
    private let pass: @Sendable (ClientWatch, ClientWatch.Event) -> Void
    private let startPage: StartPage

    private let lock = NSLock()
    /// Each page's watcher, in order; the first one's id is the pager's.
    private var watches: [ClientWatch] = []
    /// Each page's last data, by page index, once it answered.
    private var data: [Int: CacheObject] = [:]
    /// Bumped by ``reset()``: an event of a page dropped by it is not the pager's any more.
    private var generation = 0
    /// True while ``reset()``'s refetch runs: the first page's emissions are shown once, after it.
    private var resetting = false
    /// The index of the page that emitted last.
    private var emitted = 0

    /// A pager of `field` in `operation`; `show` prints what it shows, `pass` hears its
    /// watchers' other events (failures, incomplete reads), `startPage` starts a page's watcher.
    init(operation: CompiledOperation, field: NextPage.Field, show: @escaping @Sendable (Snapshot) -> Void,
         pass: @escaping @Sendable (ClientWatch, ClientWatch.Event) -> Void, startPage: @escaping StartPage) {
        self.operation = operation
        self.field = field
        self.show = show
        self.pass = pass
        self.startPage = startPage
    }

    /// The first page's watcher's id.
    var id: Int { lock.withLock { watches.first?.id ?? 0 } }

    /// The first page's watcher, while the pager runs.
    var first: ClientWatch? { lock.withLock { watches.first } }

    /// Starts the first page's watcher with `variables`.
    func start(variables: CacheObject) throws {
        try startWatch(variables, page: 0)
    }

    /// Starts the next page's watcher: its variables, or why there is no next page (the
    /// reason names the field; nothing started). Throws while the last page has not answered.
    func loadNext() throws -> Result<CacheObject, NextPage.Unavailable> {
        let (page, last, variables) = lock.withLock { (watches.count, data[watches.count - 1], watches.last?.variables ?? CacheObject()) }
        guard let last else { throw CommandError("pager \(id) is still loading page \(page): .more waits until it has answered") }
        let next: NextPage
        do { next = try NextPage(of: field, page: last, variables: variables) } catch { return .failure(error) }
        try startWatch(next.variables, page: page)
        return .success(next.variables)
    }

    /// Goes back to the first page: cancels the other pages' watchers and hands back the
    /// first one, to refetch; its emissions wait for ``endReset()``.
    func reset() -> ClientWatch? {
        let dropped = lock.withLock { () -> ArraySlice<ClientWatch> in
            generation += 1
            resetting = true
            let dropped = watches.dropFirst()
            watches = Array(watches.prefix(1))
            data = data.filter { $0.key == 0 }
            return dropped
        }
        for watch in dropped { watch.cancel() }
        return first
    }

    /// Ends ``reset()``: shows the first page, as its refetch left it.
    func endReset() {
        lock.withLock {
            resetting = false
            emitted = 0
        }
        show(snapshot())
    }

    /// Stops every page's watcher.
    func cancel() {
        for watch in lock.withLock({ watches }) { watch.cancel() }
    }

    /// Starts page `page`'s watcher. The lock is held until the pager has it: its first
    /// event (on the client's event queue) waits for that, and starting one waits for no event.
    private func startWatch(_ variables: CacheObject, page: Int) throws {
        try lock.withLock {
            let generation = self.generation
            watches.append(try startPage(variables) { [weak self] watch, event in
                self?.received(event, of: watch, page: page, generation: generation)
            })
        }
    }

    private func received(_ event: ClientWatch.Event, of watch: ClientWatch, page: Int, generation: Int) {
        guard case .emission(_, let emission) = event else { return pass(watch, event) }
        let shows = lock.withLock { () -> Bool in
            guard generation == self.generation || page == 0 else { return false }
            guard case .object(let object)? = emission.result.data else { return false }
            data[page] = object
            emitted = page
            return !(resetting && page == 0)
        }
        if shows { show(snapshot()) }
    }

    /// What the pager shows now: every page's items, and the page that emitted last.
    func snapshot() -> Snapshot {
        lock.withLock {
            let page = emitted
            let items = watches.indices.flatMap { data[$0].flatMap(field.items) ?? [] }
            let canLoadNext = data[watches.count - 1].map { last in
                (try? NextPage(of: field, page: last, variables: watches[watches.count - 1].variables)) != nil
            } ?? false
            return Snapshot(id: watches.first?.id ?? 0, operation: operation.name, list: field.itemsName, pages: watches.count,
                            canLoadNext: canLoadNext, page: page + 1, items: items)
        }
    }
}
