import NormCache

/// A result's data or a record drawn as a tree, one field a line; objects name their
/// `__typename`, lists their length, references the record they point to.
///
/// ```swift
/// TreeView(style: TextStyle(colour: false)).lines(of: ["trips": [["__typename": "Trip", "id": "1"]]])
/// // └─ trips: 1 item
/// //    └─ [0] Trip
/// //       └─ id: "1"
/// ```
struct TreeView {
    let style: TextStyle

    /// The members of `object` as branches (the root itself has no line); below the
    /// root, an object's `__typename` goes into its line instead of a branch of its own.
    func lines(of object: CacheObject) -> [String] {
        branches(object.members.map { (style.key($0), $1) }, indent: "")
    }

    func lines(of value: CacheValue) -> [String] {
        if case .object(let object) = value { return lines(of: object) }
        return [style.value(value)]
    }

    private func branches(_ children: [(label: String, value: CacheValue)], indent: String) -> [String] {
        var lines: [String] = []
        for (index, child) in children.enumerated() {
            let last = index == children.count - 1
            lines += branch(child.label, child.value, indent: indent, last: last)
        }
        return lines
    }

    private func branch(_ label: String, _ value: CacheValue, indent: String, last: Bool) -> [String] {
        let head = indent + (last ? "└─ " : "├─ ")
        let inner = indent + (last ? "   " : "│  ")
        switch value {
        case .object(let object) where !object.isEmpty:
            let typename: String? = if case .string(let name)? = object["__typename"] { name } else { nil }
            let children = object.members.filter { key, _ in key != "__typename" }.map { (style.key($0), $1) }
            return [head + label + (typename.map { " " + style.dim($0) } ?? "")] + branches(children, indent: inner)
        case .list(let items) where !items.isEmpty:
            let count = style.dim("\(items.count) item\(items.count == 1 ? "" : "s")")
            let children = items.enumerated().map { (style.dim("[\($0)]"), $1) }
            return [head + label + ": " + count] + branches(children, indent: inner)
        default:
            return [head + label + ": " + style.value(value)]
        }
    }
}
