import NormAPI

/// A host reply's data (a `Map`) as generated types read it: what
/// ``Host/fetch(_:policy:)`` decodes an operation's `Data` from. An integer is not a
/// string, and a float with a fraction is not an integer; a whole float is one, as JSON
/// makes no difference between `150` and `150.0` (and a `Map` decoded from the host's
/// reply holds every number as a float).
///
/// ```swift
/// let data = try TripListQuery.Data(response: ReplyData(reply["data"]))
/// ```
struct ReplyData: ResponseData {
    let map: Map

    init(_ map: Map) { self.map = map }

    func member(_ key: String) -> ReplyData? {
        guard case .dictionary(let members) = map, let value = members[key] else { return nil }
        return ReplyData(value)
    }

    var isNull: Bool { map == .null || map == .undefined }

    var stringValue: String? {
        if case .string(let string) = map { return string }
        return nil
    }

    var intValue: Int? {
        guard case .number(let number) = map, number.storageType != .bool else { return nil }
        return number.storageType == .double ? Int(exactly: number.doubleValue) : number.intValue
    }

    var doubleValue: Double? {
        guard case .number(let number) = map, number.storageType != .bool else { return nil }
        return number.doubleValue
    }

    var boolValue: Bool? {
        switch map {
        case .bool(let bool): bool
        case .number(let number) where number.storageType == .bool: number.boolValue
        default: nil
        }
    }

    var listValue: [ReplyData]? {
        if case .array(let items) = map { return items.map(ReplyData.init) }
        return nil
    }

    var kindDescription: String {
        switch map {
        case .undefined, .null: "null"
        case .bool: "a boolean"
        case .number(let number): number.storageType == .bool ? "a boolean" : intValue == nil ? "a float" : "an integer"
        case .string: "a string"
        case .array: "a list"
        case .dictionary: "an object"
        }
    }
}

extension Map {
    /// The `Map` of a generated type's variables or data.
    init(_ json: JSONValue) {
        switch json {
        case .null: self = .null
        case .bool(let bool): self = .bool(bool)
        case .int(let int): self = .number(Number(int))
        case .double(let double): self = .number(Number(double))
        case .string(let string): self = .string(string)
        case .list(let items): self = .array(items.map(Map.init))
        case .object(let members):
            var object: Map = [:]
            for member in members { object[member.key] = Map(member.value) }
            self = object
        }
    }
}
