import NormPluginKit

/// The log the donuts services share, through the host's logger (labelled with the plugin's
/// name); it lives in the plugin's environment. A failed action is not logged: it is thrown
/// as one line, which the command that ran it shows the user once.
///
/// ```swift
/// let log = try environment.get(Log.self)
/// log.info("order 1 paid: $3.50")
/// try await log.failure(of: "payment") { try await payments.pay("1") }
/// // throws "payment failed: order 1 is paid already"
/// ```
struct Log: Sendable {
    private let host: Host

    init(host: Host) { self.host = host }

    func info(_ message: String) { host.log(.info, message) }

    /// Runs `body`; when it fails, throws the line `"ACTION failed: MESSAGE"`.
    func failure<Value>(of action: String, _ body: () async throws -> Value) async throws -> Value {
        do {
            return try await body()
        } catch {
            throw PluginError("\(action) failed: \(error)")
        }
    }
}
