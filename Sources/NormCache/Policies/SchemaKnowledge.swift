/// What one endpoint's schema tells the cache about the responses that endpoint sends:
/// which object types satisfy which interfaces and unions, how its types are keyed, and
/// which arguments of its fields name the object they return (cache redirects).
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
/// trips.fieldPolicies["Query", "trip"] = ["id"]                        // trip(id: 3) reads Trip:3
/// try cache.write(response: response, for: tripList, schema: trips)   // Airport:LIS
/// let result = try cache.read(tripList, schema: trips)
/// ```
public struct SchemaKnowledge: Sendable, Equatable {
    /// The endpoint's interfaces, unions, root types and input and output field types.
    public var possibleTypes: PossibleTypes
    /// The key fields the endpoint declares per type. Only the types named here count:
    /// a type without a policy here is keyed as the cache's own policies say.
    public var typePolicies: TypePolicies
    /// The arguments that name the object a field returns: a read of such a field that
    /// finds it absent reads that object's record instead.
    public var fieldPolicies: FieldPolicies
    /// How long the endpoint's fields stay fresh (its `@cacheControl` directives).
    public var maxAges: MaxAges
    /// Which fields merge their pages into one, and which keep their objects inline.
    public var pagination: Pagination

    public init(possibleTypes: PossibleTypes = PossibleTypes(), typePolicies: TypePolicies = TypePolicies(),
                fieldPolicies: FieldPolicies = FieldPolicies(), maxAges: MaxAges = MaxAges(), pagination: Pagination = Pagination()) {
        self.possibleTypes = possibleTypes
        self.typePolicies = typePolicies
        self.fieldPolicies = fieldPolicies
        self.maxAges = maxAges
        self.pagination = pagination
    }
}
