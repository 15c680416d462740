/// An `@include(if:)` or `@skip(if:)` condition on a selection, decided as Apollo iOS's
/// executor decides it: a variable that is absent or null counts as false, so `@include`
/// drops its selection and `@skip` keeps it. The engine's reads and writes and the
/// generated types' type cases (``ResponseData/holds(_:)``) both ask it.
///
/// ```swift
/// InclusionCondition(include: true, variable: "getCat").holds(nil)    // false
/// InclusionCondition(include: false, variable: "brief").holds(nil)    // true: @skip keeps it
/// InclusionCondition(generated: "!brief").holds(true)                 // false
/// ```
public struct InclusionCondition: Sendable, Equatable {
    /// True for `@include(if: $x)`, false for `@skip(if: $x)`.
    public let include: Bool
    public let variable: String

    public init(include: Bool, variable: String) {
        self.include = include
        self.variable = variable
    }

    /// A condition as generated code writes it: `x` for `@include(if: $x)`, `!x` for
    /// `@skip(if: $x)`.
    @inlinable
    public init(generated condition: String) {
        let skips = condition.hasPrefix("!")
        self.init(include: !skips, variable: skips ? String(condition.dropFirst()) : condition)
    }

    /// Whether the selection is taken when the variable's value is `value` (nil: absent or null).
    @inlinable
    public func holds(_ value: Bool?) -> Bool { (value ?? false) == include }
}
