import Foundation

/// A normalized GraphQL cache: responses are split into records keyed `Type:id`, reads
/// put them back together, and watchers hear of every change that alters their result.
///
/// Thread-safe: every call takes the cache's lock, so a read always sees whole commits.
/// Watcher callbacks run after the lock is released, in commit order, one at a time; a
/// callback may call the cache (what it causes is delivered after it returns). They run on
/// the writer's thread before its write returns, so they must be quick (NormClient's
/// watchers deliver to their callbacks off the writer).
///
/// ```swift
/// let cache = NormalizedCache()
/// let trips = try cache.operation("{ trips { id name } }")
/// try cache.write(data: ["trips": [["__typename": "Trip", "id": "1", "name": "Lisbon"]]], for: trips)
/// try cache.record("Trip:1")                 // ["__typename": "Trip", "id": "1", "name": "Lisbon"]
/// let watch = try cache.watch(trips) { print($0.cause, $0.result.data ?? nil) }
/// try cache.write(record: "Trip:1", fields: ["name": "Porto"])   // the watcher emits: write
/// ```
public final class NormalizedCache: @unchecked Sendable {
    private let lock = NSRecursiveLock()
    /// Emissions waiting for delivery, and whether a thread is delivering them (guarded by `lock`).
    private var pending: [WatchDelivery] = []
    private var delivering = false
    /// Told of every commit that changed something (guarded by `lock`); see ``monitor(_:)``.
    private var monitor: (@Sendable (Commit) -> Void)?
    let state: EngineState

    /// A cache over `store` (nil: memory only). Opening reads nothing: a record's fields
    /// load from the store the first time a read or a write reaches it, and what needs
    /// every record (``gc(retaining:)``, ``extract()``, ``clear()``) loads them all.
    /// ``keys(matching:)`` reads the store's keys alone.
    public init(store: RecordStore?) throws(CacheError) {
        state = try EngineState(store: store)
    }

    /// A cache in memory only. It does not throw: with no store, the one thing that can
    /// fail is allocating its key tables, and running out of memory stops the process, as
    /// it does for Swift's own allocations.
    ///
    /// ```swift
    /// let cache = NormalizedCache()
    /// ```
    public convenience init() {
        do { try self.init(store: nil) } catch { preconditionFailure("a memory-only cache could not be made: \(error)") }
    }

    // MARK: configuration

    /// How objects become records; changes apply to later writes.
    public var typePolicies: TypePolicies {
        get { locked { state.schema.policies } }
        set { locked { state.schema.policies = newValue } }
    }

    /// Whose answers reads and writes give where Apollo iOS and Apollo Client differ
    /// (``Semantics``; Apollo iOS's by default); changes apply to later reads and writes.
    public var semantics: Semantics {
        get { locked { state.schema.semantics } }
        set { locked { state.schema.semantics = newValue } }
    }

    /// What the cache knows of interfaces and unions, from a schema or from responses.
    public var possibleTypes: PossibleTypes {
        get { locked { state.schema.possibleTypes } }
        set { locked { state.schema.possibleTypes = newValue } }
    }

    /// Warnings from writes since the last call (objects without key fields, records
    /// that changed type), oldest first.
    package func takeWarnings() -> [String] {
        locked {
            defer { state.warnings = [] }
            return state.warnings
        }
    }

    /// Adds a warning about a write that its caller found (a response's `Cache-Control`
    /// header that does not parse), for ``takeWarnings()`` to hand over with the others.
    package func warn(_ warning: String) {
        locked { state.warnings.append(warning) }
    }

    // MARK: operations

    /// The compiled plan of `document` (its operation `name` if it holds several),
    /// compiled once per process (``CompiledOperations``); its field ids are interned
    /// into this cache the first time it meets it.
    public func operation(_ document: String, name: String? = nil) throws(CacheError) -> CompiledOperation {
        let operation: CompiledOperation
        do { operation = try CompiledOperations.operation(document, name: name) } catch { throw .operation(error) }
        return try lockedThrowing { () throws(CacheError) in
            _ = try state.keys.staticFieldIDs(operation)
            return operation
        }
    }

