import Foundation
import NormCache
import NormClient

/// Apollo iOS's pager (apollo-ios-pagination's `GraphQLQueryPager`) over one query with
/// a paginated field (``NextPage/Field``): one watcher per page, each page its own field
/// key in the cache, the pages' items shown concatenated in the list's order: the
/// previous pages, the initial page, the next pages.
///
/// The initial page's watcher starts with the pager and gives it its id. ``load(_:)``
/// starts the watcher of the page after the last page (`.next`) or before the first one
/// (`.previous`), with the variables ``NextPage`` tells from that page; it refuses while
/// any page has not answered yet (Apollo iOS refuses a load while one is in progress),
/// and when there is no such page. `canLoadNext` is read from the last page alone,
/// `canLoadPrevious` from the first. Every page re-emits on its own: the pager then shows
/// the whole list again, saying which page emitted. ``hold()`` keeps its emissions back
/// (a refetch, loading every page) until ``release()`` shows the list once; ``reset()``
/// goes back to the initial page: the other pages' watchers are cancelled.
///
/// ```swift
/// let pager = QueryPager(operation: feedPage, field: try NextPage.Field(in: feedPage), show: { print($0.items.count) },
///                        pass: { _, _ in }) { variables, onEvent in try client.watch(feedPage, variables: variables, onEvent: onEvent) }
/// try pager.start(variables: ["first": 5, "after": "49"])   // 5
/// try pager.load(.next)                                       // .success(["first": 5, "after": "54"]); shows 10
/// try pager.load(.previous)                                   // .success(["first": null, "last": 5, "before": "50"]); shows 15
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
        /// How many of them are before the initial page.
        let previousPages: Int
        /// Whether the last page has a page after it.
        let canLoadNext: Bool
        /// Whether the first page has a page before it.
        let canLoadPrevious: Bool
        /// The page that emitted: 1 is the initial page, the next pages count up from it
        /// (2, 3, …) and the previous pages down (0, -1, …), so a page keeps its number.
        let page: Int
        let items: [CacheValue]

        /// What the `pager` JSON event and `.expect pager` see.
        var json: CacheObject {
            ["id": CacheValue(id), "op": operation.map(CacheValue.string) ?? .null, "pages": CacheValue(pages),
             "previousPages": CacheValue(previousPages), "canLoadNext": .bool(canLoadNext),
             "canLoadPrevious": .bool(canLoadPrevious), "page": CacheValue(page), "data": .list(items)]
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
    /// Each page's watcher, in the list's order: the previous pages, the initial one, the next ones.
    private var watches: [ClientWatch] = []
    /// How many of ``watches`` are previous pages: the initial page's index.
    private var previousPages = 0
    /// Each page's last data, by its watcher's id, once it answered.
    private var data: [Int: CacheObject] = [:]
    /// Bumped by ``reset()``: an event of a page dropped by it is not the pager's any more.
    private var generation = 0
    /// True between ``hold()`` and ``release()``: emissions are kept back.
    private var holding = false
    /// The id of the watcher of the page that emitted last.
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

    /// The initial page's watcher's id.
    var id: Int { lock.withLock { initial?.id ?? 0 } }

    /// The initial page's watcher, while the pager runs.
    var first: ClientWatch? { lock.withLock { initial } }

    private var initial: ClientWatch? { watches.indices.contains(previousPages) ? watches[previousPages] : nil }

    /// Starts the initial page's watcher with `variables`.
    func start(variables: CacheObject) throws {
        try startWatch(variables, at: .next)
    }

    /// Starts the watcher of the page after the last page (`.next`) or before the first
    /// (`.previous`): its variables, or why there is no such page (the reason names the
    /// field; nothing started), as while a page has not answered yet (Apollo iOS refuses
    /// a load while one is in progress).
    func load(_ direction: NextPage.Direction, askedLast: CacheObject? = nil) throws -> Result<CacheObject, NextPage.Unavailable> {
        let answered = lock.withLock { () -> Result<(ClientWatch, CacheObject), NextPage.Unavailable> in
            if let loading = watches.firstIndex(where: { data[$0.id] == nil }) {
                return .failure(NextPage.Unavailable(reason: "pager \(initial?.id ?? 0) has no answer from page \(loading - previousPages + 1) yet "
                                                     + "(still loading; if its fetch failed, .refetch \(initial?.id ?? 0) starts over)"))
            }
            let edge = direction == .next ? watches[watches.count - 1] : watches[0]
            return .success((edge, data[edge.id]!))
        }
        let edge: ClientWatch, pageData: CacheObject
        do { (edge, pageData) = try answered.get() } catch { return .failure(error) }
        let page: NextPage
        do { page = try NextPage(direction, of: field, page: pageData, variables: edge.variables, askedLast: askedLast) } catch { return .failure(error) }
        try startWatch(page.variables, at: direction)
        return .success(page.variables)
    }

    /// Keeps the pages' emissions back until ``release()``.
    func hold() {
        lock.withLock { holding = true }
    }

    /// Ends ``hold()``: shows the list once, as the pages now have it, naming the page
    /// that emitted last.
    func release() {
        lock.withLock { holding = false }
        show(snapshot())
    }

    /// Goes back to the initial page: cancels the other pages' watchers and hands back
    /// the initial one, to refetch.
    func reset() -> ClientWatch? {
        let (dropped, kept) = lock.withLock { () -> ([ClientWatch], ClientWatch?) in
            generation += 1
            guard let kept = initial else { return ([], nil) }
            let dropped = watches.filter { $0 !== kept }
            watches = [kept]
            previousPages = 0
            data = data.filter { $0.key == kept.id }
            emitted = kept.id
            return (dropped, kept)
        }
        for watch in dropped { watch.cancel() }
        return kept
    }

    /// Stops every page's watcher.
    func cancel() {
        for watch in lock.withLock({ watches }) { watch.cancel() }
    }

    /// Starts a page's watcher, after the last page or before the first. The lock is
    /// held until the pager has it: its first event (on the client's event queue) waits
    /// for that, and starting one waits for no event.
    private func startWatch(_ variables: CacheObject, at direction: NextPage.Direction) throws {
        try lock.withLock {
            let generation = self.generation
            let watch = try startPage(variables) { [weak self] watch, event in
                self?.received(event, of: watch, generation: generation)
            }
            if direction == .next || watches.isEmpty {
                watches.append(watch)
            } else {
                watches.insert(watch, at: 0)
                previousPages += 1
            }
        }
    }

    private func received(_ event: ClientWatch.Event, of watch: ClientWatch, generation: Int) {
        guard case .emission(_, let emission) = event else { return pass(watch, event) }
        let shows = lock.withLock { () -> Bool in
            guard generation == self.generation || watch === initial else { return false }
            guard case .object(let object)? = emission.result.data else { return false }
            data[watch.id] = object
            emitted = watch.id
            return !holding
        }
        if shows { show(snapshot()) }
    }

    /// What the pager shows now: every page's items, and the page that emitted last.
    func snapshot() -> Snapshot {
        lock.withLock {
            let items = watches.flatMap { data[$0.id].flatMap(field.items) ?? [] }
            let emittedIndex = watches.firstIndex { $0.id == emitted } ?? previousPages
            return Snapshot(id: initial?.id ?? 0, operation: operation.name, list: field.itemsName, pages: watches.count,
                            previousPages: previousPages, canLoadNext: canLoad(.next, from: watches.last),
                            canLoadPrevious: canLoad(.previous, from: watches.first),
                            page: emittedIndex - previousPages + 1, items: items)
        }
    }

    /// Whether `page` (it answered) has a page after it, or before it; the lock is held.
    private func canLoad(_ direction: NextPage.Direction, from page: ClientWatch?) -> Bool {
        guard let page, let pageData = data[page.id] else { return false }
        return (try? NextPage(direction, of: field, page: pageData, variables: page.variables)) != nil
    }
}
