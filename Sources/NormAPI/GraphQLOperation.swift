/// What a generated operation type conforms to: its name, the document sent and read
/// (every fragment it uses appended, `__typename` in every selection set below the root),
/// its variables as stored properties, its `Data`, and the generated schema it belongs to.
///
/// ```swift
/// let query = TripDetailQuery(id: "2")
/// TripDetailQuery.operationName        // "TripDetail"
/// query.__variables                    // {"id": "2"}
/// let result = try await client.fetch(query)
/// result.data?.trip?.name
/// ```
public protocol GraphQLOperation: Sendable {
    associatedtype Data: SelectionSet
    /// The generated schema's metadata (`TripsAPI.SchemaMetadata`): what the cache is told
    /// of keys, redirects and possible types when the operation runs.
    associatedtype Schema: SchemaMetadata
    static var operationName: String { get }
    static var operationDocument: String { get }
    /// Apollo iOS's identifier of the operation (the SHA-256 of its text as Apollo's codegen
    /// prints it), when the configuration's `operationDocumentFormat` has `operationId`; else nil.
    static var operationIdentifier: String? { get }
    /// The variables given, as the request sends them (nil optionals left out).
    var __variables: JSONValue { get }
}

extension GraphQLOperation {
    public var __variables: JSONValue { .object([]) }
    public static var operationIdentifier: String? { nil }
}

/// A generated query.
public protocol GraphQLQuery: GraphQLOperation {}
/// A generated mutation.
public protocol GraphQLMutation: GraphQLOperation {}
/// A generated subscription.
public protocol GraphQLSubscription: GraphQLOperation {}
