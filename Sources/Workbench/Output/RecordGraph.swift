import NormCache

/// `.graph`'s picture: the records within some references of a start set and the
/// references between them, as Graphviz DOT text. Each record is a node showing its key
/// and scalar fields (a value cut to ``valueLimit`` characters with `…`); each reference
/// is an edge labelled with the field key that holds it, `trips[0]` for an item of a
/// list; a reference to a record the cache does not hold is a dashed node, "absent".
/// Nodes come in key order and each node's edges in field-key order, so the text is the
/// same for the same records.
///
/// ```swift
/// RecordGraph(around: ["Trip:1"], depth: 1, record: cache.record).dot
/// // digraph records {
/// //   node [shape=record];
/// //   "Trip:1" [label="{Trip:1|id: \"1\"\l}"];
/// // }
/// ```
struct RecordGraph {
    /// The longest a field's value is shown, in characters.
    static let valueLimit = 40

    /// Each record drawn by key, `nil` when the cache does not hold it.
    private var records: [String: CacheObject?] = [:]

    /// The records within `depth` references of those keyed `start` (their own keys at
    /// depth 0), read by `record`.
    init(around start: [String], depth: Int, record: (String) -> CacheObject?) {
        var frontier = Set(start)
        for level in 0...depth {
            var next = Set<String>()
            for key in frontier.sorted() where records[key] == nil {
                let object = record(key)
                records[key] = .some(object)
                guard level < depth, let object else { continue }
                for value in object.values { value.forEachReference { if records[$0] == nil { next.insert($0) } } }
            }
            frontier = next
        }
    }

    var dot: String {
        var lines = ["digraph records {", "  node [shape=record];"]
        for key in records.keys.sorted() {
            guard let object = records[key]! else {
                lines.append("  \(Self.quoted(key)) [label=\"{\(Self.recordText(key))|absent}\", style=dashed];")
                continue
            }
            let fields = Self.sorted(object).filter { !$0.value.holdsReference }.map { field, value in
                Self.recordText(field + ": " + Self.cut(JSON.string(value, references: .apollo))) + "\\l"
            }
            lines.append("  \(Self.quoted(key)) [label=\"{\(([Self.recordText(key)] + (fields.isEmpty ? [] : [fields.joined()])).joined(separator: "|"))}\"];")
        }
        for key in records.keys.sorted() {
            guard let object = records[key]! else { continue }
            for (field, value) in Self.sorted(object) {
                Self.forEachReference(in: value, label: field) { target, label in
                    guard records[target] != nil else { return }
                    lines.append("  \(Self.quoted(key)) -> \(Self.quoted(target)) [label=\(Self.quoted(label))];")
                }
            }
        }
        return (lines + ["}"]).joined(separator: "\n")
    }

    /// A record's fields in field-key order.
    private static func sorted(_ object: CacheObject) -> [(key: String, value: CacheValue)] {
        zip(object.keys, object.values).map { ($0, $1) }.sorted { $0.key < $1.key }
    }

    /// Calls `body` with each reference in `value` and its label: the field key, then the
    /// index in each list it sits in (`trips[2]`, `rows[0][1]`).
    private static func forEachReference(in value: CacheValue, label: String, _ body: (String, String) -> Void) {
        switch value {
        case .reference(let key): body(key, label)
        case .list(let items): for (index, item) in items.enumerated() { forEachReference(in: item, label: "\(label)[\(index)]", body) }
        default: break
        }
    }

    /// `text` cut to ``valueLimit`` characters, the last a `…`, when longer.
    private static func cut(_ text: String) -> String {
        text.count <= valueLimit ? text : text.prefix(valueLimit - 1) + "…"
    }

    /// A DOT string: `text` in quotes, its quotes and backslashes escaped, newlines as `\n`.
    private static func quoted(_ text: String) -> String {
        "\"" + escaped(text, also: "") + "\""
    }

    /// Text inside a record-shaped label, where `{`, `}`, `|`, `<` and `>` are structure:
    /// those escaped too.
    private static func recordText(_ text: String) -> String {
        escaped(text, also: "{}|<>")
    }

    private static func escaped(_ text: String, also special: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "\\", "\"": escaped += "\\" + String(character)
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            default: escaped += special.contains(character) ? "\\" + String(character) : String(character)
            }
        }
        return escaped
    }
}

private extension CacheValue {
    /// Whether the value is a reference or a list holding one (at any depth): drawn as edges.
    var holdsReference: Bool {
        var holds = false
        forEachReference { _ in holds = true }
        return holds
    }
}
