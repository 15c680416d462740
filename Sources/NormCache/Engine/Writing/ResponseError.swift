/// A response that does not fit its operation, and where (`data.trips[3].name`).
///
/// ```swift
/// try cache.write(data: ["trips": [["__typename": "Trip", "id": "1"]]], for: tripsWithNames)
/// // throws .response: response does not fit the operation at data.trips[0].name: missing field "name"
/// ```
public struct ResponseError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public let path: String

    public var description: String { "response does not fit the operation at \(path): \(message)" }
}
