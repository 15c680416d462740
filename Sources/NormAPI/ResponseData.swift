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

    /// `Case` decoded from this same object when its `__typename` is one of `possibleTypes`
    /// (the type case's condition), else nil.
    @inlinable
    public func typeCase<Case: ResponseDecodable>(_ possibleTypes: Set<String>) throws(ResponseDecodingError) -> Case? {
        possibleTypes.contains(try typename()) ? try Case(response: self) : nil
    }

    /// A type case under `@include` / `@skip` (`asCatIfGetCat`, `ifIncludeDetails`):
    /// `Case` decoded from this same object when its `__typename` is one of `possibleTypes`
    /// (nil: a condition alone, any type) and the data has what the condition brings in:
    /// every member of `keys` (null counts, absent does not), and every member `Case`
    /// requires. Nil otherwise, as the condition left them out.
    ///
    /// ```swift
    /// ifIncludeDetails = try data.conditionalCase(selecting: ["details"])   // nil when $includeDetails was false
    /// asCatIfGetCat = try data.conditionalCase(["Cat"], selecting: ["isJellicle"])
    /// ```
    public func conditionalCase<Case: ResponseDecodable>(_ possibleTypes: Set<String>? = nil, selecting keys: [String]) throws(ResponseDecodingError) -> Case? {
        if let possibleTypes, !possibleTypes.contains(try typename()) { return nil }
        guard keys.allSatisfy({ member($0) != nil }) else { return nil }
        do throws(ResponseDecodingError) {
            return try Case(response: self)
        } catch where error.problem == ResponseDecodingError.missing.problem {
            return nil
        }
    }
}
