import NormAPI

/// The engine's values are what generated types decode from (``ResponseData``), and what
/// their variables and optimistic data become (`CacheValue(json)`).
///
/// ```swift
/// let data = try cache.read(operation).data!             // a CacheValue
/// let trips = try TripListQuery.Data(response: data).trips
/// let variables = CacheValue(TripDetailQuery(id: "2").__variables)   // {"id": "2"}
/// ```
extension CacheValue: ResponseData {
    @inlinable
    public func member(_ key: String) -> CacheValue? { self[key] }

    @inlinable
    public func member(_ key: String, near hint: Int) -> CacheValue? {
        if case .object(let object) = self { return object.value(of: key, near: hint) }
        return nil
    }

    @inlinable
    public var isNull: Bool { self == .null }

    @inlinable
    public var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    @inlinable
    public var intValue: Int? {
        if case .int(let int) = self { return Int(exactly: int) }
        return nil
    }

    @inlinable
    public var doubleValue: Double? {
        switch self {
        case .double(let double): double
        case .int(let int): Double(int)
        default: nil
        }
    }

    @inlinable
    public var boolValue: Bool? {
        if case .bool(let bool) = self { return bool }
        return nil
    }

    @inlinable
    public var listValue: [CacheValue]? {
        if case .list(let items) = self { return items }
        return nil
    }

    /// The engine's value of a generated type's variables or data.
    public init(_ json: JSONValue) {
        switch json {
        case .null: self = .null
        case .bool(let bool): self = .bool(bool)
        case .int(let int): self = .int(Int64(int))
        case .double(let double): self = .double(double)
        case .string(let string): self = .string(string)
        case .list(let items): self = .list(items.map(CacheValue.init))
        case .object(let members): self = .object(CacheObject(members: members.lazy.map { ($0.key, CacheValue($0.value)) }))
        }
    }
}
