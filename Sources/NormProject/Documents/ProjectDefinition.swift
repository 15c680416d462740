import GraphQL

/// One named operation or fragment of a project: what it is, where it is written, and the
/// fragments it spreads.
///
/// ```swift
/// let detail = project.operation(named: "TripDetail")!
/// "\(detail.file):\(detail.line)"   // Features/TripDetail/TripDetail.graphql:3
/// detail.kind                       // .query
/// detail.fragmentNames              // ["TripHeader", "JourneyEndpointFields"]
/// project.fragments.first?.typeCondition   // "JourneyEndpoint"
/// ```
package struct ProjectDefinition: Sendable {
    package enum Kind: String, Sendable {
        case query, mutation, subscription, fragment
    }

    package let name: String
    package let kind: Kind
    /// The file, relative to the project's directory.
    package let file: String
    /// 1-based line and column of the definition's first token.
    package let line: Int
    package let column: Int
    /// The definition as written in its file.
    package let text: String
    /// The fragments it spreads itself (not those its fragments spread), in order of first use.
    package let fragmentNames: [String]
    /// A fragment's type condition (`Trip` for `fragment TripHeader on Trip`); nil for an operation.
    package let typeCondition: String?

    /// The parsed definition, for validation and codegen.
    package let node: any Definition
    /// Each spread of a fragment, for the places of unknown ones.
    let spreads: [FragmentSpread]

    /// The operation or fragment `node`, parsed from `file`; `nil` for anything else
    /// (anonymous operations, type system definitions).
    init?(_ node: any Definition) {
        let name: Name?
        let selections: SelectionSet
        switch node {
        case let operation as OperationDefinition:
            (name, selections, kind) = (operation.name, operation.selectionSet, Kind(rawValue: operation.operation.rawValue) ?? .query)
            typeCondition = nil
        case let fragment as FragmentDefinition:
            (name, selections, kind) = (fragment.name, fragment.selectionSet, .fragment)
            typeCondition = fragment.typeCondition.name.value
        default: return nil
        }
        guard let name, let location = node.loc, let braceOffset = selections.loc?.start else { return nil }
        self.name = name.value
        self.node = node
        file = location.source.name
        line = location.startToken.line
        column = location.startToken.column
        let body = Array(location.source.body.utf8)
        text = String(decoding: body[location.start..<Self.end(ofSelectionsAt: braceOffset, in: body)], as: UTF8.self)
        spreads = Self.spreads(in: selections)
        var seen: Set<String> = []
        fragmentNames = spreads.map(\.name.value).filter { seen.insert($0).inserted }
    }

    /// The offset just after the `}` that closes the selection set opening at `start`, past
    /// nested braces, strings and comments. (GraphQLSwift's locations end before the last
    /// token they cover, so a definition's text is found from its braces.)
    private static let tripleQuote = Array("\"\"\"".utf8)

    private static func end(ofSelectionsAt start: Int, in body: [UInt8]) -> Int {
        var depth = 0
        var offset = start
        while offset < body.count {
            switch body[offset] {
            case UInt8(ascii: "{"): depth += 1
            case UInt8(ascii: "}"):
                depth -= 1
                if depth == 0 { return offset + 1 }
            case UInt8(ascii: "#"):
                while offset < body.count, body[offset] != UInt8(ascii: "\n") { offset += 1 }
            case UInt8(ascii: "\""):
                let block = body[offset...].starts(with: tripleQuote)
                offset += block ? 3 : 1
                while offset < body.count, !(block ? body[offset...].starts(with: tripleQuote) : body[offset] == UInt8(ascii: "\"")) {
                    offset += body[offset] == UInt8(ascii: "\\") ? 2 : 1
                }
                offset += block ? 2 : 0
            default: break
            }
            offset += 1
        }
        return body.count
    }

    /// Every fragment spread in a selection set, at any depth, in document order.
    static func spreads(in selections: SelectionSet) -> [FragmentSpread] {
        selections.selections.flatMap { selection -> [FragmentSpread] in
            switch selection {
            case let spread as FragmentSpread: [spread]
            case let field as Field: field.selectionSet.map(spreads(in:)) ?? []
            case let inline as InlineFragment: spreads(in: inline.selectionSet)
            default: []
            }
        }
    }
}
