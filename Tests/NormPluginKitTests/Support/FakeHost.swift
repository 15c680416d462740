import NormPluginABI
import Foundation

/// A host written in Swift for the tests: its `nc_host_api` answers each reply-taking call
/// from another thread, after the call returned, with the reply set for that function, and
/// records every request, log line, state and cancel. The calls of a function it holds
/// answer only when cancelled, as the host does: `{"message": …, "cancelled": true}`.
final class FakeHost: @unchecked Sendable {
    typealias Reply = (ok: Bool, json: String)

    private let lock = NSLock()
    private var replies: [String: Reply] = [
        "run": (true, #"{"data":{"greeting":{"__typename":"Greeting","id":"1","text":"Hello, Ana!"}},"source":"network","missing":[]}"#),
        "watch": (true, #"{"id": 7}"#),
        "refetch": (true, #"{"refetched": [7]}"#),
        "read_record": (true, #"{"record": {"__typename": "Greeting", "id": "1", "text": "Hello, Ana!"}}"#),
        "write_record": (true, #"{"changed": ["Greeting:1.text"]}"#),
        "evict": (true, #"{"removed": ["Greeting:1.text"]}"#),
        "entity_key": (true, #"{"key": "Greeting:1"}"#),
    ]
    private var records: [String] = []
    private var held: Set<String> = []
    private var waiting: [(function: String, pending: Pending)] = []

    /// What the host got, in order: `run {...}`, `log warning message`, `state trips loading -`.
    var received: [String] { lock.withLock { records } }

    /// Makes `function` ("run", "watch", ...) answer with `reply` from now on.
    func reply(to function: String, with reply: Reply) {
        lock.withLock { replies[function] = reply }
    }

    /// Makes the calls of `function` wait until they are cancelled.
    func hold(_ function: String) {
        lock.withLock { _ = held.insert(function) }
    }

    /// The table a plugin gets. It keeps this host alive for good: a plugin's services may
    /// log from their deinit after the test that made them has ended (a failed test's
    /// plugin is torn down late), and must find the host, not freed memory.
    func api(abiVersion: UInt32 = UInt32(NC_PLUGIN_ABI_VERSION)) -> nc_host_api {
        nc_host_api(
            abi_version: abiVersion,
            host: Unmanaged.passRetained(self).toOpaque(),
            run: { host($0).answer("run", $1, $2, $3) },
            watch: { host($0).answer("watch", $1, $2, $3) },
            refetch: { host($0).answer("refetch", $1, $2, $3) },
            read_record: { host($0).answer("read_record", $1, $2, $3) },
            write_record: { host($0).answer("write_record", $1, $2, $3) },
            evict: { host($0).answer("evict", $1, $2, $3) },
            log: { host($0).record("log \(levelName($1)) \(String(cString: $2!))") },
            emit_state: { host($0).record("state \(String(cString: $1!)) \(String(cString: $2!)) \($3.map { String(cString: $0) } ?? "-")") },
            cancel: { host($0).cancel($1) },
            entity_key: { host($0).answer("entity_key", $1, $2, $3) }
        )
    }

    private func record(_ line: String) {
        lock.withLock { records.append(line) }
    }

    private func answer(_ function: String, _ request: UnsafePointer<CChar>?, _ reply: nc_reply_fn?, _ context: UnsafeMutableRawPointer?) {
        record("\(function) \(String(cString: request!))")
        let pending = Pending(reply: reply!, context: context)
        let answer = lock.withLock { () -> Reply? in
            guard !held.contains(function) else {
                waiting.append((function, pending))
                return nil
            }
            return replies[function]!
        }
        if let answer { pending.send(answer) }
    }

    /// Records `cancel FUNCTION` for the held call of `context` and answers it cancelled;
    /// `cancel -` when no call waits with that context.
    private func cancel(_ context: UnsafeMutableRawPointer?) {
        let cancelled = lock.withLock { () -> (function: String, pending: Pending)? in
            guard let index = waiting.firstIndex(where: { $0.pending.context == context }) else { return nil }
            return waiting.remove(at: index)
        }
        record("cancel \(cancelled?.function ?? "-")")
        cancelled?.pending.send((false, #"{"message": "the request was cancelled", "cancelled": true}"#))
    }

    /// A reply still to give, sent to another thread.
    private struct Pending: @unchecked Sendable {
        let reply: nc_reply_fn
        let context: UnsafeMutableRawPointer?

        func send(_ answer: Reply) {
            DispatchQueue.global().async {
                answer.json.withCString { reply(context, answer.ok ? 1 : 0, $0) }
            }
        }
    }
}

private func host(_ pointer: UnsafeMutableRawPointer?) -> FakeHost {
    Unmanaged<FakeHost>.fromOpaque(pointer!).takeUnretainedValue()
}

/// `warning` for NC_LOG_WARNING.
private func levelName(_ level: nc_log_level) -> String {
    ["trace", "debug", "info", "notice", "warning", "error", "critical"][Int(level.rawValue)]
}
