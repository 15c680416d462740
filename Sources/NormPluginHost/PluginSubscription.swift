import NormPluginABI
import Foundation
import NormCache
import NormClient

/// One subscription running in a plugin (the ABI's `subscribe`): the `event_context` the
/// plugin names it by, and the stream its events go into. The stream ends when the plugin
/// completes or fails the subscription; when its reader stops (the stream is cancelled or
/// released), the plugin is told to `unsubscribe`. It lives until its stream ends, so the
/// `event_context` stays valid as long as the plugin may call back with it.
///
/// ```swift
/// let subscription = PluginSubscription(pluginName: "trips") { context in unsubscribe(pluginContext, context) }
/// subscribe(pluginContext, request, PluginSubscription.receive, subscription.eventContext)
/// for try await event in subscription.events { … }
/// ```
final class PluginSubscription: @unchecked Sendable {
    let events: AsyncThrowingStream<SubscriptionEvent, any Error>
    private let continuation: AsyncThrowingStream<SubscriptionEvent, any Error>.Continuation
    private let pluginName: String
    private let unsubscribe: @Sendable (UnsafeMutableRawPointer) -> Void
    /// Whether the plugin's `subscribe` has returned, and whether its caller stopped
    /// waiting for it first (timed out, cancelled).
    private let lock = NSLock()
    private var (returned, abandoned) = (false, false)

    /// `unsubscribe` stops the subscription in the plugin; `ended` hears that the stream ended.
    init(pluginName: String, unsubscribe: @escaping @Sendable (UnsafeMutableRawPointer) -> Void,
         ended: @escaping @Sendable (PluginSubscription) -> Void) {
        (events, continuation) = AsyncThrowingStream<SubscriptionEvent, any Error>.makeStream()
        self.pluginName = pluginName
        self.unsubscribe = unsubscribe
        // Holds the subscription until the stream ends: the plugin may call back until then.
        continuation.onTermination = { [self] termination in
            if case .cancelled = termination { unsubscribe(eventContext) }
            ended(self)
        }
    }

    /// What the plugin is given as `event_context`.
    var eventContext: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// The plugin's `subscribe` returned: a subscription abandoned meanwhile is stopped now.
    func started() {
        if lock.withLock({ returned = true; return abandoned }) { end(throwing: .cancelled) }
    }

    /// Its caller stopped waiting for the plugin's `subscribe`: the subscription is stopped
    /// once that returns (at once, if it has).
    func abandon() {
        if lock.withLock({ abandoned = true; return returned }) { end(throwing: .cancelled) }
    }

    /// Stops the subscription in the plugin, then ends the stream with `error`.
    func end(throwing error: TransportError) {
        unsubscribe(eventContext)
        continuation.finish(throwing: error)
    }

    /// The `nc_event_fn` handed to plugins.
    static let receive: nc_event_fn = { context, kind, json in
        guard let context else { return }
        Unmanaged<PluginSubscription>.fromOpaque(context).takeUnretainedValue().receive(kind, json.map { String(cString: $0) })
    }

    private func receive(_ kind: Int32, _ json: String?) {
        switch UInt32(bitPattern: kind) {
        case NC_EVENT_NEXT.rawValue:
            do throws(JSONError) {
                let response = try JSONText(bytes: Array((json ?? "null").utf8))
                guard response.isObject else { return violated("\(pluginName) sent a subscription event that is \(response.kindDescription), not a GraphQL response object") }
                continuation.yield(.next(TransportResponse(json: response)))
            } catch {
                violated("\(pluginName) sent a subscription event that is malformed JSON: \(error)")
            }
        case NC_EVENT_COMPLETE.rawValue: continuation.finish()
        case NC_EVENT_ERROR.rawValue: continuation.finish(throwing: TransportError.subscription("\(pluginName): " + CReply.message(in: json ?? "")))
        default: violated("\(pluginName) sent a subscription event of unknown kind \(kind)")
        }
    }

    /// Ends the stream with `message`, and stops the subscription in the plugin: not from
    /// inside its `event` (the ABI says so), and holding the subscription until it returns.
    private func violated(_ message: String) {
        continuation.finish(throwing: TransportError.plugin(message))
        DispatchQueue.global().async { [self] in unsubscribe(eventContext) }
    }
}
