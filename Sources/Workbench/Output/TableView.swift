import NormCache

/// Rows drawn as a table with a header, as sqlite3's `.mode table` draws them; and a
/// result's data cut into such tables: a list of objects becomes one table with a row
/// per object and a column per leaf (`destination.city`), anything else a
/// `field | value` table.
///
/// ```swift
/// TableView(style: TextStyle(colour: false)).lines(header: ["id", "name"], rows: [["\"1\"", "\"Lisbon\""]])
/// // +-----+----------+
/// // | id  | name     |
/// // +-----+----------+
/// // | "1" | "Lisbon" |
/// // +-----+----------+
/// ```
struct TableView {
    let style: TextStyle

    func lines(header: [String], rows: [[String]]) -> [String] {
        var widths = header.map(\.count)
        for row in rows {
            for (column, cell) in row.enumerated() where column < widths.count { widths[column] = max(widths[column], cell.count) }
        }
        let rule = "+" + widths.map { String(repeating: "-", count: $0 + 2) + "+" }.joined()
        func line(_ cells: [String], paint: (String) -> String = { $0 }) -> String {
            "|" + widths.indices.map { column in
                let cell = column < cells.count ? cells[column] : ""
                return " " + paint(cell) + String(repeating: " ", count: widths[column] - cell.count) + " |"
            }.joined()
        }
        return [rule, line(header, paint: style.key), rule] + rows.map { line($0) } + [rule]
    }

    /// The tables of a result's data: one per top-level field.
    func lines(ofData data: CacheObject) -> [String] {
        var lines: [String] = []
        var scalars: [[String]] = []
        for (field, value) in data.members {
            let objects = Self.objects(in: value)
            if !objects.isEmpty {
                lines.append(field + ":")
                lines += rows(of: objects)
            } else {
                scalars += DataDiff.leaves(of: value, at: field).map { [$0.path, Self.cell($0.value)] }
            }
        }
        return (scalars.isEmpty ? [] : self.lines(header: ["field", "value"], rows: scalars)) + lines
    }

    /// A table with a row per object and a column per leaf path.
    private func rows(of objects: [CacheObject]) -> [String] {
        var columns: [String] = [], seen = Set<String>()
        let leaves = objects.map { object in
            Dictionary(DataDiff.leaves(of: object).map { ($0.path, $0.value) }, uniquingKeysWith: { first, _ in first })
        }
        for object in objects {
            for leaf in DataDiff.leaves(of: object) where seen.insert(leaf.path).inserted { columns.append(leaf.path) }
        }
        return lines(header: columns, rows: leaves.map { row in columns.map { row[$0].map(Self.cell) ?? "" } })
    }

    /// The items of a non-empty list of objects; none for any other value.
    private static func objects(in value: CacheValue) -> [CacheObject] {
        guard case .list(let items) = value else { return [] }
        let objects = items.compactMap { item -> CacheObject? in if case .object(let object) = item { object } else { nil } }
        return objects.count == items.count ? objects : []
    }

    /// A value as a cell: JSON, references as `→ KEY`.
    static func cell(_ value: CacheValue) -> String {
        if case .reference(let key) = value { return "→ " + key }
        return JSON.string(value)
    }
}
