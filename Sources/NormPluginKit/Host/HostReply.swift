import CCore

/// A host call awaited: the `reply_context` handed to a host function is a retained box of
/// the caller's continuation, and the host's one call of ``callback`` (from any thread)
/// takes it back and resumes the caller, with the reply's JSON or a ``PluginError``.
final class HostReply: Sendable {
    private let continuation: CheckedContinuation<String, any Error>

    private init(_ continuation: CheckedContinuation<String, any Error>) {
        self.continuation = continuation
    }

    /// Calls `send` with a reply context for ``callback`` and waits for the reply's JSON.
    static func awaiting(_ send: (UnsafeMutableRawPointer) -> Void) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            send(Unmanaged.passRetained(HostReply(continuation)).toOpaque())
        }
    }

    /// The `nc_reply_fn` given with every host call.
    static let callback: nc_reply_fn = { context, ok, json in
        guard let context else { return }
        let reply = Unmanaged<HostReply>.fromOpaque(context).takeRetainedValue()
        let text = json.map { String(cString: $0) } ?? "null"
        if ok != 0 {
            reply.continuation.resume(returning: text)
        } else {
            reply.continuation.resume(throwing: PluginError(reply: text))
        }
    }
}
