import NormPluginABI
import Foundation
import Synchronization
import NormCache
import NormClient

/// The two directions of the ABI's `nc_reply_fn`: awaiting a plugin's reply in Swift, and
/// answering a plugin's call to a host function.
enum CReply {
    typealias Function = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, nc_reply_fn?, UnsafeMutableRawPointer?) -> Void

    /// Calls `function(context, request, reply, box)` and waits for its reply, for at most
    /// `timeout`. The call runs on a thread of its own, so a plugin that never returns
    /// blocks none of the tasks' threads. A cancelled caller stops waiting at once
    /// (answered `.cancelled`), a reply that does not come in time is answered `.timedOut`;
    /// either way the plugin's late reply is dropped. `inside` counts the calls that have
    /// not returned from the plugin yet.
    static func call(_ function: Function, context: UnsafeMutableRawPointer?, request: CacheValue, timeout: Duration,
                     inside: Calls) async -> Outcome {
        nonisolated(unsafe) let context = context
        let text = JSON.string(request)
        return await outcome(timeout: timeout, inside: inside) { box in
            nonisolated(unsafe) let retained = Unmanaged.passRetained(box).toOpaque()
            text.withCString { function(context, $0, receive, retained) }
            return nil   // the plugin replies through `receive`
        }
    }

    /// Calls a plugin function that answers by returning (the ABI's `lifecycle`) as
    /// ``call(_:context:request:timeout:inside:)`` calls one that replies: `.ok(null)` once
    /// it returns, `.timedOut` or `.cancelled` if that comes first.
    static func call(returning function: @escaping @Sendable () -> Void, timeout: Duration, inside: Calls) async -> Outcome {
        await outcome(timeout: timeout, inside: inside) { _ in
            function()
            return .ok(returned)
        }
    }

    /// The reply of a function that answers by returning: `null`.
    private static let returned = try! JSONText(bytes: Array("null".utf8))   // valid JSON: cannot throw

    /// Runs `body` (a call into a plugin) on a thread of its own and waits for the outcome,
    /// for at most `timeout`: the one `body` returns, once the call is no longer counted
    /// `inside` the plugin, or (nil) the one the plugin's reply finishes its box with.
    private static func outcome(timeout: Duration, inside: Calls, _ body: @escaping @Sendable (Box) -> Outcome?) async -> Outcome {
        let box = Box()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                guard box.wait(with: continuation) else { return }
                DispatchQueue.global().asyncAfter(deadline: .now() + timeout.timeInterval) { [weak box] in box?.finish(.timedOut) }
                inside.count.add(1, ordering: .relaxed)
                // A thread of its own, not Dispatch's: its few threads would all end up
                // blocked by plugins that hang, and every later call would wait behind them.
                Thread.detachNewThread {
                    let returned = body(box)
                    inside.count.subtract(1, ordering: .relaxed)
                    if let returned { box.finish(returned) }
                }
            }
        } onCancel: {
            box.finish(.cancelled)
        }
    }

    /// How many calls are inside a plugin: made, and not returned yet.
    final class Calls: Sendable {
        let count = Atomic<Int>(0)
        var inside: Int { count.load(ordering: .relaxed) }
    }

    /// What a plugin answered.
    enum Outcome: Sendable {
        /// The reply's JSON text, read once: an `execute` reply is written into the cache from it.
        case ok(JSONText)
        /// The plugin's own message (`ok = 0`).
        case failed(String)
        /// A reply `ok = 1` that is not JSON: what is wrong with it.
        case malformed(String)
        case cancelled
        case timedOut
    }

    /// Where one reply lands: resumes its waiter once, whatever comes first.
    private final class Box: @unchecked Sendable {
        private let lock = NSLock()
        private var continuation: CheckedContinuation<Outcome, Never>?
        private var early: Outcome?

        /// Keeps the continuation; false if the call was cancelled before it started.
        func wait(with continuation: CheckedContinuation<Outcome, Never>) -> Bool {
            lock.withLock {
                if let early {
                    continuation.resume(returning: early)
                    return false
                }
                self.continuation = continuation
                return true
            }
        }

        func finish(_ outcome: Outcome) {
            lock.withLock {
                guard let continuation else {
                    if early == nil { early = outcome }
                    return
                }
                self.continuation = nil
                early = outcome
                continuation.resume(returning: outcome)
            }
        }
    }

    /// The `nc_reply_fn` handed to plugins: reads the JSON and releases the box.
    private static let receive: nc_reply_fn = { context, ok, json in
        guard let context else { return }
        let box = Unmanaged<Box>.fromOpaque(context).takeRetainedValue()
        var text = json.map { String(cString: $0) } ?? "null"   // ill-formed UTF-8 repaired, as ever
        guard ok != 0 else { return box.finish(.failed(message(in: text))) }
        do { box.finish(.ok(try text.withUTF8 { bytes throws(JSONError) in try JSONText(bytes: Array(bytes)) })) } catch {
            box.finish(.malformed("\(error)"))
        }
    }

    /// The `message` of an error reply, or the reply itself when it has none.
    static func message(in text: String) -> String {
        if case .string(let message)? = (try? JSON.parse(text))?["message"] { return message }
        return text.isEmpty ? "failed without a message" : text
    }

    /// Answers a plugin's call: `ok` with `value`, or not with `{"message": …}`, plus
    /// `"cancelled": true` when the call failed because the plugin cancelled it.
    static func answer(_ reply: nc_reply_fn?, _ context: UnsafeMutableRawPointer?, _ result: Result<CacheValue, any Error>,
                       cancelled: Bool = false) {
        guard let reply else { return }
        switch result {
        case .success(let value): JSON.string(value).withCString { reply(context, 1, $0) }
        case .failure(let error):
            var failure: CacheObject = ["message": .string("\(error)")]
            if cancelled { failure["cancelled"] = .bool(true) }
            JSON.string(.object(failure)).withCString { reply(context, 0, $0) }
        }
    }
}
