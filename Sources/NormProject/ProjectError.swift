import GraphQL
import NormCache

/// Why a project did not load, or why a document is not valid: every problem found, each
/// with the file, line and column it is at. A project that has one is not loaded at all.
///
/// ```swift
/// do { _ = try Project(directory: "examples/TripsApp") } catch {
///     print(error)   // Features/TripDetail/TripDetail.graphql:4:5: Cannot query field "nmae" on type "Trip". Did you mean "name"?
/// }
/// ```
package struct ProjectError: Error, Equatable, CustomStringConvertible {
    /// One thing wrong, where it is.
    ///
    /// ```swift
    /// ProjectError.Problem(file: "schema.graphqls", line: 3, column: 7, message: "Unknown type \"Tirp\".")
    ///     .description   // schema.graphqls:3:7: Unknown type "Tirp".
    /// ```
    package struct Problem: Hashable, Sendable, Comparable, CustomStringConvertible {
        /// The file, relative to the project's directory (a path outside it stays as given);
        /// `nil` for a document typed at the REPL.
        package var file: String?
        /// 1-based, when the problem has a place.
        package var line: Int?
        package var column: Int?
        package var message: String

        package init(file: String?, line: Int? = nil, column: Int? = nil, message: String) {
            self.file = file
            self.line = line
            self.column = column
            self.message = message
        }

        package var description: String {
            let place = [file, line.map(String.init), column.map(String.init)].compactMap { $0 }.joined(separator: ":")
            return place.isEmpty ? message : "\(place): \(message)"
        }

        package static func < (a: Problem, b: Problem) -> Bool {
            ((a.file ?? ""), a.line ?? 0, a.column ?? 0, a.message) < ((b.file ?? ""), b.line ?? 0, b.column ?? 0, b.message)
        }
    }

    /// Every problem, sorted by file, line and column, each once.
    package let problems: [Problem]

    package init(_ problems: [Problem]) {
        self.problems = Set(problems).sorted()
    }

    package var description: String { problems.map(\.description).joined(separator: "\n") }
}

extension ProjectError.Problem {
    /// A problem at the start of an AST node; the node's source is named after its file.
    init(at location: Location?, _ message: String) {
        self.init(file: location.flatMap { Self.file(named: $0.source.name) }, line: location?.startToken.line,
                  column: location?.startToken.column, message: message)
    }

    /// GraphQLSwift's error as a problem: at its first node, with the places of the others
    /// named in the message (they may be in other files); a syntax error at its position.
    init(_ error: GraphQLError) {
        let places = error.nodes.compactMap(\.loc)
        guard let first = places.first else {
            self.init(file: error.source.flatMap { Self.file(named: $0.name) }, line: error.locations.first?.line,
                      column: error.locations.first?.column, message: Self.plainMessage(error))
            return
        }
        var message = error.message
        let others = places.dropFirst().map { Self(at: $0, "").description.dropLast(2) }
        if !others.isEmpty { message += " (also at \(others.joined(separator: ", ")))" }
        self.init(at: first, message)
    }

    /// What the parser guard refused in the text read from `file` (a source name).
    init(_ error: OperationError, in file: String) {
        self.init(file: Self.file(named: file), line: error.line, column: error.column, message: error.message)
    }

    /// The file a source was read from, by the source's name; `nil` for a document typed at the REPL.
    static func file(named name: String) -> String? {
        name == SchemaValidator.typedSourceName ? nil : name
    }

    /// The message without the parser's decorations: "Syntax Error FILE (1:11) Expected
    /// Name, found }" and the excerpt after it become "Syntax Error: Expected Name, found }".
    private static func plainMessage(_ error: GraphQLError) -> String {
        let firstLine = error.message.prefix { $0 != "\n" }
        guard let source = error.source, let location = error.locations.first else { return String(firstLine) }
        let decoration = "Syntax Error \(source.name) (\(location.line):\(location.column)) "
        return firstLine.hasPrefix(decoration) ? "Syntax Error: " + firstLine.dropFirst(decoration.count) : String(firstLine)
    }
}
