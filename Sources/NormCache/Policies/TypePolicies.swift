/// How objects of each type become records: which fields make their key, whether
/// several types share one key space, or whether a type is never normalized.
///
/// Without a policy a type is keyed by `id` (Apollo Client's habit; Apollo iOS has no
/// default). ``defaultKeyFields`` = `[]` turns that off, as Apollo iOS has it.
///
/// ```swift
/// var policies = TypePolicies()
/// policies["Trip"] = .keyFields(["id"])
/// policies["Seat"] = .keyFields(["flight", "number"])      // Seat:LH123+14C
/// policies["Human"] = .keyFields(["id"], group: "Character") // Character:1000
/// policies["Money"] = .notNormalized                         // always a path key
/// ```
public struct TypePolicies: Sendable, Equatable {
    public enum Policy: Sendable, Equatable {
        /// The values of these fields, in this order, make the key; `group` replaces the
        /// typename in it, so the types of an interface can share one key space.
        case keyFields([String], group: String? = nil)
        /// Objects of this type are stored under path keys.
        case notNormalized
    }

    /// The key fields of a type that has no policy; empty = no default key.
    public var defaultKeyFields: [String] = ["id"]
    private var policies: [String: Policy] = [:]

    public init() {}

    public subscript(typename: String) -> Policy? {
        get { policies[typename] }
        set { policies[typename] = newValue }
    }

    /// Types that have a policy, sorted.
    public var types: [String] { policies.keys.sorted() }

    /// The key fields and the key's type part for `typename`, and whether a policy declared
    /// them; `nil` when the type is not normalized. A policy of this set wins over the
    /// `endpoint`'s for the same type; a type with neither takes the policy of the first of
    /// `supertypes` that has one (this set's, else the endpoint's) under its own name, as
    /// Apollo iOS keys an object by its interface's key fields and Apollo Client lets a
    /// type inherit its supertypes' policies, and else the default key fields.
    func keying(for typename: String, over endpoint: TypePolicies? = nil, inheritingFrom supertypes: [String] = [])
        -> (fields: [String], group: String, declared: Bool)? {
        func policy(of type: String) -> Policy? { policies[type] ?? endpoint?.policies[type] }
        switch policy(of: typename) ?? supertypes.lazy.compactMap(policy(of:)).first {
        case .keyFields(let fields, let group): return fields.isEmpty ? nil : (fields, group ?? typename, true)
        case .notNormalized: return nil
        case nil: return defaultKeyFields.isEmpty ? nil : (defaultKeyFields, typename, false)
        }
    }
}
