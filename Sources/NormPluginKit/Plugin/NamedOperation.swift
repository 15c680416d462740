import NormAPI

/// A named operation of a plugin's manifest, written beside the view that shows its data,
/// with the fragments it spreads. The host runs it by its name (`.operation("TripDetail")`).
///
/// ```swift
/// let tripHeader = NamedFragment("fragment TripHeader on Trip { id name startsOn }")
/// let tripList = NamedOperation("query TripList { trips { ...TripHeader } }", fragments: [tripHeader])
/// let tripDetail = NamedOperation("""
///     query TripDetail($id: ID!) { trip(id: $id) { ...TripHeader owner { id name } } }
///     """, fragments: [tripHeader])
/// tripDetail.document   // the query, then the text of TripHeader
/// ```
public struct NamedOperation: Sendable {
    /// The operation's definition, `query Name ...` or `mutation Name ...`.
    public let text: String
    /// The fragments it spreads.
    public let fragments: [NamedFragment]

    public init(_ text: String, fragments: [NamedFragment] = []) {
        self.text = text
        self.fragments = fragments
    }

    /// A generated operation (`normcache codegen`): its document, fragments included, as
    /// the host runs it by name and the typed ``Host`` API asks for it.
    ///
    /// ```swift
    /// static let operations = [NamedOperation(TripListQuery.self), NamedOperation(TripDetailQuery.self)]
    /// ```
    public init<Generated: GraphQLOperation>(_ type: Generated.Type) {
        self.init(Generated.operationDocument)
    }

    /// The operation's text followed by every fragment it needs, each once, so that the
    /// document stands alone.
    public var document: String {
        var needed: [NamedFragment] = []
        func collect(_ fragments: [NamedFragment]) {
            for fragment in fragments where !needed.contains(fragment) {
                needed.append(fragment)
                collect(fragment.fragments)
            }
        }
        collect(fragments)
        return ([text] + needed.map(\.text)).joined(separator: "\n")
    }
}

/// A fragment that operations share, written beside the view that shows its fields, with
/// the fragments it spreads in turn.
///
/// ```swift
/// let place = NamedFragment("fragment Place on Destination { city country }")
/// let tripHeader = NamedFragment("fragment TripHeader on Trip { id name destination { ...Place } }", fragments: [place])
/// ```
public struct NamedFragment: Sendable, Equatable {
    /// The definition, `fragment Name on Type { ... }`.
    public let text: String
    /// The fragments it spreads.
    public let fragments: [NamedFragment]

    public init(_ text: String, fragments: [NamedFragment] = []) {
        self.text = text
        self.fragments = fragments
    }
}
