import Foundation

/// A normalized GraphQL cache: responses are split into records keyed `Type:id`, reads
/// put them back together, and watchers hear of every change that alters their result.
///
/// Thread-safe: every call takes the cache's lock, so a read always sees whole commits.
/// Watcher callbacks run after the lock is released, in commit order, one at a time; a
/// callback may call the cache (what it causes is delivered after it returns).
///
/// ```swift
/// let cache = try NormalizedCache()
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
    /// Reads that found every field, and reads that did not (guarded by `lock`).
    private var hits = 0, misses = 0
    /// Told of every commit that changed something (guarded by `lock`); see ``monitor(_:)``.
    private var monitor: (@Sendable (Commit) -> Void)?
    private let state: EngineState

    /// A cache over `store`, loading every record it holds (nil: memory only).
    /// References to records the store does not hold load as they are (a read reports
    /// them missing) and are named in ``takeWarnings()``.
    public init(store: RecordStore? = nil) throws(CacheError) {
        state = try EngineState(store: store)
        guard let store else { return }
        let records: [Record]
        do { records = try store.loadAll() } catch { throw .storage("\(error)") }
        // Every record key at once, into a table made big enough first: the batch entry
        // overlaps their table lookups, and the table does not grow on the way.
        state.recordKeys.reserve(records.count)
        let ids: [KeyID]
        do { ids = try state.recordKeys.intern(records.map(\.key)) } catch { throw .key(error) }
        for (record, id) in zip(records, ids) {
            for (key, value) in record.fields.members { state.base.set(id.rawValue, try state.fieldID(key), try state.stored(value)) }
        }
        warnAboutDanglingReferences(in: ids)
    }

    /// Names references of the loaded `records` to records the store does not hold
    /// (loading interned every reference, so they are ids by now).
    private func warnAboutDanglingReferences(in records: [KeyID]) {
        let shown = 10
        var dangling = 0
        for record in records {
            guard let stored = state.base[record.rawValue] else { continue }
            for (field, value) in zip(stored.fieldIDs, stored.values) {
                value.forEachReference { target in
                    guard !state.base.exists(target) else { return }
                    dangling += 1
                    if dangling <= shown {
                        state.warnings.append("\(state.recordKey(record.rawValue)).\(state.fieldKey(field)) refers to \(state.recordKey(target)), which the store does not hold")
                    }
                }
            }
        }
        if dangling > shown { state.warnings.append("\(dangling - shown) more references to records the store does not hold") }
    }

    // MARK: configuration

    /// How objects become records; changes apply to later writes.
    public var typePolicies: TypePolicies {
        get { locked { state.policies } }
        set { locked { state.policies = newValue } }
    }

    /// What the cache knows of interfaces and unions, from a schema or from responses.
    public var possibleTypes: PossibleTypes {
        get { locked { state.possibleTypes } }
        set { locked { state.possibleTypes = newValue } }
    }

    /// Warnings from writes since the last call (objects without key fields, records
    /// that changed type), oldest first.
    public func takeWarnings() -> [String] {
        locked {
            defer { state.warnings = [] }
            return state.warnings
        }
    }

    // MARK: operations

    /// The compiled plan of `document` (its operation `name` if it holds several),
    /// compiled once per process (``CompiledOperations``); its field ids are interned
    /// into this cache the first time it meets it.
    public func operation(_ document: String, name: String? = nil) throws(CacheError) -> Operation {
        let operation: Operation
        do { operation = try CompiledOperations.operation(document, name: name) } catch { throw .operation(error) }
        return try lockedThrowing { () throws(CacheError) in
            _ = try state.staticFieldIDs(operation)
            return operation
        }
    }

    /// `variables` as `operation` runs with them: GraphQL's input coercion to the
    /// declared types (``VariableCoercion``), with what the endpoint's schema (`schema`),
    /// else this cache, knows of input objects. Every read, write and watch does this
    /// first; a client does it before sending, so the server gets the values the keys hold.
    ///
    /// ```swift
    /// let op = try cache.operation("query ($first: Int!) { trips(first: $first) { id } }")
    /// try cache.coerceVariables(["first": 3.0], for: op)   // ["first": 3]
    /// try cache.coerceVariables([:], for: op)              // throws: variable $first of type Int! was not given
    /// ```
    public func coerceVariables(_ variables: CacheObject, for operation: Operation, schema: SchemaKnowledge? = nil) throws(CacheError) -> CacheObject {
        if operation.variables.isEmpty { return CacheObject() }
        return try lockedThrowing { () throws(CacheError) in
            try state.withSchema(schema) { () throws(CacheError) in try coerced(variables, for: operation) }
        }
    }

    /// `variables` coerced with the knowledge of the call in progress (the lock held).
    private func coerced(_ variables: CacheObject, for operation: Operation) throws(CacheError) -> CacheObject {
        if operation.variables.isEmpty { return CacheObject() }
        do throws(VariableError) { return try VariableCoercion.coerce(variables, for: operation.variables, schema: state.declaredTypes) }
        catch { throw .variable(error) }
    }

    // MARK: writing

    /// Writes a GraphQL response (`{"data": …, "errors": […]}`) for `operation`. With
    /// errors present, fields missing from the data are skipped instead of refused.
    /// `schema` is the knowledge of the endpoint that sent it. Returns what changed.
    @discardableResult
    public func write(response: CacheValue, for operation: Operation, variables: CacheObject = CacheObject(),
                      schema: SchemaKnowledge? = nil, cause: ChangeCause = .write) throws(CacheError) -> Changes {
        guard case .object(let object) = response else {
            throw .invalid("a response must be a JSON object, not \(response.kindDescription)")
        }
        let hasErrors: Bool
        switch object["errors"] {
        case nil, .null?: hasErrors = false
        case .list(let errors)?: hasErrors = !errors.isEmpty
        case let other?: throw .invalid("a response's \"errors\" must be a list, not \(other.kindDescription)")
        }
        switch object["data"] {
        case .object(let data)?: return try write(data: data, for: operation, variables: variables, schema: schema, partial: hasErrors, cause: cause)
        case nil, .null?: return Changes(changes: ChangeSet(), cache: self)
        case let other?: throw .invalid("a response's \"data\" must be an object, not \(other.kindDescription)")
        }
    }

    /// Writes `data` (the response's `data` object) for `operation`, from the endpoint
    /// whose knowledge is `schema`.
    @discardableResult
    public func write(data: CacheObject, for operation: Operation, variables: CacheObject = CacheObject(),
                      schema: SchemaKnowledge? = nil, partial: Bool = false, cause: ChangeCause = .write) throws(CacheError) -> Changes {
        try commit(cause: cause, checkedFirst: true) { () throws(CacheError) in
            try normalize(data, for: operation, variables: variables, schema: schema, partial: partial, layer: nil)
        }
    }

    /// Sets fields of one record directly (the workbench's `.write KEY JSON`); a
    /// `{"$reference": K}` value links to record K.
    @discardableResult
    public func write(record key: String, fields: CacheObject) throws(CacheError) -> Changes {
        try commit(cause: .write) { () throws(CacheError) in
            let record = try state.recordID(key)
            for (field, value) in fields.members { state.setField(record, try state.fieldID(field), try state.stored(value)) }
            return changedNames()
        }
    }

    private func normalize(_ data: CacheObject, for operation: Operation, variables: CacheObject, schema: SchemaKnowledge?,
                           partial: Bool, layer: String?) throws(CacheError) -> Changes {
        try state.withSchema(schema) { () throws(CacheError) in
            var normalizer = try Normalizer(state: state, operation: operation, variables: try coerced(variables, for: operation), partial: partial)
            try normalizer.normalize(data, rootKey: operation.kind.rootKey)
            normalizer.apply(layer: layer)
            return changedNames()
        }
    }

    private func changedNames() -> Changes { Changes(changes: state.changes, cache: self) }

    /// `Trip:2.name` for each packed pair, sorted.
    func names(_ pairs: Set<UInt64>) -> [String] { locked { pairs.map(state.name).sorted() } }

    /// Runs several writes, evictions and reads as one commit: one change set, one round
    /// of notifications; if `body` throws, nothing it did remains.
    /// The error `body` throws is rethrown as it is.
    public func transaction<R>(_ body: (NormalizedCache) throws -> R) throws -> R {
        lock.lock()
        var deliveries: [WatchDelivery] = []
        let result: R
        let outermost = !state.explicitTransaction
        state.explicitTransaction = true
        var thrown: (any Error)?
        do {
            (result, deliveries) = try state.commit(cause: .write) { () throws(CacheError) in
                do { return try body(self) } catch let error as CacheError { throw error } catch {
                    thrown = error
                    throw .invalid("\(error)")
                }
            }
        } catch {
            if outermost { state.explicitTransaction = false }
            lock.unlock()
            throw thrown ?? error
        }
        // Still under the lock: another thread's commit must not see this flag.
        if outermost { state.explicitTransaction = false }
        reportCommit()
        deliver(deliveries)
        return result
    }

    // MARK: reading

    /// Reads `operation` from the cache, with the knowledge of the endpoint it runs
    /// against (`schema`). Incomplete reads have `data == nil` unless `partial` is true.
    public func read(_ operation: Operation, variables: CacheObject = CacheObject(), schema: SchemaKnowledge? = nil,
                     partial: Bool = false) throws(CacheError) -> ReadResult {
        try lockedThrowing { () throws(CacheError) in
            let result = try state.withSchema(schema) { () throws(CacheError) in
                try Reader.read(operation, variables: try coerced(variables, for: operation), partial: partial, state: state)
            }
            if result.complete { hits += 1 } else { misses += 1 }
            return result
        }
    }

    /// A record's fields, keyed by field key (references as `.reference`), layers applied;
    /// `nil` if there is no such record.
    public func record(_ key: String) -> CacheObject? {
        locked {
            guard let id = state.recordKeys.find(key), state.recordExists(id.rawValue) else { return nil }
            return state.visibleObject(id.rawValue)
        }
    }

    /// Every record key, sorted; with `pattern`, only the keys that match that glob
    /// (`*` any run, `?` one character), e.g. `Trip:*`.
    public func keys(matching pattern: String? = nil) -> [String] {
        // Filter first, then sort only the matches.
        let keys = locked { allRecordIDs(sorted: false).map(state.recordKey) }
        return (pattern.map { pattern in keys.filter { Glob.matches(pattern, $0) } } ?? keys).sorted()
    }

    /// Keys of the records that reference `key`.
    public func referrers(of key: String) -> [String] {
        locked {
            guard let target = state.recordKeys.find(key)?.rawValue else { return [] }
            return allRecordIDs().compactMap { id -> String? in
                var refers = false
                for (_, value) in state.visibleFields(id) { value.forEachReference { refers = refers || $0 == target } }
                return refers ? state.recordKey(id) : nil
            }.sorted()
        }
    }

    /// `Trip:2.name` for a dependency.
    public func name(of ref: FieldRef) -> String { locked { state.name(ref.packed) } }

    /// How many records are visible; cheaper than ``statistics``, which measures them all.
    public var recordCount: Int { locked { allRecordIDs(sorted: false).count } }

    /// How much the cache holds, and how many reads hit or missed.
    public var statistics: CacheStatistics {
        locked {
            let ids = allRecordIDs()
            var fields = 0, bytes = 0
            for id in ids {
                let record = state.visibleObject(id)
                fields += record.count
                bytes += state.recordKey(id).utf8.count + JSON.string(.object(record), references: .apollo).utf8.count
            }
            return CacheStatistics(records: ids.count, fields: fields, watchers: state.watchers.count, layers: state.layers.count,
                                   bytes: bytes, hits: hits, misses: misses)
        }
    }

    /// The ids of the records visible (layers applied), in id order unless `sorted` is false.
    func allRecordIDs(sorted: Bool = true) -> [UInt32] {
        var ids = Set(state.base.ids)
        for layer in state.layers { ids.formUnion(layer.table.ids) }
        return sorted ? ids.sorted() : Array(ids)
    }

    // MARK: watching

    /// Starts a watcher: `onEmission` gets the current read at once, then a new read
    /// each time a change alters it; every read goes by `schema`, the knowledge of the
    /// endpoint the operation runs against. Keep the returned ``Watch``; cancel it to stop.
    public func watch(_ operation: Operation, variables: CacheObject = CacheObject(), schema: SchemaKnowledge? = nil,
                      partial: Bool = false, onEmission: @escaping @Sendable (WatchEmission) -> Void) throws(CacheError) -> Watch {
        let variables = try coerceVariables(variables, for: operation, schema: schema)
        lock.lock()
        let watcher = state.watchers.add(operation, variables: variables, schema: schema, partial: partial, callback: onEmission)
        let delivery: WatchDelivery?
        do { delivery = try state.watchers.refresh(watcher, cause: .initial, changed: [], state: state) } catch {
            state.watchers.remove(watcher.id)
            lock.unlock()
            throw error
        }
        deliver(delivery.map { [$0] } ?? [])
        return Watch(id: watcher.id, cache: self)
    }

    /// A watcher as an `AsyncStream` of emissions; the stream's end cancels the watcher.
    public func watch(_ operation: Operation, variables: CacheObject = CacheObject(), schema: SchemaKnowledge? = nil,
                      partial: Bool = false) throws(CacheError) -> (watch: Watch, emissions: AsyncStream<WatchEmission>) {
        let (stream, continuation) = AsyncStream<WatchEmission>.makeStream()
        let watch = try watch(operation, variables: variables, schema: schema, partial: partial) { continuation.yield($0) }
        continuation.onTermination = { [weak self] _ in self?.cancel(watch.id) }
        return (watch, stream)
    }

    /// Gives a watcher new variables and emits its new read (cause `refetch` until the
    /// client has fetched for them).
    public func setVariables(of watch: Watch, to variables: CacheObject) throws(CacheError) {
        lock.lock()
        guard let watcher = state.watchers.watcher(watch.id) else {
            lock.unlock()
            throw .invalid("no watcher \(watch.id)")
        }
        do { watcher.variables = try coerceVariables(variables, for: watcher.operation, schema: watcher.schema) } catch {
            lock.unlock()
            throw error
        }
        let delivery: WatchDelivery?
        do { delivery = try state.watchers.refresh(watcher, cause: .refetch, changed: [], state: state) } catch {
            lock.unlock()
            throw error
        }
        deliver(delivery.map { [$0] } ?? [])
    }

    /// Ids of the active watchers, and their emission counts.
    public var watchers: [(id: Int, operation: Operation, emissions: Int)] {
        locked { state.watchers.ids.compactMap { id in state.watchers.watcher(id).map { (id, $0.operation, $0.emissions) } } }
    }

    func cancel(_ id: Int) { locked { state.watchers.remove(id) } }

    // MARK: optimistic layers

    /// Writes an optimistic response for a mutation in its own layer: reads and watchers
    /// see it until ``commitOptimistic(_:response:for:variables:)`` or ``rollBackOptimistic(_:)``.
    @discardableResult
    public func writeOptimistic(_ layer: String, data: CacheObject, for operation: Operation,
                                variables: CacheObject = CacheObject(), schema: SchemaKnowledge? = nil) throws(CacheError) -> Changes {
        try commit(cause: .optimistic) { () throws(CacheError) in
            guard !state.layers.contains(where: { $0.id == layer }) else { throw .invalid("optimistic layer \"\(layer)\" exists already") }
            state.layers.append(OptimisticLayer(id: layer))
            state.undo.append(.layerAdded(layer))
            return try normalize(data, for: operation, variables: variables, schema: schema, partial: true, layer: layer)
        }
    }

    /// Replaces an optimistic layer with the server's result, in one commit.
    @discardableResult
    public func commitOptimistic(_ layer: String, response: CacheValue, for operation: Operation,
                                 variables: CacheObject = CacheObject(), schema: SchemaKnowledge? = nil) throws(CacheError) -> Changes {
        try commit(cause: .write) { () throws(CacheError) in
            try removeLayer(layer)
            return try write(response: response, for: operation, variables: variables, schema: schema)
        }
    }

    /// Removes an optimistic layer (the mutation failed); watchers hear `rollback`.
    @discardableResult
    public func rollBackOptimistic(_ layer: String) throws(CacheError) -> Changes {
        try commit(cause: .rollback) { () throws(CacheError) in
            try removeLayer(layer)
            return changedNames()
        }
    }

    private func removeLayer(_ id: String) throws(CacheError) {
        guard let index = state.layers.firstIndex(where: { $0.id == id }) else { throw .invalid("no optimistic layer \"\(id)\"") }
        let layer = state.layers[index]
        var pairs: [UInt64] = []
        for record in layer.table.ids {
            for field in layer.table[record]!.fieldIDs { pairs.append(pack(record, field)) }
        }
        let before = pairs.map { state.value(UInt32($0 >> 32), UInt32(truncatingIfNeeded: $0)) }
        state.layers.remove(at: index)
        state.undo.append(.layerRemoved(layer, at: index))
        for (pair, old) in zip(pairs, before) where state.value(UInt32(pair >> 32), UInt32(truncatingIfNeeded: pair)) != old {
            state.changes.fields.append(pair)
        }
    }

    // MARK: commit plumbing

    func commit<R>(cause: ChangeCause, checkedFirst: Bool = false, _ body: () throws(CacheError) -> R) throws(CacheError) -> R {
        lock.lock()
        let result: R, deliveries: [WatchDelivery]
        do { (result, deliveries) = try state.commit(cause: cause, checkedFirst: checkedFirst, body) } catch {
            lock.unlock()
            throw error
        }
        reportCommit()
        deliver(deliveries)
        return result
    }

    /// Calls `observer` after every commit that changed a field, before the watchers it
    /// reached emit, with the cache's lock held (so commits are reported in order; the
    /// observer must not call the cache). `nil` stops monitoring.
    public func monitor(_ observer: (@Sendable (Commit) -> Void)?) { locked { monitor = observer } }

    /// Tells the monitor, if there is one, what the last commit changed (lock held).
    private func reportCommit() {
        guard let monitor, !state.lastCommit.isEmpty else { return }
        let fields = state.lastCommit.changedFields
        monitor(Commit(cause: state.lastCommit.cause, changed: fields.map(state.name).sorted(), watchers: state.watchers.affected(by: fields)))
    }

    /// Queues `deliveries`, releases the lock, and runs queued callbacks in commit order
    /// unless another thread (or an outer call on this one) is already running them.
    private func deliver(_ deliveries: [WatchDelivery]) {
        pending += deliveries
        guard !delivering, state.transactionDepth == 0 else {
            lock.unlock()
            return
        }
        delivering = true
        while !pending.isEmpty {
            let batch = pending
            pending = []
            lock.unlock()
            for delivery in batch { delivery.callback(delivery.emission) }
            lock.lock()
        }
        delivering = false
        lock.unlock()
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

    var engine: EngineState { state }
}

/// A running watcher; ``cancel()`` stops it and frees what it held.
public struct Watch: Sendable, Hashable {
    public let id: Int
    private let cache: Unowned

    init(id: Int, cache: NormalizedCache) {
        self.id = id
        self.cache = Unowned(cache)
    }

    public func cancel() { cache.value?.cancel(id) }

    public static func == (a: Watch, b: Watch) -> Bool { a.id == b.id }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }

    private struct Unowned: Sendable {
        weak var value: NormalizedCache?
        init(_ value: NormalizedCache) { self.value = value }
    }
}
