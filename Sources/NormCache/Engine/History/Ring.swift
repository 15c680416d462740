/// The last elements appended, at most a limit of them: appending to a full ring
/// replaces its oldest, in place. The record history keeps each record's changes in one,
/// the workbench's watch log each watcher's emissions.
///
/// ```swift
/// var ring = Ring<Int>()
/// for n in 1...5 { ring.append(n, limit: 3) }
/// ring.elements   // [3, 4, 5]
/// ring[0]         // 3: the oldest
/// ```
package struct Ring<Element> {
    /// The one element of a ring of one, kept without an array: most records change once
    /// (they are written), and an allocation each would be most of what keeping costs.
    private var single: Element?
    /// The elements of a ring of two or more.
    private var storage: [Element] = []
    /// Where the oldest element is in `storage` (not 0 once a full ring wrapped).
    private var oldest = 0

    package init() {}

    /// A ring holding `element` alone.
    package init(_ element: Element) { single = element }

    /// A ring of the last `limit` of `elements` (given oldest first).
    package init(_ elements: some Collection<Element>, limit: Int) {
        let kept = Array(elements.suffix(limit))
        if kept.count == 1 { single = kept[0] } else { storage = kept }
    }

    package var count: Int { storage.isEmpty ? (single == nil ? 0 : 1) : storage.count }

    /// Appends `element`; when the ring holds `limit` elements already, the oldest goes.
    package mutating func append(_ element: Element, limit: Int) {
        if storage.isEmpty {
            guard let first = single, limit > 1 else {
                if limit > 0 { single = element }
                return
            }
            storage = [first, element]
            single = nil
        } else if storage.count < limit {
            // A wrapped ring whose limit was raised: put the oldest first, then grow.
            if oldest != 0 { (storage, oldest) = (elements, 0) }
            storage.append(element)
        } else {
            storage[oldest] = element
            oldest = (oldest + 1) % storage.count
        }
    }

    /// The element `offset` places after the oldest (nil beyond the ring).
    package subscript(offset: Int) -> Element? {
        guard !storage.isEmpty else { return offset == 0 ? single : nil }
        return storage.indices.contains(offset) ? storage[(oldest + offset) % storage.count] : nil
    }

    /// Oldest first.
    package var elements: [Element] {
        guard !storage.isEmpty else { return single.map { [$0] } ?? [] }
        return Array(storage[oldest...] + storage[..<oldest])
    }

    /// Calls `body` with each element, in no particular order (cheaper than ``elements``).
    package func forEach(_ body: (Element) -> Void) {
        if let single { body(single) }
        for element in storage { body(element) }
    }
}
