/// An interface of a generated schema, as Apollo iOS's codegen writes it in
/// `Schema/Interfaces/`: its name, its key fields (`@typePolicy` on the interface), and the
/// names of the object types that implement it.
///
/// ```swift
/// public extension Interfaces {
///     static let Node = NormAPI.Interface(name: "Node", keyFields: ["id"], implementingObjects: ["Crew", "Passenger", "Trip"])
/// }
/// Objects.Trip.implements(Interfaces.Node)   // true
/// ```
public struct Interface: Hashable, Sendable {
    public let name: String
    /// The fields whose values key an object of the interface (`@typePolicy(keyFields:)`);
    /// nil without a policy.
    public let keyFields: [String]?
    /// The names of the object types that implement it.
    public let implementingObjects: [String]

    public init(name: String, keyFields: [String]? = nil, implementingObjects: [String]) {
        self.name = name
        self.keyFields = keyFields?.isEmpty == false ? keyFields : nil
        self.implementingObjects = implementingObjects
    }
}
