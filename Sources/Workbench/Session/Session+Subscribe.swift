import Foundation
import NormCache
import NormClient
import NormPluginHost

/// `.subscribe`, `.unsubscribe`, `.subscriptions` and `.wait`: GraphQL subscriptions over
/// WebSocket (or multipart HTTP) to the current HTTP endpoint, or in the current plugin
/// (``Subscriptions``). Each event is written into
/// the cache by the client (cause `subscription`) and printed as it arrives.
extension Session {
    /// Starts subscription `operation` with `given` variables, else the `.vars` it declares,
    /// and returns once the server has acknowledged the connection (a plugin's endpoint:
    /// once the plugin has it).
    func subscribe(_ operation: CompiledOperation, variables given: CacheObject?) throws {
        guard operation.kind == .subscription else {
            throw CommandError("\(operation.name ?? "the operation") is a \(operation.kind.rawValue): .subscribe starts subscriptions (.run or .watch for this one)")
        }
        let (subscription, transport, spoken) = if let plugin = endpoint as? PluginEndpoint {
            try subscribe(operation, variables: given, over: plugin)
        } else {
            try subscribeOverHTTP(operation, variables: given)
        }
        subscriptions.start(subscription, on: transport, printer: printer) { running in
            printer.emit(.subscribed(id: running.id, operation: operation.name, url: transport.name, subprotocol: spoken))
        }
    }

    /// A subscription on a plugin's endpoint, which runs it in the plugin (protocol "plugin").
    private func subscribe(_ operation: CompiledOperation, variables given: CacheObject?, over plugin: PluginEndpoint)
        throws -> (ClientSubscription, any SubscriptionTransport, String?) {
        let variables = try variables(given, for: operation)
        let client = self.client
        return (try wait { try await client.subscribe(operation, variables: variables, over: plugin) }, plugin, "plugin")
    }

    /// A subscription over WebSocket to the current HTTP endpoint, or over multipart HTTP
    /// when the server refuses WebSocket there; and the protocol it speaks.
    private func subscribeOverHTTP(_ operation: CompiledOperation, variables given: CacheObject?)
        throws -> (ClientSubscription, any SubscriptionTransport, String?) {
        let (webSocket, http) = try subscriptionTransports()
        let variables = try variables(given, for: operation)
        let client = self.client
        let subscription: ClientSubscription
        var transport: any SubscriptionTransport = webSocket
        do {
            subscription = try wait { try await client.subscribe(operation, variables: variables, over: webSocket) }
        } catch ClientError.transport(.http(let status, _), _) where status != 0 {
            // The server answers HTTP but refuses WebSocket there: Apollo Router's multipart subscriptions.
            transport = http
            subscription = try wait { try await client.subscribe(operation, variables: variables, over: http) }
        }
        let webSocketProtocol = try wait { [transport] in await (transport as? WebSocketTransport)?.subprotocol }
        let spoken = transport is WebSocketTransport ? webSocketProtocol?.rawValue : "multipart HTTP (subscriptionSpec=1.0)"
        return (subscription, transport, spoken)
    }

    /// The WebSocket transport to the current endpoint (its URL with ws: for http:, wss:
    /// for https:, its headers on the upgrade request), and the endpoint itself, for
    /// multipart HTTP subscriptions when the server refuses WebSocket.
    private func subscriptionTransports() throws -> (webSocket: WebSocketTransport, http: HTTPTransport) {
        guard let http = endpoint as? HTTPTransport else {
            let which = endpoint.map { "the endpoint \($0.name) runs no subscriptions" } ?? "no endpoint"
            throw CommandError("\(which): subscriptions run over WebSocket to an HTTP endpoint (.endpoint URL) or in a plugin (.use NAME)")
        }
        var parts = URLComponents(url: http.url, resolvingAgainstBaseURL: false)
        parts?.scheme = http.url.scheme?.lowercased() == "https" ? "wss" : "ws"
        guard let url = parts?.url else { throw CommandError("\(http.url) has no WebSocket form") }
        let headers = Dictionary(http.headers.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
        return (subscriptions.transport(to: url, connector: app.webSocketConnector, headers: headers), http)
    }

    /// `.unsubscribe ID|all`: the server hears `complete` (`stop`) for each.
    func unsubscribe(_ word: String) throws {
        let stopping: [Subscriptions.Running]
        if word == "all" {
            stopping = subscriptions.active
        } else {
            guard let id = Int(word), let running = subscriptions.subscription(id), running.ended == nil else {
                throw CommandError("no subscription \"\(word)\" running (.subscriptions lists them)")
            }
            stopping = [running]
        }
        for running in stopping { running.stop(because: "stopped (.unsubscribe)") }
        try wait { for running in stopping { await running.ended() } }
    }

    /// `.wait ID N`: until subscription `ID` has printed `N` events in all, or has ended,
    /// for up to the session's timeout. An end before `N` events is what it waited for
    /// (its `unsubscribed` event says why), unless the subscription failed: then, and when
    /// the time runs out, it fails saying how many came.
    func waitForEvents(_ word: String, count: Int) throws {
        guard let id = Int(word), let running = subscriptions.subscription(id) else {
            throw CommandError("no subscription \"\(word)\" (.subscriptions lists them)")
        }
        let deadline = ContinuousClock.now + app.timeout
        try wait {
            while running.events < count, running.ended == nil, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(5))
            }
        }
        if running.events >= count { return }
        guard let end = running.ended else {
            throw CommandError("subscription \(id) has had \(running.events) of \(count) events: waited \(app.timeout) (.timeout)")
        }
        if end.failed { throw CommandError("subscription \(id) failed after \(running.events) of \(count) events: \(end.reason)") }
    }

    /// Stops every subscription (the session's cache moved to another store: its events
    /// must not reach the next user's), saying which.
    func stopSubscriptions() {
        let stopping = subscriptions.active
        for running in stopping { running.stop(because: "stopped: the session's cache moved to another store") }
        if !stopping.isEmpty { _ = try? wait { for running in stopping { await running.ended() } } }
    }
}
