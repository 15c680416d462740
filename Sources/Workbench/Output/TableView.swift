import NormCache

/// Rows drawn as a table with a header, as sqlite3's `.mode table` draws them, or as
/// columns without rules (``columns(_:header:whole:)``: `.help`, `.watches`); and a
/// result's data cut into such tables: a list of objects becomes one table with a row per
/// object and a column per leaf (`destination.city`), anything else a `field | value`
/// table. Each fits the ``TableLayout``'s width, saying so under it when a value was cut.
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
    /// How wide it may be.
    var layout = TableLayout.unlimited

    func lines(header: [String], rows: [[String]]) -> [String] {
        let fitted = layout.fit([header] + rows, separators: 3 * header.count + 1)
        let widths = fitted.widths
        let rule = "+" + widths.map { String(repeating: "-", count: $0 + 2) + "+" }.joined()
        func line(_ cells: [String], paint: (String) -> String = { $0 }) -> String {
            "|" + widths.indices.map { column in
                let cell = column < cells.count ? cells[column] : ""
                return " " + paint(cell) + String(repeating: " ", count: widths[column] - cell.count) + " |"
            }.joined()
        }
        return [rule, line(fitted.rows[0], paint: style.key), rule] + fitted.rows.dropFirst().map { line($0) } + [rule]
            + note(fitted)
    }

    /// Rows as columns two spaces apart, the last not padded, under a `header` when given;
    /// `whole` says where the values of a listing that was cut show whole (``TableLayout/note(whole:)``).
    func columns(_ rows: [[String]], header: [String]? = nil, whole: String? = nil) -> [String] {
        let all = header.map { [$0] + rows } ?? rows
        let fitted = layout.fit(all, separators: 2 * max(0, (all.map(\.count).max() ?? 0) - 1))
        let lines = fitted.rows.map { cells in
            cells.enumerated().map { column, cell in
                column == cells.count - 1 ? cell : cell + String(repeating: " ", count: fitted.widths[column] - cell.count + 2)
            }.joined()
        }
        let painted = header == nil ? lines : lines.prefix(1).map(style.dim) + lines.dropFirst()
        return painted + note(fitted, whole: whole)
    }

    private func note(_ fitted: TableLayout.Fitted, whole: String? = nil) -> [String] {
        fitted.truncated ? [style.dim(whole.map(layout.note(whole:)) ?? layout.note())] : []
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
