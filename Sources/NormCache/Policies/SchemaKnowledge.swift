/// What one endpoint's schema tells the cache about the responses that endpoint sends:
/// which object types satisfy which interfaces and unions, and how its types are keyed.
/// It belongs to the endpoint it came from (a plugin's manifest, an HTTP endpoint's
/// schema), and a read, write or watcher is given the knowledge of the endpoint its
/// operation runs against, so one endpoint's schema never decides another's responses.
///
/// Around it stands the cache's own knowledge: ``NormalizedCache/typePolicies`` (what the
/// app configures in code, as `.keyfields` does; it wins over an endpoint's policy for
/// the same type) and ``NormalizedCache/possibleTypes`` (a schema given to the cache
/// itself, and what responses taught where no schema knows the type).
///
/// ```swift
/// var trips = SchemaKnowledge(possibleTypes: try PossibleTypes(sdl: manifestSDL))
/// trips.typePolicies["Airport"] = .keyFields(["code"])
/// try cache.write(response: response, for: tripList, schema: trips)   // Airport:LIS
/// let result = try cache.read(tripList, schema: trips)
/// ```
public struct SchemaKnowledge: Sendable, Equatable {
    /// The endpoint's interfaces, unions, root types and input and output field types.
    public var possibleTypes: PossibleTypes
    /// The key fields the endpoint declares per type. Only the types named here count:
    /// a type without a policy here is keyed as the cache's own policies say.
    public var typePolicies: TypePolicies

    public init(possibleTypes: PossibleTypes = PossibleTypes(), typePolicies: TypePolicies = TypePolicies()) {
        self.possibleTypes = possibleTypes
        self.typePolicies = typePolicies
    }
}
