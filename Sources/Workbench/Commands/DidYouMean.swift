/// The "did you mean" of every name the workbench does not know (a command, a service
/// command, a record key): the known names closest to the one typed, by edit distance,
/// closest first, at most three, within a distance that grows with the name (one edit
/// for a short name, up to three).
///
/// ```swift
/// DidYouMean("polcy", among: ["policy", "plugins"], prefix: ".").hint   // "; did you mean .policy?"
/// DidYouMean("Trip:9", among: ["Trip:1", "Trip:2"]).hint       // "; did you mean Trip:1 or Trip:2?"
/// ```
struct DidYouMean {
    /// The closest names, closest first (ties by name).
    let names: [String]

    /// The names of `known` close to `typed`, each shown after `prefix` (`.` for a
    /// command: the names are compared without it).
    init(_ typed: String, among known: some Sequence<String>, prefix: String = "") {
        let limit = min(3, max(1, typed.count / 2))
        names = Set(known).lazy.map { ($0, Self.editDistance($0, typed)) }.filter { $0.1 <= limit }
            .sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(3).map { prefix + $0.0 }
    }

    /// The names of `sorted` (ascending) that share the longest prefix with `typed`, at most
    /// `count` of them (all when there are no more): where the intended name of a mistyped
    /// record key sits, so a suggestion over a million keys measures `count` distances, not
    /// a million. Sorted names sharing a prefix with `typed` stand together around where
    /// it would go, so they are taken outward from there, the longer shared prefix first.
    ///
    /// ```swift
    /// DidYouMean.neighbours(of: "Trip:9", inSorted: ["Seat:1", "Trip:1", "Trip:2", "User:9"], count: 2)   // ["Trip:1", "Trip:2"]
    /// ```
    static func neighbours(of typed: String, inSorted sorted: [String], count: Int = 5_000) -> ArraySlice<String> {
        guard sorted.count > count else { return sorted[...] }
        var low = 0, high = sorted.count
        while low < high {   // where `typed` would go
            let middle = (low + high) / 2
            if sorted[middle] < typed { low = middle + 1 } else { high = middle }
        }
        func shared(_ index: Int) -> Int {
            guard sorted.indices.contains(index) else { return -1 }
            return zip(sorted[index].utf8, typed.utf8).prefix { $0 == $1 }.count
        }
        high = low
        while high - low < count {
            if shared(low - 1) >= shared(high) { low -= 1 } else { high += 1 }
        }
        return sorted[low..<high]
    }

    /// `; did you mean A or B?`, or nothing when no name is close.
    var hint: String { names.isEmpty ? "" : "; did you mean \(names.joined(separator: " or "))?" }

    /// Levenshtein distance between two short strings.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