    /// `variables` as `operation` runs with them: GraphQL's input coercion to the
    /// declared types (``VariableCoercion``), checked against what the endpoint's schema
    /// (`schema`), else this cache, knows of enums and input objects. Every read, write and
    /// watch does this first; a client does it before sending, so the server gets the
    /// values the keys hold, and a value the schema refuses is never sent.
    ///
    /// ```swift
    /// let op = try cache.operation("query ($first: Int!) { trips(first: $first) { id } }")
    /// try cache.coerceVariables(["first": 3.0], for: op)   // ["first": 3]
    /// try cache.coerceVariables([:], for: op)              // throws: $first: missing; the operation requires $first: Int!
    /// try cache.coerceVariables(["frist": 3], for: op)     // throws: $frist: not declared by the operation (it declares $first: Int!)
    /// ```
    public func coerceVariables(_ variables: CacheObject, for operation: CompiledOperation, schema: SchemaKnowledge? = nil) throws(CacheError) -> CacheObject {
        if operation.variables.isEmpty && variables.isEmpty { return CacheObject() }
        return try lockedThrowing { () throws(CacheError) in
            try state.withSchema(schema) { () throws(CacheError) in try coerced(variables, for: operation) }
        }
    }

    /// `value` as `operation`'s variable `name` takes it, checked as ``coerceVariables(_:for:schema:)``
    /// checks each variable; for a value meant for several operations (the workbench's
    /// `.vars`), checked before any of them runs. An undeclared `name` is refused.
    ///
    /// ```swift
    /// let hero = try cache.operation("query Hero($episode: Episode) { hero(episode: $episode) { name } }")
    /// try cache.coerceVariable("episode", "JEDI", for: hero, schema: starWars)    // "JEDI"
    /// try cache.coerceVariable("episode", "JEDIX", for: hero, schema: starWars)
    /// // throws: $episode: "JEDIX" is not a value of Episode (NEWHOPE, EMPIRE, JEDI)
    /// ```
    package func coerceVariable(_ name: String, _ value: CacheValue, for operation: CompiledOperation,
                               schema: SchemaKnowledge? = nil) throws(CacheError) -> CacheValue {
        guard let variable = operation.variables.first(where: { $0.name == name }) else {
            throw .variable(VariableCoercion.undeclared(name, among: operation.variables))
        }
        return try lockedThrowing { () throws(CacheError) in
            try state.withSchema(schema) { () throws(CacheError) in
                do throws(VariableError) { return try VariableCoercion.coerce(value, as: variable, schema: state.schema.declaredTypes) }
                catch { throw .variable(error) }
            }
        }
    }

    /// `variables` coerced with the knowledge of the call in progress (the lock held).
    func coerced(_ variables: CacheObject, for operation: CompiledOperation) throws(CacheError) -> CacheObject {
        if operation.variables.isEmpty && variables.isEmpty { return CacheObject() }
        do throws(VariableError) { return try VariableCoercion.coerce(variables, for: operation.variables, schema: state.schema.declaredTypes) }
        catch { throw .variable(error) }
    }

    /// `Trip:2.name` for each record field, sorted.
    func names(_ pairs: Set<RecordField>) -> [String] { locked { pairs.map(state.keys.name).sorted() } }

    /// Runs several writes, evictions and reads as one commit: one change set, one round
    /// of notifications; if `body` throws, nothing it did remains.
    /// The error `body` throws is rethrown as it is.
    public func transaction<R>(_ body: (NormalizedCache) throws -> R) throws -> R {
        var thrown: (any Error)?
        do {
            return try emitting { () throws(CacheError) in
                let outermost = !state.log.explicitTransaction
                state.log.explicitTransaction = true
                // Cleared under the lock: another thread's commit must not see this flag.
                defer { if outermost { state.log.explicitTransaction = false } }
                return try committed(cause: .write, origin: .command("transaction", target: nil)) { () throws(CacheError) in
                    do { return try body(self) } catch let error as CacheError { throw error } catch {
                        thrown = error
                        throw .invalid("\(error)")
                    }
                }
            }
        } catch { throw thrown ?? error }
    }

