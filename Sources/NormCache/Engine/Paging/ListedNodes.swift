/// The keys of the nodes a connection lists, kept from one page to the next, so that
/// leaving out a page's edges already listed (``PageMerge``) costs the page, not the list:
/// the keys are made again only when the list is not the one they were made for (written
/// since by other means). Its identity is the list's storage, so the check costs nothing
/// while the list is the one the last page left.
///
/// ```swift
/// var listed = ListedNodes()
/// var keys = listed.take(listing: edges)         // made from the edges: O(list), once
/// keys.insert("User:3")
/// listed.update(list: merged, keys: keys)        // the next page's take is O(1)
/// ```
struct ListedNodes {
    private var list: [CacheValue] = []
    private var keys: Set<String> = []

    /// The node keys `list` holds (edges with a `node`, or nodes), taken out so that adding
    /// to them does not copy them; until ``update(list:keys:)`` gives them back, the next
    /// take makes them again.
    mutating func take(listing list: [CacheValue]) -> Set<String> {
        let known = list == self.list ? keys : Set(list.lazy.compactMap(Self.nodeKey))
        (self.list, keys) = ([], [])
        return known
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
