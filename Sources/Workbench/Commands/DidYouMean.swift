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
