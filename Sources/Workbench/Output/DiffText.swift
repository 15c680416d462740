import NormCache

/// How a ``CacheDiff`` reads for people, as diff(1)'s unified form does: `--- A` and
/// `+++ B`, then one entry a record in key order, `- KEY` for a record only in A, `+ KEY`
/// for one only in B, `~ KEY` for one whose fields changed with a line a field under it,
/// `field: old → new`, values as `.history` writes them (JSON, references as
/// `{"$reference":"K"}`, `(absent)` on the side that lacks the field); last, how many of
/// each. As a table, a row a record or changed field. Two caches that hold the same records
/// print one line that says so.
///
/// ```swift
/// DiffText.lines(diff, a: "before.sqlite", b: "after.sqlite", table: nil, style: style)
/// // --- before.sqlite
/// // +++ after.sqlite
/// // - Droid:2000
/// // ~ Human:1000
/// //     mass: 77 → 80
/// // + Starship:3002
/// // 1 record only in before.sqlite, 1 only in after.sqlite, 1 changed, 9 the same
/// ```
enum DiffText {
    static func lines(_ diff: CacheDiff, a: String, b: String, table: TableView?, style: TextStyle) -> [String] {
        let matching = diff.pattern.map { " matching \($0)" } ?? ""
        guard !diff.isEmpty else {
            if diff.same == 0 { return ["neither \(a) nor \(b) holds a record\(matching)"] }
            return ["\(a) and \(b) hold the same \(TextRenderer.count(diff.same, "record"))\(matching)"]
        }
        let summary = style.dim("\(TextRenderer.count(diff.onlyA.count, "record")) only in \(a), \(diff.onlyB.count) only in \(b), "
                                + "\(diff.changed.count) changed, \(diff.same) the same\(matching)")
        // The three lists, each sorted, as one list in key order.
        let entries = (diff.onlyA.map { ($0, Mark.onlyA, [FieldChange]()) } + diff.onlyB.map { ($0, Mark.onlyB, []) }
                       + diff.changed.map { ($0.key, Mark.changed, $0.fields) }).sorted { $0.0 < $1.0 }
        if let table {
            let rows = entries.flatMap { key, mark, fields -> [[String]] in
                fields.isEmpty ? [[mark.rawValue, key, "", "", ""]]
                    : fields.map { [mark.rawValue, key, $0.field, HistoryText.value($0.old), HistoryText.value($0.new)] }
            }
            return table.lines(header: ["", "key", "field", a, b], rows: rows) + [summary]
        }
        return ["--- " + a, "+++ " + b] + entries.flatMap { key, mark, fields -> [String] in
            let line = mark.rawValue + " " + key
            switch mark {
            case .onlyA: return [style.removed(line)]
            case .onlyB: return [style.added(line)]
            case .changed:
                return [style.key(line)] + fields.map { field in
                    "    \(field.field): " + style.removed(HistoryText.value(field.old)) + " → " + style.added(HistoryText.value(field.new))
                }
            }
        } + [summary]
    }

    /// What an entry's first character says of its record.
    private enum Mark: String {
        case onlyA = "-", onlyB = "+", changed = "~"
    }
}
