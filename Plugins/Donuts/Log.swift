import NormPluginKit

/// The log the donuts services share, through the host's logger (labelled with the plugin's
/// name); it lives in the plugin's environment. A failed action is logged at level error
/// and reaches the user as one line.
///
/// ```swift
/// let log = try environment.get(Log.self)
/// log.info("order 1 paid: $3.50")
/// try await log.failure(of: "payment") { try await payments.pay("1") }
/// // logs and throws "payment failed: order 1 is paid already"
/// ```
struct Log: Sendable {
    private let host: Host

    init(host: Host) { self.host = host }

    func info(_ message: String) { host.log(.info, message) }

    func error(_ message: String) { host.log(.error, message) }

    /// Runs `body`; when it fails, logs `"ACTION failed: MESSAGE"` at level error and throws
    /// that line.
    func failure<Value>(of action: String, _ body: () async throws -> Value) async throws -> Value {
        do {
            return try await body()
        } catch {
            let message = "\(action) failed: \(error)"
            self.error(message)
            throw PluginError(message)
        }
    }
}
