/// A JSON value, plus the one thing a normalized record adds to JSON: a reference to
/// another record. Responses, variables, read results and record fields are all
/// `CacheValue`s; only record fields hold `.reference`.
///
/// Numbers keep the kind they arrived with (`77` stays an `.int`, `1.72` a `.double`), and
/// objects keep their member order, so data reads back in the order its query asked for.
///
/// ```swift
/// let luke: CacheValue = ["__typename": "Human", "id": "1000", "height": 1.72]
/// luke["height"]                        // .double(1.72)
/// CacheValue.reference("Human:1000")    // {"$reference":"Human:1000"} in a record
/// ```
public enum CacheValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case list([CacheValue])
    case object(CacheObject)
    /// A link to the record with this key.
    case reference(String)

    /// The member named `key` of an object; `nil` for a missing member or a non-object.
    public subscript(key: String) -> CacheValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    /// Calls `body` with the key of every reference in the value: directly, in lists at
    /// any depth, and in objects kept inline (an embedded or paginated field's).
    public func forEachReference(_ body: (String) -> Void) {
        switch self {
        case .reference(let key): body(key)
        case .list(let items): for item in items { item.forEachReference(body) }
        case .object(let object): for value in object.values { value.forEachReference(body) }
        default: break
        }
    }

    /// The value's JSON as an error message shows it: cut short when long.
    var shortJSON: String {
        let text = JSON.string(self)
        return text.count <= 40 ? text : String(text.prefix(39)) + "…"
    }

    /// A short name of the value's kind for error messages: "an object", "a string", ...
    public var kindDescription: String { kind.description }
}

/// A JSON object whose members keep their order. Lookups scan the keys: response and
/// record objects are small, and a scan of short strings beats hashing them.
///
/// ```swift
/// var trip = CacheObject()
/// trip["id"] = "2"
/// trip["name"] = "Porto"
/// trip.keys          // ["id", "name"]
/// ```
public struct CacheObject: Equatable, Sendable {
    public private(set) var keys: [String] = []
    public private(set) var values: [CacheValue] = []

    public init() {}

    /// An empty object with room for `capacity` members.
    public init(capacity: Int) {
        keys.reserveCapacity(capacity)
        values.reserveCapacity(capacity)
    }

    /// An object of these members, whose keys the caller knows to be distinct.
    init(keys: [String], values: [CacheValue]) {
        self.keys = keys
        self.values = values
    }

    public init(_ members: KeyValuePairs<String, CacheValue>) {
        self.init(members: members.lazy.map { ($0, $1) })
    }

    /// An object of `members` in order; a later member with the same key replaces an
    /// earlier one. Linear in the members however many there are (``Builder``).
    public init<Members: Sequence>(members: Members) where Members.Element == (String, CacheValue) {
        var builder = Builder()
        for (key, value) in members { builder.set(key, value) }
        self = builder.object
    }

    public var count: Int { keys.count }
    public var isEmpty: Bool { keys.isEmpty }

    /// The value of `key`; setting `nil` removes the member, setting a new key appends it.
    public subscript(key: String) -> CacheValue? {
        get {
            for index in keys.indices where keys[index] == key { return values[index] }
            return nil
        }
        set {
            if let index = keys.firstIndex(of: key) {
                if let newValue { values[index] = newValue } else {
                    keys.remove(at: index)
                    values.remove(at: index)
                }
            } else if let newValue {
                keys.append(key)
                values.append(newValue)
            }
        }
    }

    /// The position of `key`, looked for at `hint` first: an object's members usually come
    /// in the order of the selection that asked for them, so a caller walking that
    /// selection passes one past the last position it found.
    @inlinable @inline(__always) func index(of key: String, from hint: Int) -> Int? {
        if hint < keys.count, keys[hint] == key { return hint }
        return keys.firstIndex(of: key)
    }

    /// The value of `key`, looked for at `hint` first (see ``index(of:from:)``).
    @inlinable @inline(__always) func value(of key: String, near hint: Int) -> CacheValue? {
        index(of: key, from: hint).map { values[$0] }
    }

    /// Appends a member without looking for an existing one: the caller knows `key` is new.
    mutating func appendNew(_ key: String, _ value: consuming CacheValue) {
        keys.append(key)
        values.append(value)
    }

    /// Gives the member at `index` a new value.
    mutating func replaceValue(at index: Int, with value: consuming CacheValue) {
        values[index] = value
    }

    /// The members in order.
    public var members: Zip2Sequence<[String], [CacheValue]> { zip(keys, values) }
}

extension CacheValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: CacheValue...) { self = .list(elements) }
    public init(dictionaryLiteral elements: (String, CacheValue)...) {
        self = .object(CacheObject(members: elements))
    }
}

/// Plain Swift values as cache values, for what is not a literal: a variable, a count.
///
/// ```swift
/// let variables: CacheObject = ["id": CacheValue(trip.id), "first": CacheValue(pageSize), "draft": CacheValue(isDraft)]
/// ```
extension CacheValue {
    public init(_ value: Int) { self = .int(Int64(value)) }
    public init(_ value: Double) { self = .double(value) }
    public init(_ value: String) { self = .string(value) }
    public init(_ value: Bool) { self = .bool(value) }
}

extension CacheObject: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, CacheValue)...) {
        self.init(members: elements)
    }
}
