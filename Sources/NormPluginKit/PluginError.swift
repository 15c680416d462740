/// A failure with a message a user can read: what a plugin's resolvers and commands throw,
/// what the kit throws when the host answers a call with `ok = 0`, and what reaches the host
/// as `{"message": "..."}` (or in a GraphQL response's `errors`).
///
/// ```swift
/// guard let trip = trips[id] else { throw PluginError("no trip with id \(id)") }
/// ```
public struct PluginError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

extension PluginError {
    /// The error of a failed host call: `CancellationError` for a reply that says
    /// `"cancelled": true`, else the reply's `{"message": "..."}` (or its raw text).
    static func failure(reply json: String) -> any Error {
        guard let failure = try? CodableJSON.decode(Failure.self, from: json) else { return PluginError(json) }
        return failure.cancelled == true ? CancellationError() : PluginError(failure.message)
    }

    /// `{"message": "..."}` for any error, with the error's description as the message.
    static func json(_ error: any Error) -> String {
        // A struct of one string always encodes.
        try! CodableJSON.encode(Failure(message: String(describing: error), cancelled: nil))
    }

    private struct Failure: Codable {
        let message: String
        let cancelled: Bool?
    }
}
