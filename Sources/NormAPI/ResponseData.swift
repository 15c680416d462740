/// A value that generated types decode from: a response's or a cache read's data, as the
/// engine holds it. The engine's `CacheValue` and the plugin kit's `Map` conform, so one
/// generated type reads both, with no JSON text or `Codable` in between.
///
/// ```swift
/// let data: CacheValue = ["trip": ["__typename": "Trip", "id": "2", "name": "Porto"]]
/// let trip = try TripDetailQuery.Data(response: data).trip
/// trip?.name          // "Porto"
/// ```
public protocol ResponseData: Sendable {
    /// The member named `key` of an object; nil when it has none or is not an object.
    func member(_ key: String) -> Self?
    /// ``member(_:)``, looked for at position `hint` first: generated code reads an
    /// object's fields in the order its document selects them, which is the order the
    /// data has them in, so the first look finds it.
    func member(_ key: String, near hint: Int) -> Self?
    var isNull: Bool { get }
    var stringValue: String? { get }
    var intValue: Int? { get }
    /// A number: a float, or an integer widened.
    var doubleValue: Double? { get }
    var boolValue: Bool? { get }
    var listValue: [Self]? { get }
    /// What kind of value this is, for messages: "a string", "an object", ...
    var kindDescription: String { get }
    /// The Boolean variable `name` of the operation the data was read or received for,
    /// which `@include` and `@skip` are decided by: nil when the variable is absent or null,
    /// or the data comes without its operation's variables (``OperationData`` carries them).
    func booleanVariable(_ name: String) -> Bool?
}

extension ResponseData {
    public func member(_ key: String, near hint: Int) -> Self? { member(key) }

    /// Decodes the member `key` as `Value`: a scalar, an enum, a list, a selection set, or
    /// an optional of one. A member that is absent reads as null (a field skipped by
    /// `@include` / `@skip`), which only an optional accepts.
    ///
    /// ```swift
    /// name = try data.field("name", at: 1)            // String, the data's 2nd member
    /// startsOn = try data.field("startsOn", at: 2)    // String?
    /// ```
    ///
    /// `position` is where the member is expected (``member(_:near:)``); anywhere else it
    /// is found all the same.
    @inlinable
    public func field<Value: ResponseDecodable>(_ key: String, at position: Int = 0) throws(ResponseDecodingError) -> Value {
        do throws(ResponseDecodingError) {
            guard let value = member(key, near: position) else { return try Value.absent() }
            return try Value(response: value)
        } catch {
            throw error.inside(key)
        }
    }

    /// The object's `__typename`, which a type case (`asStation`) is decided by.
    public func typename() throws(ResponseDecodingError) -> String {
        guard let name = member("__typename")?.stringValue else {
            throw ResponseDecodingError(path: ["__typename"], problem: "missing: a type case needs the object's __typename")
        }
        return name
    }

    /// Whether `conditions` hold under the operation's variables, as Apollo iOS's executor
    /// decides them: each is `x` for `@include(if: $x)` or `!x` for `@skip(if: $x)`, and all
    /// must hold. A variable absent or null is false (so `@skip` keeps its selection):
    /// ``InclusionCondition``, which the engine asks too.
    ///
    /// ```swift
    /// OperationData(data, variables: ["getCat": true]).holds(["getCat", "!brief"])   // true
    /// ```
    @inlinable
    public func holds(_ conditions: [String]) -> Bool {
        conditions.allSatisfy { text in
            let condition = InclusionCondition(generated: text)
            return condition.holds(booleanVariable(condition.variable))
        }
    }

    /// A type case (`asStation`, `asCatIfGetCat`): `Case` decoded from this same object when
    /// its `__typename` is one of `possibleTypes` and its `@include` / `@skip` `conditions`
    /// hold (``holds(_:)``), else nil.
    ///
    /// ```swift
    /// asStation = try data.typeCase(["Station"])
    /// asCatIfGetCat = try data.typeCase(["Cat"], if: ["getCat"])   // nil when $getCat is false
    /// ```
    @inlinable
    public func typeCase<Case: ResponseDecodable>(_ possibleTypes: Set<String>, if conditions: [String] = []) throws(ResponseDecodingError) -> Case? {
        guard holds(conditions), possibleTypes.contains(try typename()) else { return nil }
        return try Case(response: self)
    }

    /// What `@include` / `@skip` alone bring in: a condition's type case (`ifIncludeDetails`)
    /// or a fragment spread under it (`fragments.details`), decoded from this same object
    /// when the conditions of one of the ways it is selected hold (``holds(_:)``), else nil.
    ///
    /// ```swift
    /// ifIncludeDetails = try data.included(if: ["includeDetails"])
    /// details = try data.included(if: ["includeDetails"], ["!brief"])   // spread twice: either will do
    /// ```
    @inlinable
    public func included<Part: ResponseDecodable>(if ways: [String]...) throws(ResponseDecodingError) -> Part? {
        ways.contains(where: holds) ? try Part(response: self) : nil
    }

    /// A deferred part (`fragments.deferredCat`, a fragment spread under `@defer`): decoded
    /// from this same object once the data has it, nil while it is pending, as Apollo iOS
    /// decides it by what has arrived. It has arrived when the data has every member of
    /// `keys` (what it selects beyond its parent; null counts, absent does not) and every
    /// member `Part` requires.
    ///
    /// ```swift
    /// deferredCat = try data.deferred(selecting: ["isJellicle"])
    /// ```
    public func deferred<Part: ResponseDecodable>(selecting keys: [String]) throws(ResponseDecodingError) -> Part? {
        guard keys.allSatisfy({ member($0) != nil }) else { return nil }
        do throws(ResponseDecodingError) {
            return try Part(response: self)
        } catch where error.problem == ResponseDecodingError.missing.problem {
            return nil
        }
    }

    public func booleanVariable(_ name: String) -> Bool? { nil }
}
