/// How long cached fields stay fresh, per schema coordinate: a type (`Trip`: every field
/// that returns a Trip) or a field (`Trip.name`), each a number of seconds or "inherit the
/// parent field's", as Apollo Server's `@cacheControl(maxAge:, inheritMaxAge:)` declares
/// them, and a default for what no rule names. A field's max age is decided by
/// ``maxAge(of:on:supertypes:returning:composite:rootField:parent:)`` alone, by Apollo Kotlin's
/// `SchemaCoordinatesMaxAgeProvider` rule (docs/engine.md, "Freshness").
///
/// ```swift
/// var ages = MaxAges()
/// ages["Trip"] = .seconds(300)          // every field that returns a Trip
/// ages["Trip.rating"] = .seconds(30)
/// ages["Trip.name"] = .inherit          // as long as the field holding the trip
/// ages.defaultMaxAge = 3600
/// ages.maxAge(of: "rating", on: "Trip", returning: "Int", composite: false, rootField: false, parent: 300)   // 30
/// ```
public struct MaxAges: Sendable, Equatable {
    /// One coordinate's rule.
    public enum Rule: Sendable, Equatable {
        /// Fresh for this many seconds after it was received.
        case seconds(Double)
        /// As long as the field that holds its object (`inheritMaxAge: true`).
        case inherit
    }

    /// The rules by coordinate: `Type` or `Type.field`.
    public private(set) var rules: [String: Rule] = [:]
    /// The max age of a root field or a field of composite type that no rule names, in
    /// seconds; `nil`: never stale (what a cache without max ages does).
    public var defaultMaxAge: Double?

    public init() {}

    /// The rule for a coordinate (`Trip`, `Trip.name`); set to nil to remove it.
    public subscript(coordinate: String) -> Rule? {
        get { rules[coordinate] }
        set { rules[coordinate] = newValue }
    }

    /// Whether nothing here can make a field stale.
    public var isEmpty: Bool { rules.isEmpty && defaultMaxAge == nil }

    /// `self` with `overlay`'s rules (and default, when it has one) in place of its own.
    public func overlaid(by overlay: MaxAges) -> MaxAges {
        var merged = self
        merged.rules.merge(overlay.rules) { _, new in new }
        merged.defaultMaxAge = overlay.defaultMaxAge ?? defaultMaxAge
        return merged
    }

    /// The max age of the field `field` of an object of type `parentType` (which implements
    /// the interfaces and belongs to the unions `supertypes`: a rule on an interface's field,
    /// `Character.name`, applies to the objects that implement it), which returns
    /// values of the named type `returnType` (nil when no schema says), in seconds
    /// (`.infinity`: never stale). `composite`: it selects fields of an object; `rootField`:
    /// a field of the operation's root; `parent`: the max age of the field that holds the
    /// object (`.infinity` for a root field). Most specific first: the field's rule, else
    /// its return type's, else the default (for a root or composite field) or the parent's;
    /// a rule that inherits takes the parent's; below the root, never more than the parent's.
    public func maxAge(of field: String, on parentType: String, supertypes: [String] = [], returning returnType: String?,
                       composite: Bool, rootField: Bool, parent: Double) -> Double {
        let own: Double
        let fieldRule = rules[parentType + "." + field] ?? supertypes.lazy.compactMap { rules[$0 + "." + field] }.first
        switch fieldRule ?? returnType.flatMap({ rules[$0] }) {
        case .seconds(let seconds)?: own = seconds
        case .inherit?: own = parent
        case nil: own = rootField || composite ? defaultMaxAge ?? .infinity : parent
        }
        return rootField ? own : min(own, parent)
    }
}
