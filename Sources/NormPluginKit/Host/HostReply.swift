import NormPluginABI
import Synchronization

/// A host call awaited, and cancelled with the task that awaits it. The `reply_context`
/// handed to a host function is this object, retained until the host's one call of
/// ``callback`` (from any thread) takes it back and resumes the caller: with the reply's
/// JSON, a ``PluginError``, or `CancellationError` when the host says it cancelled the call.
/// When the awaiting task is cancelled, the host is asked to cancel the call
/// (`nc_host_api.cancel`), once the call has been made and only until its reply came.
final class HostReply: Sendable {
    private struct State {
        var continuation: CheckedContinuation<String, any Error>?
        var sent = false
        var cancelled = false
        var replied = false
    }

    private let state = Mutex(State())

    private init() {}

    private var context: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// Calls `send` with a reply context for ``callback`` and waits for the reply's JSON;
    /// `cancel` asks the host to cancel the call of that context.
    static func awaiting(_ send: (UnsafeMutableRawPointer) -> Void,
                         cancel: @Sendable (UnsafeMutableRawPointer) -> Void) async throws -> String {
        let reply = HostReply()  // held here until the reply: no other call can be given its address meanwhile
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                reply.state.withLock { $0.continuation = continuation }
                send(Unmanaged.passRetained(reply).toOpaque())
                // A cancel that came while the call was being made is sent now.
                if reply.state.withLock({ $0.sent = true; return $0.cancelled && !$0.replied }) { cancel(reply.context) }
            }
        } onCancel: {
            if reply.state.withLock({ $0.cancelled = true; return $0.sent && !$0.replied }) { cancel(reply.context) }
        }
    }

    /// The `nc_reply_fn` given with every host call.
    static let callback: nc_reply_fn = { context, ok, json in
        guard let context else { return }
        let reply = Unmanaged<HostReply>.fromOpaque(context).takeRetainedValue()
        let text = json.map { String(cString: $0) } ?? "null"
        let continuation = reply.state.withLock { state in
            state.replied = true
            defer { state.continuation = nil }
            return state.continuation
        }
        if ok != 0 {
            continuation?.resume(returning: text)
        } else {
            continuation?.resume(throwing: PluginError.failure(reply: text))
        }
    }
}
