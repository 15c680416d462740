/// What a generated schema tells the cache, as `normcache codegen` writes it in
/// `Schema/SchemaMetadata.graphql.swift` (Apollo iOS's `SchemaMetadata`, with `Objects`,
/// `Interfaces` and `Unions` beside it): the object types the operations reference with
/// their interfaces and key fields, the interfaces and unions with their members, the
/// field policies, the paginated and embedded fields, and the root types. Every generated
/// operation names its schema (``GraphQLOperation/Schema``), and NormClient's typed API
/// runs it with this knowledge, so an app built on generated code alone keys, redirects,
/// matches type cases and merges pages as its project says.
///
/// ```swift
/// public enum SchemaMetadata: NormAPI.SchemaMetadata {
///     public static let objectTypes: [NormAPI.Object] = [TripsAPI.Objects.Airport, TripsAPI.Objects.Trip, ...]
///     public static let interfaces: [NormAPI.Interface] = []
///     public static let unions: [NormAPI.Union] = [TripsAPI.Unions.JourneyEndpoint]
///     public static let fieldPolicies: [NormAPI.FieldPolicy] = [.init(type: "Query", field: "trip", keyArgs: ["id"], returnType: "Trip")]
///     public static let pagination: [NormAPI.FieldPagination] = []   // the trips project declares none
///     public static let rootTypes = NormAPI.RootTypes(query: "Query", mutation: "Mutation", subscription: nil)
/// }
/// TripDetailQuery.Schema.objectTypes.first { $0.typename == "Airport" }?.keyFields   // ["code"]
/// ```
public protocol SchemaMetadata: Sendable {
    static var objectTypes: [Object] { get }
    static var interfaces: [Interface] { get }
    static var unions: [Union] { get }
    static var fieldPolicies: [FieldPolicy] { get }
    /// The paginated and embedded fields (``FieldPagination``).
    static var pagination: [FieldPagination] { get }
    static var rootTypes: RootTypes { get }
}

extension SchemaMetadata {
    /// None: what metadata generated before codegen wrote pagination declares.
    public static var pagination: [FieldPagination] { [] }
}

/// The names of a schema's root operation types (`schema { query: query_root }` renames them).
///
/// ```swift
/// NormAPI.RootTypes(query: "query_root", mutation: "mutation_root", subscription: nil)
/// ```
public struct RootTypes: Hashable, Sendable {
    public let query: String
    public let mutation: String?
    public let subscription: String?

    public init(query: String, mutation: String?, subscription: String?) {
        self.query = query
        self.mutation = mutation
        self.subscription = subscription
    }
}
