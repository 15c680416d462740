import Foundation
import GraphQL
import NormCache
import NormProject

/// Apollo iOS's operation identifier (`operationDocumentFormat: ["operationId"]`, persisted
/// query manifests): the SHA-256, in hex, of the operation's definition as Apollo's codegen
/// prints it, then each fragment it uses (transitively, sorted by name), each after a line
/// break. A definition as Apollo prints it: `__typename` first in every selection set of a
/// field or fragment (and of an inline fragment, with
/// `experimentalFeatures.legacySafelistingCompatibleOperations`, which moves every
/// `__typename` first), client-only directives removed, printed as graphql-js prints it,
/// on one line.
///
/// ```swift
/// let identifiers = OperationIdentifier(project: project, legacySafelisting: false)
/// identifiers.definition(of: heroName)   // query HeroName($episode: Episode) { hero(episode: $episode) { __typename name } }
/// identifiers.identifier(of: heroName)   // b9d49e889d6f5877c0bf09b8b4f88a71f88836a771e0e48c270a9aa8b506dda1
/// ```
struct OperationIdentifier {
    let project: Project
    let legacySafelisting: Bool

    func identifier(of operation: ProjectDefinition) throws(ProjectError) -> String {
        SHA256.hex(of: try source(of: operation))
    }

    /// What the identifier hashes: the operation's definition, then its fragments'.
    func source(of operation: ProjectDefinition) throws(ProjectError) -> String {
        var used: [String: ProjectDefinition] = [:]
        var pending = operation.fragmentNames
        while let name = pending.popLast() {
            guard used[name] == nil, let fragment = project.fragments.first(where: { $0.name == name }) else { continue }
            used[name] = fragment
            pending += fragment.fragmentNames
        }
        var text = try definition(of: operation)
        for fragment in used.values.sorted(by: { $0.name < $1.name }) { text += "\n" + (try definition(of: fragment)) }
        return text
    }

    /// The definition as Apollo iOS's codegen prints it, on one line.
    func definition(of definition: ProjectDefinition) throws(ProjectError) -> String {
        do {
            var text = definition.text
            if legacySafelisting { text = Self.typenameFirstInInlineFragments(try parse(source: Source(body: text)), source: text) }
            let network = OperationCompiler.networkDocument(try parse(source: Source(body: text)), source: text)
            guard let node = try parse(source: Source(body: network)).definitions.first else { return "" }
            return print(ast: node).components(separatedBy: .newlines).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        } catch {
            throw ProjectError([.init(file: definition.file, line: definition.line, column: definition.column, message: "\(error)")])
        }
    }

    /// Legacy safelisting's `__typename`: every `__typename` field taken out, then one put
    /// first in each inline fragment's selection set (the network document adds the rest).
    private static func typenameFirstInInlineFragments(_ document: Document, source: String) -> String {
        var edits: [(bytes: Range<Int>, text: String)] = []
        func visit(_ set: GraphQL.SelectionSet) {
            for selection in set.selections {
                if let field = selection as? Field {
                    if field.name.value == "__typename", let loc = field.loc { edits.append((loc.start ..< loc.end, "")) }
                    if let child = field.selectionSet { visit(child) }
                } else if let inline = selection as? InlineFragment {
                    if let start = inline.selectionSet.loc?.start { edits.append((start + 1 ..< start + 1, " __typename")) }
                    visit(inline.selectionSet)
                }
            }
        }
        for definition in document.definitions {
            if let operation = definition as? OperationDefinition { visit(operation.selectionSet) }
            if let fragment = definition as? FragmentDefinition { visit(fragment.selectionSet) }
        }
        var bytes = Array(source.utf8)
        for edit in edits.sorted(by: { $0.bytes.lowerBound > $1.bytes.lowerBound }) {
            bytes.replaceSubrange(edit.bytes, with: Array(edit.text.utf8))
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
