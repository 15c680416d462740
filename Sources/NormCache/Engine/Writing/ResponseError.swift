/// A response that does not fit its operation, and where (`data.trips[3].name`).
public struct ResponseError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public let path: String

    public var description: String { "response does not fit the operation at \(path): \(message)" }
}
