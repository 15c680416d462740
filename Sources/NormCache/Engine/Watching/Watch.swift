/// A running watcher; ``cancel()`` stops it and frees what it held.
///
/// ```swift
/// let watch = try cache.watch(trips) { print($0.number, $0.cause) }   // 1 initial
/// watch.cancel()                                                        // no more emissions
/// ```
public struct Watch: Sendable, Hashable {
    public let id: Int
    private let cache: Unowned

    init(id: Int, cache: NormalizedCache) {
        self.id = id
        self.cache = Unowned(cache)
    }

    public func cancel() { cache.value?.cancel(id) }

    public static func == (a: Watch, b: Watch) -> Bool { a.id == b.id }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }

    private struct Unowned: Sendable {
        weak var value: NormalizedCache?
        init(_ value: NormalizedCache) { self.value = value }
    }
}
