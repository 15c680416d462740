/// Whether a response value fits the type the schema gives its field: what GraphQL's
/// result coercion promises a client (an `Int` field holds a 32-bit integer, a non-null
/// one is never null, a list type holds a list). A write checks every field of an object
/// whose type the endpoint's schema defines, so a server that breaks its schema is
/// refused with the field's path instead of filling the cache with values no reader of
/// that schema expects.
///
/// ```swift
/// let schema = try PossibleTypes(sdl: "scalar Json type Trip { seats: Int! meta: Json } type Query { trip: Trip }")
/// schema.misfit(of: "two", to: .nonNull(.named("Int")))   // (path: "", problem: "\"two\" (a string)")
/// schema.misfit(of: 2, to: .nonNull(.named("Int")))       // nil
/// schema.misfit(of: [1, "a"], to: .named("Json"))         // nil: a custom scalar takes any JSON
/// ```
extension PossibleTypes {
    /// Where inside `value` it does not fit `type`, and what is there; `nil` when it fits.
    /// With `nullsAllowed` (a response with errors, whose nulls may stand for failed
    /// fields) a null fits a non-null type too.
    func misfit<Node: ResponseNode>(of value: Node, to type: TypeReference, nullsAllowed: Bool = false) -> (path: String, problem: String)? {
        switch (type, value.kind) {
        case (.nonNull, .null):
            return nullsAllowed ? nil : ("", "null")
        case (.nonNull(let inner), _):
            return misfit(of: value, to: inner, nullsAllowed: nullsAllowed)
        case (_, .null):
            return nil
        case (.named(let name), _) where isCustomScalar(name):
            return nil  // any JSON value, a list or an object too, as Apollo iOS's custom scalars take
        case (.list(let item), .list):
            var found: (path: String, problem: String)?
            value.forEachItem { index, member in
                if found == nil, let inner = misfit(of: member, to: item, nullsAllowed: nullsAllowed) { found = ("[\(index)]" + inner.path, inner.problem) }
            }
            return found
        case (.list, _), (.named, .list):
            return ("", "\(value.decoded().shortJSON) (\(value.kind))")
        case (.named(let name), let kind):
            // An object fits any named type but a scalar's: no need to decode it.
            return fits(kind == .object ? .object(CacheObject()) : value.decoded(), named: name)
                ? nil : ("", "\(value.decoded().shortJSON) (\(kind))")
        }
    }

    /// Whether a value that is no list and no null fits the named type `name`: the
    /// built-in scalars as GraphQL serializes them, an enum's value as a string (of any
    /// value: the server's enum may have grown), anything for an object or an undeclared type.
    private func fits(_ value: CacheValue, named name: String) -> Bool {
        switch (name, value) {
        case ("Int", .int(let int)): Int32(exactly: int) != nil
        case ("Int", .double(let double)): Int32(exactly: double) != nil
        case ("Float", .int), ("Float", .double), ("String", .string), ("ID", .string), ("ID", .int), ("Boolean", .bool): true
        case ("Int", _), ("Float", _), ("String", _), ("ID", _), ("Boolean", _): false
        case (_, .string) where isEnum(name): true
        case (_, _) where isEnum(name): false
        default: true
        }
    }
}
