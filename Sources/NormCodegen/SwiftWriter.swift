/// Swift text built line by line, indented by nesting: what every generated file is
/// written with.
///
/// ```swift
/// var swift = SwiftWriter()
/// swift.block("public struct Trip: NormAPI.SelectionSet") { $0.line("public let id: ID") }
/// swift.text   // "public struct Trip: NormAPI.SelectionSet {\n    public let id: ID\n}\n"
/// ```
struct SwiftWriter {
    private(set) var text = ""
    private var depth = 0

    /// A file codegen owns, begun: its marker line saying what it was written `from`, and the
    /// imports: NormAPI, and `module` (the schema's, for operations outside it).
    static func generatedFile(from source: String, importing module: String? = nil) -> SwiftWriter {
        var swift = SwiftWriter()
        swift.line("\(CodeGenerator.generatedMarker) from \(source). Do not edit: run codegen again.")
        swift.line()
        swift.line("import NormAPI")
        if let module { swift.line("import \(module)") }
        swift.line()
        return swift
    }

    mutating func line(_ line: String = "") {
        text += line.isEmpty ? "\n" : String(repeating: "    ", count: depth) + line + "\n"
    }

    /// `opening {`, the body one level in, `}`.
    mutating func block<Failure: Error>(_ opening: String, _ body: (inout SwiftWriter) throws(Failure) -> Void) throws(Failure) {
        line(opening + " {")
        depth += 1
        try body(&self)
        depth -= 1
        line("}")
    }

    /// `body` inside `extension namespace { }`, or at this level when `namespace` is nil.
    mutating func within<Failure: Error>(_ namespace: String?, _ body: (inout SwiftWriter) throws(Failure) -> Void) throws(Failure) {
        guard let namespace else { return try body(&self) }
        try block("extension \(namespace)", body)
    }

    /// A `///` comment of `text` (a GraphQL description), one line per line.
    mutating func documentation(_ text: String?) {
        guard let text, !text.isEmpty else { return }
        for part in text.split(separator: "\n", omittingEmptySubsequences: false) { line("/// " + part) }
    }

    /// What the indent is at this depth, for text written in one piece.
    var indent: String { String(repeating: "    ", count: depth) }
}
