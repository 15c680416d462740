import NormPluginABI

/// The `nc_reply_fn` and `reply_context` the host gave with one request: the request's task
/// answers through it exactly once, with a JSON result or a `{"message": "..."}` failure.
struct Replier: @unchecked Sendable {  // the ABI lets a reply come from any thread
    private let function: nc_reply_fn?
    private let context: UnsafeMutableRawPointer?

    init(_ function: nc_reply_fn?, _ context: UnsafeMutableRawPointer?) {
        self.function = function
        self.context = context
    }

    func succeed(_ json: String) { send(ok: 1, json) }

    func fail(_ error: any Error) { send(ok: 0, PluginError.json(error)) }

    private func send(ok: Int32, _ json: String) {
        json.withCString { function?(context, ok, $0) }
    }
}
