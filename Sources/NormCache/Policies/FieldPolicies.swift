/// Field policies (Apollo's `@fieldPolicy`): for a field with arguments, which arguments
/// name the object it returns. They make cache redirects: with
/// `extend type Query @fieldPolicy(forField: "trip", keyArgs: "id")`, a read of
/// `trip(id: "3")` that finds no `QUERY_ROOT.trip(id:3)` field reads the record `Trip:3`
/// instead (the returned type's key space, then the key argument values joined by `+`, as
/// entity keys are). A path such as `input.id` names a field of an input object argument.
/// An endpoint's policies come with its ``SchemaKnowledge``; docs/engine.md, "Cache
/// redirects", has the rules.
///
/// ```swift
/// var policies = FieldPolicies()
/// policies["Query", "trip"] = ["id"]
/// policies["Query", "animal"] = ["species", "habitat"]   // Animal:Lion+Savanna
/// policies["Query", "trip"]                             // ["id"]
/// ```
public struct FieldPolicies: Sendable, Equatable {
    private var keyArguments: [String: [String: [String]]] = [:]

    public init() {}

    /// The key arguments of `field` of `type`, in key order; `nil` when the field has no policy.
    public subscript(type: String, field: String) -> [String]? {
        get { keyArguments[type]?[field] }
        set { keyArguments[type, default: [:]][field] = newValue }
    }

    /// The types that have field policies, sorted.
    public var types: [String] { keyArguments.keys.sorted() }

    /// The fields of `type` that have a policy, sorted.
    public func fields(of type: String) -> [String] { keyArguments[type]?.keys.sorted() ?? [] }

    public var isEmpty: Bool { keyArguments.values.allSatisfy(\.isEmpty) }
}
