import Foundation
import NormCache
import NormClient
import TestSupport
import Testing

/// An in-memory ``Transport`` for the client's tests: it answers from a response set per
/// operation name or from a handler closure, records every request it receives, can hold
/// requests at a gate until the test releases them, and honours task cancellation (a
/// cancelled request throws ``TransportError/cancelled`` and is counted in ``cancelled``).
///
/// ```swift
/// let fake = FakeTransport()
/// fake.respond(to: "TripList", with: ["data": ["trips": []]])
/// fake.hold()                                       // requests now wait at the gate
/// let task = Task { try await client.fetch(tripList, from: fake) }
/// #expect(await fake.waitUntil { $0.waiting == 1 })
/// fake.release()                                    // every waiting request goes on
/// ```
final class FakeTransport: Transport, @unchecked Sendable {
    typealias Handler = @Sendable (GraphQLRequest) async throws(TransportError) -> CacheValue

    let name: String
    private let lock = NSLock()
    private var responses: [String: Result<CacheValue, TransportError>] = [:]
    private var handler: Handler?
    private var _requests: [GraphQLRequest] = []
    private var _answered: [GraphQLRequest] = []
    private var _cancelled: [GraphQLRequest] = []
    private var gate: FakeTransportGate?

    /// The endpoint's schema knowledge, as a plugin's manifest gives it.
    let schemaKnowledge: SchemaKnowledge?

    init(name: String = "fake", handler: Handler? = nil, schema: SchemaKnowledge? = nil) {
        self.name = name
        self.handler = handler
        self.schemaKnowledge = schema
    }

    // MARK: configuration

    /// Answers requests for `operationName` (nil: anonymous operations) with `response`.
    func respond(to operationName: String?, with response: CacheValue) {
        lock.withLock { responses[operationName ?? ""] = .success(response) }
    }

    /// Makes requests for `operationName` fail with `error`.
    func fail(_ operationName: String?, with error: TransportError) {
        lock.withLock { responses[operationName ?? ""] = .failure(error) }
    }

    /// Answers every request with `handler` (takes precedence over per-name responses).
    func setHandler(_ handler: Handler?) { lock.withLock { self.handler = handler } }

    /// From now on, requests wait at a closed gate until ``release()``.
    func hold() { lock.withLock { gate = FakeTransportGate() } }

    /// Opens the gate: waiting requests go on, later ones pass at once.
    func release() {
        let gate = lock.withLock { () -> FakeTransportGate? in
            defer { self.gate = nil }
            return self.gate
        }
        gate?.open()
    }

    // MARK: what the transport saw

    /// Every request received, oldest first (including those still waiting or cancelled).
    var requests: [GraphQLRequest] { lock.withLock { _requests } }
    var requestCount: Int { lock.withLock { _requests.count } }
    /// Requests that got an answer (a response or a configured failure).
    var answered: [GraphQLRequest] { lock.withLock { _answered } }
    /// Requests that ended because their task was cancelled.
    var cancelled: [GraphQLRequest] { lock.withLock { _cancelled } }
    /// Requests waiting at the gate now.
    var waiting: Int { lock.withLock { gate }?.waiting ?? 0 }

    /// Polls `condition` (every 2 ms) until it holds or `timeout` passes; true if it held.
    /// For waiting on a state the code under test reaches, never for ordering by time.
    func waitUntil(timeout: Duration = .seconds(5), _ condition: (FakeTransport) -> Bool) async -> Bool {
        await Poll.until(timeout: timeout) { condition(self) }
    }

    // MARK: Transport

    /// Records the request, waits at the gate if one is closed, then answers with the
    /// handler or the response set for the operation at that moment (so a test can change
    /// the answer while a request is held).
    func send(_ request: GraphQLRequest) async throws(TransportError) -> CacheValue {
        let gate = lock.withLock { () -> FakeTransportGate? in
            _requests.append(request)
            return self.gate
        }
        do {
            if let gate { try await gate.pass() }
            try Task.checkCancellation()
        } catch {
            lock.withLock { _cancelled.append(request) }
            throw .cancelled
        }
        let (handler, canned) = lock.withLock { (self.handler, responses[request.operationName ?? ""]) }
        let outcome: Result<CacheValue, TransportError>
        if let handler {
            do throws(TransportError) { outcome = .success(try await handler(request)) } catch { outcome = .failure(error) }
        } else {
            outcome = canned ?? .failure(.invalidResponse("FakeTransport has no response for \(request.operationName ?? "an anonymous operation")"))
        }
        if Task.isCancelled || outcome == .failure(.cancelled) {
            lock.withLock { _cancelled.append(request) }
            throw .cancelled
        }
        lock.withLock { _answered.append(request) }
        return try outcome.get()
    }

    func schema() async throws(TransportError) -> String {
        "type Query { trips: [Trip!]! trip(id: ID!): Trip } type Trip { id: ID! name: String! }"
    }
}

/// A gate requests wait at until it opens; a waiting task that is cancelled leaves at once
/// with `CancellationError`.
final class FakeTransportGate: @unchecked Sendable {
    private let lock = NSLock()
    private var isOpen = false
    private var next = 0
    private var waiters: [Int: CheckedContinuation<Void, any Error>] = [:]

    var waiting: Int { lock.withLock { waiters.count } }

    func pass() async throws {
        let id = lock.withLock { () -> Int in
            next += 1
            return next
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                lock.withLock {
                    if isOpen {
                        continuation.resume()
                    } else if Task.isCancelled {
                        continuation.resume(throwing: CancellationError())
                    } else {
                        waiters[id] = continuation
                    }
                }
            }
        } onCancel: {
            lock.withLock { waiters.removeValue(forKey: id) }?.resume(throwing: CancellationError())
        }
    }

    func open() {
        let waiting = lock.withLock { () -> [CheckedContinuation<Void, any Error>] in
            isOpen = true
            defer { waiters = [:] }
            return Array(waiters.values)
        }
        for continuation in waiting { continuation.resume() }
    }
}

