/// A field a read found absent and answered from the record its field policy names
/// (``FieldPolicies``): `trip(id: "3")` read from `Trip:3`, as Apollo iOS and Apollo Kotlin
/// read it. docs/engine.md, "Cache redirects", has the rules.
///
/// ```swift
/// var trips = SchemaKnowledge(possibleTypes: try PossibleTypes(sdl: sdl))
/// trips.fieldPolicies["Query", "trip"] = ["id"]
/// let result = try cache.read(tripDetail, variables: ["id": "3"], schema: trips)
/// result.redirects.map(\.description)   // ["QUERY_ROOT.trip(id:3) → Trip:3"]
/// ```
public struct CacheRedirect: Sendable, Equatable, CustomStringConvertible {
    /// The absent record field: `QUERY_ROOT.trip(id:3)`.
    public let field: String
    /// The records read in its place: one, or one per item of a list argument, in order.
    public let records: [String]

    /// `QUERY_ROOT.trips(ids:[1,2]) → Trip:1, Trip:2`.
    public var description: String { field + " → " + records.joined(separator: ", ") }
}
