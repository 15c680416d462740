import Foundation
import NormCache

/// Network conditions laid over every transport of a session: offline, latency, failing
/// the next N requests, and a log of every request with its outcome and duration. A
/// subscription's start is a request here; its events, once it runs, are not.
///
/// ```swift
/// let network = SimulatedNetwork()
/// network.latency = .milliseconds(200)
/// network.failNext(1)
/// let response = try await network.send(request, over: transport)   // throws .injectedFailure
/// network.log.last?.status                                            // "error"
/// ```
public final class SimulatedNetwork: @unchecked Sendable {
    private let lock = NSLock()
    private var _isOffline = false
    private var _latency: Duration = .zero
    private var failuresToInject = 0
    private var entries: [NetworkEvent] = []
    private var observers: [@Sendable (NetworkEvent) -> Void] = []

    public init() {}

    /// While offline every request fails at once with ``TransportError/offline``.
    public var isOffline: Bool {
        get { lock.withLock { _isOffline } }
        set { lock.withLock { _isOffline = newValue } }
    }

    /// Added before each request reaches its transport.
    public var latency: Duration {
        get { lock.withLock { _latency } }
        set { lock.withLock { _latency = newValue } }
    }

    /// Makes the next `count` requests fail with ``TransportError/injectedFailure``.
    public func failNext(_ count: Int) { lock.withLock { failuresToInject = max(0, count) } }

    /// Requests still to fail on purpose.
    public var pendingFailures: Int { lock.withLock { failuresToInject } }

    /// Every request since the session began, oldest first.
    public var log: [NetworkEvent] { lock.withLock { entries } }

    /// How many requests were sent (or refused by the conditions) since the session began.
    public var requestCount: Int { lock.withLock { entries.count } }

    /// Calls `observer` with each request's event as it completes.
    public func observe(_ observer: @escaping @Sendable (NetworkEvent) -> Void) { lock.withLock { observers.append(observer) } }

    /// Sends `request` over `transport` under the current conditions, and logs it; the
    /// response is as the transport handed it over (``Transport/response(to:)``).
    public func send(_ request: GraphQLRequest, over transport: any Transport) async throws(TransportError) -> TransportResponse {
        try await logged(request, to: transport.name) { () async throws(TransportError) in try await transport.response(to: request) }
    }

    /// Starts subscription `request` on `transport` under the current conditions, and logs
    /// its start as a request (until the server acknowledged it): offline it is refused,
    /// the latency delays it, an injected failure fails it. Its events then come as the
    /// transport delivers them.
    package func subscribe(_ request: GraphQLRequest, over transport: any SubscriptionTransport)
        async throws(TransportError) -> AsyncThrowingStream<SubscriptionEvent, any Error> {
        try await logged(request, to: transport.name) { () async throws(TransportError) in try await transport.subscribe(request) }
    }

    /// Runs `reach` (the request reaching its endpoint) under the current conditions, and logs it.
    private func logged<Answer>(_ request: GraphQLRequest, to endpoint: String,
                                _ reach: () async throws(TransportError) -> Answer) async throws(TransportError) -> Answer {
        let start = ContinuousClock.now
        do {
            let answer = try await conditioned(reach)
            record(request, endpoint, status: "ok", since: start, message: nil)
            return answer
        } catch {
            record(request, endpoint, status: error.status, since: start, message: error.description)
            throw error
        }
    }

    private func conditioned<Answer>(_ reach: () async throws(TransportError) -> Answer) async throws(TransportError) -> Answer {
        let (offline, latency, fail) = lock.withLock { () -> (Bool, Duration, Bool) in
            let fail = !_isOffline && failuresToInject > 0
            if fail { failuresToInject -= 1 }
            return (_isOffline, _latency, fail)
        }
        if offline { throw .offline }
        if latency > .zero {
            do { try await Task.sleep(for: latency) } catch { throw .cancelled }
        }
        if Task.isCancelled { throw .cancelled }
        if fail { throw .injectedFailure }
        return try await reach()
    }

    private func record(_ request: GraphQLRequest, _ endpoint: String, status: String, since start: ContinuousClock.Instant, message: String?) {
        let elapsed = ContinuousClock.now - start
        let milliseconds = Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
        let event = NetworkEvent(endpoint: endpoint, operation: request.operationName, status: status,
                                 milliseconds: milliseconds, message: message)
        let observers = lock.withLock {
            entries.append(event)
            return self.observers
        }
        for observer in observers { observer(event) }
    }
}

/// One request as the network saw it: the `network` event of the workbench.
///
/// ```swift
/// NetworkEvent(endpoint: "trips", operation: "TripList", status: "ok", milliseconds: 3, message: nil)
/// ```
public struct NetworkEvent: Sendable, Equatable {
    /// The transport's name: a plugin's name or a URL.
    public let endpoint: String
    /// The operation's name, nil for an anonymous one.
    public let operation: String?
    /// "ok", "error", "offline" or "cancelled".
    public let status: String
    public let milliseconds: Int
    /// What went wrong, for a request that did not succeed.
    public let message: String?
}