    // MARK: commits and their emissions

    /// How many commits have ended (the last one's number, as ``WatchEmission/commit`` and
    /// the history and the journal number them).
    public var commitCount: Int { locked { state.log.number } }

    /// Runs `body` as one commit (inside another, as part of it), then delivers the
    /// emissions it caused.
    func commit<R>(cause: ChangeCause, origin: HistoryStamp.Origin, checkedFirst: Bool = false,
                   _ body: () throws(CacheError) -> R) throws(CacheError) -> R {
        try emitting { () throws(CacheError) in try committed(cause: cause, origin: origin, checkedFirst: checkedFirst, body) }
    }

    /// `body` as one commit, with the lock held, the commit reported to the monitor once
    /// it is done (an outermost one); returns the emissions it caused. `writesThrough`:
    /// false for a commit of what the store holds already (``reload(_:file:)``).
    func committed<R>(cause: ChangeCause, origin: HistoryStamp.Origin, checkedFirst: Bool = false, writesThrough: Bool = true,
                      _ body: () throws(CacheError) -> R) throws(CacheError) -> (R, [WatchDelivery]) {
        let (result, deliveries) = try state.commit(cause: cause, origin: origin, checkedFirst: checkedFirst, writesThrough: writesThrough, body)
        if state.log.transactionDepth == 0 { reportCommit() }
        return (result, deliveries)
    }

    /// Calls `observer` after every commit that changed a field, before the watchers it
    /// reached emit, with the cache's lock held (so commits are reported in order; the
    /// observer must not call the cache). `nil` stops monitoring.
    package func monitor(_ observer: (@Sendable (Commit) -> Void)?) { locked { monitor = observer } }

    /// Tells the monitor, if there is one, what the last commit changed (lock held).
    private func reportCommit() {
        guard let monitor, !state.log.lastCommit.isEmpty else { return }
        let fields = state.log.lastCommit.changedFields
        let reached = state.journal.latest?.reached ?? []
        let unreached = state.watchers.unreached(touching: Set(fields.map(\.record)), reached: reached).map { id, records in
            Commit.Unreached(id: id, operation: state.watchers.watcher(id)?.operation.name, records: records.map(state.keys.recordKey))
        }
        monitor(Commit(cause: state.log.lastCommit.cause, changed: fields.map(state.keys.name).sorted(), watchers: reached, unreached: unreached))
    }

    /// Runs `body` with the lock held and queues the emissions it returns, in commit order;
    /// then, with the lock released, hands `announce` the result and delivers the queue.
    func emitting<R>(announcing announce: (R) -> Void = { _ in }, _ body: () throws(CacheError) -> (R, [WatchDelivery])) throws(CacheError) -> R {
        let result = try lockedThrowing { () throws(CacheError) -> R in
            let (result, deliveries) = try body()
            pending += deliveries
            return result
        }
        announce(result)
        deliverPending()
        return result
    }

    /// Runs the queued callbacks, one at a time and without the lock, until the queue is
    /// empty, unless another thread (or an outer call on this one: a callback, or a
    /// transaction's body) is delivering already; that one delivers these too, in order.
    private func deliverPending() {
        let delivers = locked {
            guard !delivering, state.log.transactionDepth == 0 else { return false }
            delivering = true
            return true
        }
        guard delivers else { return }
        while true {
            let batch = locked {
                defer { pending = [] }
                if pending.isEmpty { delivering = false }
                return pending
            }
            if batch.isEmpty { return }
            for delivery in batch { delivery.callback(delivery.emission) }
        }
    }

    func locked<R>(_ body: () -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    func lockedThrowing<R>(_ body: () throws(CacheError) -> R) throws(CacheError) -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// Runs `body` with the cache's lock held, so that nothing else uses the store's
    /// connection meanwhile: for a call on the store from outside the engine (`.check`)
    /// while a ``StoreFollower`` may poll it from another thread.
    ///
    /// ```swift
    /// let findings = try cache.usingStore { try store.integrityCheck() }
    /// ```
    package func usingStore<R>(_ body: () throws -> R) throws -> R {
        try locked { Result { try body() } }.get()
    }
}