/// A value shared between a test and the callbacks it installs.
final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var _value: Value

    init(_ value: Value) { _value = value }

    var value: Value { lock.withLock { _value } }

    func update<R>(_ body: (inout Value) -> R) -> R { lock.withLock { body(&_value) } }
}

/// Helpers shared by the client's suites.
enum ClientTesting {
    /// Runs a fetch in its own task and gives its outcome as a value. `started` counts up
    /// just before the task calls the client (from there the client reaches its in-flight
    /// table without suspending), `finished` when the fetch has returned or thrown.
    static func startFetch(_ client: Client, _ operation: CompiledOperation, variables: CacheObject = CacheObject(),
                           policy: FetchPolicy = .cacheFirst, optimistic: CacheObject? = nil, from transport: any Transport,
                           started: LockedBox<Int>? = nil, finished: LockedBox<Int>? = nil) -> Task<Result<ClientResult, ClientError>, Never> {
        Task {
            started?.update { $0 += 1 }
            defer { finished?.update { $0 += 1 } }
            do throws(ClientError) {
                return .success(try await client.fetch(operation, variables: variables, policy: policy, optimistic: optimistic, from: transport))
            } catch {
                return .failure(error)
            }
        }
    }

    /// Waits until `started` reaches `count`, then gives the started tasks a moment to
    /// reach the client's in-flight table. The client offers no way to observe a caller
    /// joining a shared request, so this is the one place the suites rely on a short pause;
    /// the path from `started` to the table is synchronous code, microseconds long.
    static func letJoin(_ started: LockedBox<Int>, count: Int) async -> Bool {
        guard await Poll.until({ started.value >= count }) else { return false }
        for _ in 0..<20 { await Task.yield() }
        try? await Task.sleep(for: .milliseconds(50))
        return true
    }

    /// `{ trips { id name } }`'s response for these trips (id → name), with `__typename`s
    /// as a server answering the network document sends them.
    static func tripsResponse(_ trips: [(String, String)]) -> CacheValue {
        ["data": ["trips": .list(trips.map { trip(id: $0.0, name: $0.1) })]]
    }

    static func trip(id: String, name: String) -> CacheValue {
        ["__typename": "Trip", "id": .string(id), "name": .string(name)]
    }

    /// The data object of `{ trips { id name } }`, for writing into a cache directly.
    static func tripsData(_ trips: [(String, String)]) -> CacheObject {
        ["trips": .list(trips.map { trip(id: $0.0, name: $0.1) })]
    }

    static let tripList = "query TripList { trips { id name } }"
    static let tripDetail = "query Trip($id: ID!) { trip(id: $id) { id name } }"
    static let rename = "mutation Rename($id: ID!, $name: String!) { renameTrip(id: $id, name: $name) { id name } }"

    /// A handler answering `Trip` from `names` (id → name) and `Rename` by echoing its variables.
    static func tripServer(_ names: [String: String]) -> FakeTransport.Handler {
        { request throws(TransportError) in
            switch request.operationName {
            case "Trip":
                guard case .string(let id)? = request.variables["id"], let name = names[id] else { return ["data": ["trip": nil]] }
                return ["data": ["trip": trip(id: id, name: name)]]
            case "TripList":
                return tripsResponse(names.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
            case "Rename":
                guard case .string(let id)? = request.variables["id"], case .string(let name)? = request.variables["name"] else {
                    throw .invalidResponse("Rename without id and name")
                }
                return ["data": ["renameTrip": trip(id: id, name: name)]]
            default:
                throw .invalidResponse("no operation \(request.operationName ?? "anonymous")")
            }
        }
    }
}

/// Collects a watch's events for assertions.
final class WatchEvents: @unchecked Sendable {
    enum Entry: Equatable {
        case emission(number: Int, cause: ChangeCause, data: CacheValue?, missing: [String])
        case incomplete(cause: ChangeCause, missing: [String])
        case failure(ClientError)
        case unheard(cause: ChangeCause, changed: [String])

        var isFailure: Bool {
            if case .failure = self { return true }
            return false
        }
    }

    private let lock = NSLock()
    private var _entries: [Entry] = []

    var entries: [Entry] { lock.withLock { _entries } }
    var count: Int { lock.withLock { _entries.count } }

    var emissions: [(number: Int, cause: ChangeCause, data: CacheValue?, missing: [String])] {
        entries.compactMap {
            if case .emission(let number, let cause, let data, let missing) = $0 { return (number, cause, data, missing) }
            return nil
        }
    }

    var causes: [ChangeCause] { emissions.map(\.cause) }
    var failures: [ClientError] {
        entries.compactMap {
            if case .failure(let error) = $0 { return error }
            return nil
        }
    }

    /// The callback to hand to `client.watch(…, onEvent:)`.
    var callback: @Sendable (ClientWatch, ClientWatch.Event) -> Void {
        { [self] _, event in
            let entry: Entry = switch event {
            case .emission(let number, let emission):
                .emission(number: number, cause: emission.cause, data: emission.result.data, missing: emission.result.missing)
            case .incomplete(let emission): .incomplete(cause: emission.cause, missing: emission.result.missing)
            case .failure(let error): .failure(error)
            case .unheard(let emission): .unheard(cause: emission.cause, changed: emission.changed)
            }
            lock.withLock { _entries.append(entry) }
        }
    }
}
