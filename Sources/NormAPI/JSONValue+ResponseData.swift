/// A ``JSONValue`` read as ``ResponseData``: a generated type decodes from the data
/// another one wrote, which is how a mutable selection set takes in a type case's changes
/// (``MutableSelectionSet/mutateIfFulfilled(_:_:)``).
///
/// ```swift
/// let trip = try TripHeader(response: TripHeader(id: "2", name: "Porto").jsonValue)
/// ```
extension JSONValue: ResponseData {
    public func member(_ key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    public var isNull: Bool { self == .null }

    public var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    public var intValue: Int? {
        if case .int(let int) = self { return int }
        return nil
    }

    public var doubleValue: Double? {
        switch self {
        case .double(let double): double
        case .int(let int): Double(int)
        default: nil
        }
    }

    public var boolValue: Bool? {
        if case .bool(let bool) = self { return bool }
        return nil
    }

    public var listValue: [JSONValue]? {
        if case .list(let items) = self { return items }
        return nil
    }

    public var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .int: "an integer"
        case .double: "a float"
        case .string: "a string"
        case .list: "a list"
        case .object: "an object"
        }
    }
}
