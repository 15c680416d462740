/// A union of a generated schema, as Apollo iOS's codegen writes it in `Schema/Unions/`:
/// its name and its member object types.
///
/// ```swift
/// public extension Unions {
///     static let JourneyEndpoint = NormAPI.Union(name: "JourneyEndpoint", possibleTypes: [TripsAPI.Objects.Station, TripsAPI.Objects.Airport])
/// }
/// Unions.JourneyEndpoint.possibleTypes.map(\.typename)   // ["Station", "Airport"]
/// ```
public struct Union: Hashable, Sendable {
    public let name: String
    /// The union's members.
    public let possibleTypes: [Object]

    public init(name: String, possibleTypes: [Object]) {
        self.name = name
        self.possibleTypes = possibleTypes
    }
}
