/// An object type of a generated schema, as Apollo iOS's codegen writes it in
/// `Schema/Objects/`: its name, the interfaces it implements, and its key fields
/// (`@typePolicy`, from the type itself or an interface it implements).
///
/// ```swift
/// public extension Objects {
///     static let Airport = NormAPI.Object(typename: "Airport", implementedInterfaces: [], keyFields: ["code"])
/// }
/// Objects.Airport.keyFields          // ["code"]: records Airport:LIS
/// ```
public struct Object: Hashable, Sendable {
    /// The type's name, an object's `__typename`.
    public let typename: String
    public let implementedInterfaces: [Interface]
    /// The fields whose values key its objects (`@typePolicy(keyFields:)`); nil without a policy.
    public let keyFields: [String]?

    public init(typename: String, implementedInterfaces: [Interface], keyFields: [String]? = nil) {
        self.typename = typename
        self.implementedInterfaces = implementedInterfaces
        self.keyFields = keyFields?.isEmpty == false ? keyFields : nil
    }

    /// Whether the type implements `interface`.
    public func implements(_ interface: Interface) -> Bool { interface.implementingObjects.contains(typename) }
}
