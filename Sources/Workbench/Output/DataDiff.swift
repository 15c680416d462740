import NormCache

/// The leaves of a result's data by path (`trips[1].name`), and the difference between
/// the data of two results as `-`/`+` lines: how a watcher's emission shows what
/// changed. Every line has a path: data that came or went whole (a result with no data
/// on one side) is not a diff, and ``TextRenderer`` shows it otherwise.
///
/// ```swift
/// DataDiff.lines(from: ["trip": ["name": "Porto"]], to: ["trip": ["name": "Faro"]])
/// // [.removed("trip.name", "Porto"), .added("trip.name", "Faro")]
/// ```
enum DataDiff {
    enum Line: Equatable {
        case removed(path: String, value: CacheValue)
        case added(path: String, value: CacheValue)
    }

    /// Every scalar, reference, empty list and empty object in `data`, with its path, in order.
    static func leaves(of data: CacheObject) -> [(path: String, value: CacheValue)] {
        data.members.flatMap { leaves(of: $1, at: $0) }
    }

    /// The leaves of `value`, which stands at `path`.
    static func leaves(of value: CacheValue, at path: String) -> [(path: String, value: CacheValue)] {
        switch value {
        case .object(let object) where !object.isEmpty:
            return object.members.flatMap { leaves(of: $1, at: path + "." + $0) }
        case .list(let items) where !items.isEmpty:
            return items.enumerated().flatMap { leaves(of: $1, at: path + "[\($0)]") }
        default:
            return [(path, value)]
        }
    }

    /// The leaves that went or changed (`-`, old value) and came or changed (`+`, new
    /// value), in the order of the data: a changed leaf shows as its `-` line then its `+` line.
    static func lines(from old: CacheObject, to new: CacheObject) -> [Line] {
        let before = leaves(of: old), after = leaves(of: new)
        let oldValues = Dictionary(before.map { ($0.path, $0.value) }, uniquingKeysWith: { first, _ in first })
        let newPaths = Set(after.map(\.path))
        var lines: [Line] = []
        var oldIndex = 0
        for leaf in after {
            // Leaves that are gone, up to where this one stood before.
            while oldIndex < before.count, !newPaths.contains(before[oldIndex].path) {
                lines.append(.removed(path: before[oldIndex].path, value: before[oldIndex].value))
                oldIndex += 1
            }
            if oldIndex < before.count, before[oldIndex].path == leaf.path { oldIndex += 1 }
            switch oldValues[leaf.path] {
            case leaf.value?: continue
            case let old?: lines += [.removed(path: leaf.path, value: old), .added(path: leaf.path, value: leaf.value)]
            case nil: lines.append(.added(path: leaf.path, value: leaf.value))
            }
        }
        for leaf in before[oldIndex...] where !newPaths.contains(leaf.path) {
            lines.append(.removed(path: leaf.path, value: leaf.value))
        }
        return lines
    }
}
