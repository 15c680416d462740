/// The keys of the nodes a connection lists, kept from one page to the next, so that
/// leaving out a page's edges already listed (``PageMerge``) costs the page, not the list:
/// the keys are made again only when the list is not the one they were made for (written
/// since by other means). Its identity is the list's storage, so the check costs nothing
/// while the list is the one the last page left.
///
/// ```swift
/// var listed = ListedNodes()
/// let keys = listed.keys(listing: edges)            // made from the edges: O(list), once
/// listed.update(edges: merged, adding: ["User:3"])  // the next page's check is O(1)
/// ```
struct ListedNodes {
    private var list: [CacheValue] = []
    private var keys: Set<String> = []

    /// The node keys `list` holds (edges with a `node`, or nodes).
    mutating func keys(listing list: [CacheValue]) -> Set<String> {
        if list != self.list {
            self.list = list
            keys = Set(list.lazy.compactMap(Self.nodeKey))
        }
        return keys
    }

    /// Takes the keys out, so that adding to them does not copy them; until
    /// ``update(list:keys:)`` gives them back, the next look makes them again.
    mutating func take(listing list: [CacheValue]) -> Set<String> {
        _ = keys(listing: list)
        defer { (self.list, keys) = ([], []) }
        return keys
    }

    /// Now for `list`, whose node keys are `keys`.
    mutating func update(list: [CacheValue], keys: consuming Set<String>) {
        self.list = list
        self.keys = keys
    }

    /// The key of the record an edge's node (or a node itself) references.
    static func nodeKey(_ item: CacheValue) -> String? {
        switch item {
        case .reference(let key): key
        case .object(let edge): edge["node"]?.referenceKey
        default: nil
        }
    }
}

/// The ``ListedNodes`` of the connections written lately, by field: a few, as a session
/// pages through a few lists at a time; the oldest goes when a new one comes.
final class ListedNodesMemo {
    private var entries: [(field: RecordField, nodes: ListedNodes)] = []
    private let capacity = 8

    /// Runs `body` with the listed nodes of `field`.
    func withNodes<Result>(of field: RecordField, _ body: (inout ListedNodes) -> Result) -> Result {
        let index: Int
        if let found = entries.firstIndex(where: { $0.field == field }) {
            index = found
        } else {
            if entries.count == capacity { entries.removeFirst() }
            entries.append((field, ListedNodes()))
            index = entries.count - 1
        }
        return body(&entries[index].nodes)
    }
}
