/// Why data could not be decoded into a generated type: where (the path of response keys
/// and list indices from the data's root) and what was wrong.
///
/// ```swift
/// do { _ = try TripListQuery.Data(response: data) } catch {
///     error.description   // "trips.3.name: expected a string, found null"
/// }
/// ```
public struct ResponseDecodingError: Error, Equatable, CustomStringConvertible {
    /// Response keys and list indices from the root of the data to the value at fault.
    public var path: [String]
    public var problem: String

    public init(path: [String] = [], problem: String) {
        self.path = path
        self.problem = problem
    }

    /// A member the data does not have, where a value is required.
    public static let missing = ResponseDecodingError(problem: "missing")

    /// A value of the wrong kind: `expected` ("a string") and what was found.
    public static func mismatch(expected: String, found: some ResponseData) -> ResponseDecodingError {
        ResponseDecodingError(problem: "expected \(expected), found \(found.kindDescription)")
    }

    /// The same error one level further out, under `key`.
    public func inside(_ key: String) -> ResponseDecodingError {
        ResponseDecodingError(path: [key] + path, problem: problem)
    }

    public var description: String { path.isEmpty ? problem : path.joined(separator: ".") + ": " + problem }
}
