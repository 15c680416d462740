import NormCache

/// Colour for the tree and table modes: ANSI escapes on a terminal, plain text when
/// output is not a terminal or `NO_COLOR` is set (no-color.org).
///
/// ```swift
/// let style = TextStyle(colour: true)
/// style.added("+ trips[3].name: \"Berlin\"")   // in green
/// ```
struct TextStyle: Sendable {
    let colour: Bool

    func key(_ text: String) -> String { paint(text, "1") }
    func string(_ text: String) -> String { paint(text, "32") }
    func number(_ text: String) -> String { paint(text, "33") }
    func reference(_ text: String) -> String { paint(text, "36") }
    func dim(_ text: String) -> String { paint(text, "2") }
    func added(_ text: String) -> String { paint(text, "32") }
    func removed(_ text: String) -> String { paint(text, "31") }
    func failure(_ text: String) -> String { paint(text, "1;31") }
    func heading(_ text: String) -> String { paint(text, "1;34") }

    /// A scalar or a reference as JSON, coloured by kind.
    func value(_ value: CacheValue) -> String {
        switch value {
        case .string: string(JSON.string(value))
        case .int, .double, .bool: number(JSON.string(value))
        case .null: dim("null")
        case .reference(let key): reference("→ " + key)
        case .list, .object: JSON.string(value)
        }
    }

    private func paint(_ text: String, _ code: String) -> String {
        colour ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
