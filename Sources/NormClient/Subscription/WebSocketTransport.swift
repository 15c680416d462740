import Foundation
import NormCache

/// Subscriptions over one WebSocket connection, as Apollo iOS's `WebSocketTransport` runs
/// them: `graphql-transport-ws`, or `graphql-ws` when the server chooses it
/// (``GraphQLWebSocketProtocol``). The connection opens with the first subscription and
/// closes when the last one stops; subscriptions are numbered "1", "2", … on it.
///
/// A connection that drops while subscriptions run is opened again after
/// ``ReconnectBackoff``'s wait, and each of them is subscribed again with its id; each
/// subscription hears ``SubscriptionEvent/interrupted(_:)`` and then
/// ``SubscriptionEvent/resumed(_:)``. A server's `error` or `complete` ends one
/// subscription; a message the subprotocol does not have, or a close that says the client
/// is at fault (codes 4400–4499), ends them all with the reason.
///
/// ```swift
/// let transport = WebSocketTransport(url: URL(string: "ws://127.0.0.1:8000/graphql")!,
///                                    connector: URLSessionWebSocketConnector())
/// let events = try await transport.subscribe(GraphQLRequest(document: "subscription { tripRenamed { id name } }"))
/// ```
public actor WebSocketTransport: SubscriptionTransport {
    public nonisolated let url: URL
    public nonisolated var name: String { url.absoluteString }
    private let connector: any WebSocketConnector
    private let headers: [String: String]
    private let connectionPayload: CacheObject?
    private let backoff: ReconnectBackoff
    private let acknowledgementTimeout: Duration
    private let keepAlive: Duration?

    /// The open connection, once acknowledged.
    private var link: Link?
    /// The connection being opened, which every subscription that starts meanwhile waits for.
    private var opening: Task<Link, any Error>?
    /// The connections opened and not yet acknowledged, by generation.
    private var awaitingAcknowledgement: [Int: CheckedContinuation<Void, any Error>] = [:]
    private var reconnecting: Task<Void, Never>?
    private var subscribers: [String: Subscriber] = [:]
    private var lastID = 0
    private var generation = 0
    /// When the open connection last said anything.
    private var lastHeard = ContinuousClock.now
    /// Connections closed here for their silence, by generation: their drop says so.
    private var silenced: Set<Int> = []

    private struct Link {
        let connection: any WebSocketConnection
        let dialect: GraphQLWebSocketProtocol
        let generation: Int
    }

    private struct Subscriber {
        let payload: CacheValue
        let events: AsyncThrowingStream<SubscriptionEvent, any Error>.Continuation
        /// The connection it was subscribed on (its link's generation): one that dropped
        /// is subscribed again on the next.
        var generation: Int
    }

    /// A transport to `url` (ws: or wss:). `headers` go on the upgrade request,
    /// `connectionPayload` in `connection_init` (where servers read authentication);
    /// a server that has not sent `connection_ack` within `acknowledgementTimeout` is given up.
    /// A `graphql-transport-ws` connection silent for `keepAlive` is sent a `ping`, and one
    /// that answers nothing within `keepAlive` after it is taken for dropped (a half-open TCP connection says nothing)
    /// and reconnected; nil: never.
    public init(url: URL, connector: any WebSocketConnector, headers: [String: String] = [:], connectionPayload: CacheObject? = nil,
                backoff: ReconnectBackoff = ReconnectBackoff(), acknowledgementTimeout: Duration = .seconds(10),
                keepAlive: Duration? = .seconds(30)) {
        self.url = url
        self.connector = connector
        self.headers = headers
        self.connectionPayload = connectionPayload
        self.backoff = backoff
        self.acknowledgementTimeout = acknowledgementTimeout
        self.keepAlive = keepAlive
    }

    public func subscribe(_ request: GraphQLRequest) async throws(TransportError) -> AsyncThrowingStream<SubscriptionEvent, any Error> {
        let link = try await connected()
        lastID += 1
        let id = String(lastID)
        let (events, continuation) = AsyncThrowingStream<SubscriptionEvent, any Error>.makeStream()
        continuation.onTermination = { termination in
            guard case .cancelled = termination else { return }   // ended here: already forgotten
            Task { await self.stop(id) }
        }
        subscribers[id] = Subscriber(payload: request.body, events: continuation, generation: link.generation)
        do {
            try await link.connection.send(link.dialect.subscribe(id: id, request.body))
        } catch {
            subscribers[id] = nil
            throw error
        }
        return events
    }

    /// Ends every subscription (their sequences end) and closes the connection.
    public func close() async {
        for subscriber in subscribers.values { subscriber.events.finish() }
        subscribers = [:]
        await closeIdleConnection()
    }

    /// The number of subscriptions running.
    public var activeCount: Int { subscribers.count }

    /// The subprotocol of the open connection; nil when none is open.
    public var subprotocol: GraphQLWebSocketProtocol? { link?.dialect }

    // MARK: the connection

    private func connected() async throws(TransportError) -> Link {
        if let link { return link }
        let opening = self.opening ?? Task { try await self.open() }
        self.opening = opening
        // Only the opening awaited here is forgotten: a later one may have begun meanwhile.
        do {
            let link = try await opening.value
            if self.opening == opening { self.opening = nil }
            return link
        } catch {
            if self.opening == opening { self.opening = nil }
            throw error as? TransportError ?? .unreachable("\(error)")
        }
    }

    /// Connects, chooses the subprotocol the server answered with, and waits for `connection_ack`.
    private func open() async throws(TransportError) -> Link {
        let offered = GraphQLWebSocketProtocol.allCases.map(\.rawValue)
        let connection = try await connector.connect(to: url, subprotocols: offered, headers: headers)
        // A server that names no subprotocol gets today's, as Apollo iOS's default.
        let dialect: GraphQLWebSocketProtocol
        if let chosen = connection.subprotocol {
            guard let known = GraphQLWebSocketProtocol(rawValue: chosen) else {
                await connection.close(code: 1002)
                throw .invalidResponse("the WebSocket server at \(name) chose the subprotocol \"\(chosen)\", neither of the offered \(offered.joined(separator: " and "))")
            }
            dialect = known
        } else {
            dialect = .transportWS
        }
        generation += 1
        let link = Link(connection: connection, dialect: dialect, generation: generation)
        let timeout = acknowledgementTimeout
        let giveUp = Task {
            try? await Task.sleep(for: timeout)
            if !Task.isCancelled { self.acknowledgementTimedOut(link) }
        }
        defer { giveUp.cancel() }
        do {
            // Cancelled (Ctrl-C on `.subscribe`), it stops waiting at once.
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    awaitingAcknowledgement[link.generation] = continuation
                    Task { await self.read(link) }
                    Task {
                        do { try await connection.send(dialect.connectionInit(payload: self.connectionPayload)) }
                        catch { self.failAcknowledgement(of: link, error) }
                    }
                }
            } onCancel: {
                Task { await self.failAcknowledgement(of: link, TransportError.cancelled) }
            }
        } catch {
            await connection.close(code: 1000)
            throw error as? TransportError ?? .unreachable("\(error)")
        }
        self.link = link
        lastHeard = .now
        if let keepAlive, dialect == .transportWS { Task { await watchSilence(of: link, every: keepAlive) } }
        return link
    }

    /// While `link` is the open connection: a ping after `interval` of silence, and a drop
    /// when nothing was heard for `interval` after that ping (so never without one).
    private func watchSilence(of link: Link, every interval: Duration) async {
        var pinged: ContinuousClock.Instant?
        while self.link?.generation == link.generation {
            try? await Task.sleep(for: interval / 2)
            guard self.link?.generation == link.generation else { return }
            let now = ContinuousClock.now
            if let ping = pinged, lastHeard < ping {
                guard now - ping >= interval else { continue }
                silenced.insert(link.generation)
                return await link.connection.close(code: 1001)
            }
            pinged = nil
            if now - lastHeard >= interval {
                pinged = now
                try? await link.connection.send(link.dialect.ping)
            }
        }
    }

    private func acknowledgementTimedOut(_ link: Link) {
        failAcknowledgement(of: link, TransportError.invalidResponse(
            "no connection_ack from \(name) within \(acknowledgementTimeout) (\(link.dialect.rawValue)): does the server speak graphql-transport-ws or graphql-ws?"))
    }

    private func failAcknowledgement(of link: Link, _ error: any Error) {
        awaitingAcknowledgement.removeValue(forKey: link.generation)?.resume(throwing: error)
    }

    /// Reads `link`'s messages until it closes, then decides what its end means.
    private func read(_ link: Link) async {
        var violation: TransportError?
        do {
            for try await text in link.connection.messages {
                if self.link?.generation == link.generation { lastHeard = .now }
                do {
                    try await handle(try link.dialect.message(text), on: link)
                } catch {
                    violation = error
                    await link.connection.close(code: 4400)
                    break
                }
            }
        } catch {
            // The connection broke: its close reason says how.
        }
        await ended(link, violation: violation)
    }

    private func handle(_ message: GraphQLWebSocketProtocol.ServerMessage, on link: Link) async throws(TransportError) {
        switch message {
        case .connectionAck:
            awaitingAcknowledgement.removeValue(forKey: link.generation)?.resume()
        case .ping:
            // A connection that breaks meanwhile is a drop, which the read loop hears: no violation.
            try? await link.connection.send(link.dialect.pong)
        case .keepAlive:
            break
        case .next(let id, let payload):
            subscribers[id]?.events.yield(.next(TransportResponse(payload)))   // a late event of a stopped one: dropped
        case .error(let id, let message):
            subscribers.removeValue(forKey: id)?.events.finish(throwing: TransportError.subscription(message))
            if subscribers.isEmpty { await closeIdleConnection() }
        case .complete(let id):
            subscribers.removeValue(forKey: id)?.events.finish()
            if subscribers.isEmpty { await closeIdleConnection() }
        case .connectionError(let message):
            throw .subscription("the server refused the connection: \(message)")
        }
    }

    /// `link` closed: before its acknowledgement, opening fails; after, a violation or a
    /// close for the client's fault ends every subscription, and any other drop reconnects.
    private func ended(_ link: Link, violation: TransportError?) async {
        let how = silenced.remove(link.generation) != nil ? "no answer to a ping within \(keepAlive.map { "\($0)" } ?? "long")"
            : link.connection.closeReason ?? "closed"
        if awaitingAcknowledgement[link.generation] != nil {
            failAcknowledgement(of: link, violation ?? TransportError.connectionLost("\(name) closed the connection before connection_ack (\(how))"))
            return
        }
        guard self.link?.generation == link.generation else { return }   // closed here on purpose
        self.link = nil
        await link.connection.close(code: 1000)   // lets go of what the connection holds (a URLSession)
        if let violation {
            endAll(violation)
        } else if let code = link.connection.closeCode, (4400..<4500).contains(code) {
            endAll(.subscription("\(name) closed the connection: \(how)"))
        } else if !subscribers.isEmpty {
            reconnect(after: how)
        }
    }

    private func endAll(_ error: TransportError) {
        for subscriber in subscribers.values { subscriber.events.finish(throwing: error) }
        subscribers = [:]
    }

    private func reconnect(after reason: String) {
        reconnecting?.cancel()
        reconnecting = Task {
            var reason = reason
            var attempt = 0
            while !subscribers.isEmpty, !Task.isCancelled {
                attempt += 1
                let delay = backoff.delay(beforeAttempt: attempt)
                tell(subscribers.keys.filter { subscribers[$0]?.generation != self.link?.generation },
                     .interrupted("the connection to \(name) dropped (\(reason)); reconnecting in \(delay) (attempt \(attempt))"))
                try? await Task.sleep(for: delay)
                guard !subscribers.isEmpty, !Task.isCancelled else { return }
                do throws(TransportError) {
                    let link = try await connected()
                    if subscribers.isEmpty { return await closeIdleConnection() }   // all stopped while it opened
                    // Those subscribed meanwhile, on this connection, are not sent twice; one
                    // stopped during a send is not sent again.
                    let dropped = subscribers.filter { $0.value.generation != link.generation }.sorted { Int($0.key) ?? 0 < Int($1.key) ?? 0 }
                    for (id, subscriber) in dropped where subscribers[id] != nil {
                        subscribers[id]?.generation = link.generation
                        try await link.connection.send(link.dialect.subscribe(id: id, subscriber.payload))
                    }
                    tell(dropped.map(\.key), .resumed("reconnected to \(name) (\(link.dialect.rawValue)) after \(attempt) attempt\(attempt == 1 ? "" : "s"); subscribed again"))
                    return
                } catch .http(let status, let body) {
                    // The server is there and refuses: trying again would be refused again.
                    return endAll(.http(status: status, body: body))
                } catch .invalidResponse(let message) {
                    return endAll(.invalidResponse(message))
                } catch {
                    reason = "\(error)"
                }
            }
        }
    }

    private func tell(_ ids: some Sequence<String>, _ event: SubscriptionEvent) {
        for id in ids { subscribers[id]?.events.yield(event) }
    }

    /// The caller stopped iterating subscription `id`: the server hears `complete` (`stop`),
    /// and the connection closes when it was the last.
    private func stop(_ id: String) async {
        guard subscribers.removeValue(forKey: id) != nil else { return }
        if let link { try? await link.connection.send(link.dialect.stop(id: id)) }
        if subscribers.isEmpty { await closeIdleConnection() }
    }

    private func closeIdleConnection() async {
        reconnecting?.cancel()
        reconnecting = nil
        guard let link else { return }
        self.link = nil
        await link.connection.close(code: 1000)
    }
}
