/// The watchers, and an inverted index from record field to the watchers that depend
/// on it, so a change costs O(affected watchers), not O(all).
struct WatcherRegistry {
    private(set) var watchers: [Int: Watcher] = [:]
    private var index: [RecordField: WatcherSet] = [:]
    private var nextID = 1

    /// Most fields have one watcher; a set only when there are more.
    private enum WatcherSet {
        case one(Int)
        case many(Set<Int>)
    }

    var count: Int { watchers.count }
    var ids: [Int] { watchers.keys.sorted() }

    mutating func add(_ operation: CompiledOperation, variables: CacheObject, schema: SchemaKnowledge?, partial: Bool,
                      callback: @escaping @Sendable (WatchEmission) -> Void) -> Watcher {
        let watcher = Watcher(id: nextID, operation: operation, variables: variables, schema: schema, partial: partial, callback: callback)
        nextID += 1
        watchers[watcher.id] = watcher
        return watcher
    }

    mutating func remove(_ id: Int) {
        guard let watcher = watchers.removeValue(forKey: id) else { return }
        unindex(watcher)
    }

    func watcher(_ id: Int) -> Watcher? { watchers[id] }

    /// Reads the watcher's operation, re-indexes its dependencies, and returns an
    /// emission if the result differs from the last one (always for the first).
    ///
    /// Under Apollo iOS's semantics a watcher also depends, while its read is incomplete, on
    /// what its last complete read depended on, as Apollo iOS's `GraphQLQueryWatcher` keeps
    /// the dependent keys of its last result over failed reads; a change that reaches it
    /// only through those (`onlyThroughLastComplete`) is delivered even when the read is
    /// the same, for the failed read is what makes Apollo iOS's watcher refetch.
    /// `commit`: the number of the commit that caused the read (the last one, for a read
    /// of the watcher's own: its start, new variables).
    mutating func refresh(_ watcher: Watcher, cause: ChangeCause, changed: [String], commit: Int, state: EngineState,
                          onlyThroughLastComplete: Bool = false) throws(CacheError) -> WatchDelivery? {
        let result = try state.withSchema(watcher.schema) { () throws(CacheError) in
            try Reader.read(watcher.operation, variables: watcher.variables, partial: watcher.partial, state: state)
        }
        let read = Array(Set(result.dependencies)).sorted()
        if result.complete { watcher.lastComplete = read } else if state.schema.semantics == .apolloClient { watcher.lastComplete = [] }
        watcher.read = read
        let dependencies = watcher.lastComplete.isEmpty || result.complete ? read : Array(Set(read).union(watcher.lastComplete)).sorted()
        if dependencies != watcher.dependencies {
            unindex(watcher)
            watcher.dependencies = dependencies
            for pair in dependencies {
                switch index[pair] {
                case nil: index[pair] = .one(watcher.id)
                case .one(let other)?: index[pair] = .many([other, watcher.id])
                case .many(var set)?:
                    index[pair] = nil
                    set.insert(watcher.id)
                    index[pair] = .many(set)
                }
            }
        }
        if let last = watcher.last, last == result, !(onlyThroughLastComplete && !result.complete) { return nil }
        watcher.last = result
        watcher.emissions += 1
        watcher.emittedAfter = commit
        return WatchDelivery(callback: watcher.callback,
                             emission: WatchEmission(watcher: watcher.id, number: watcher.emissions, cause: cause, result: result, changed: changed,
                                                     commit: commit))
    }

    private mutating func unindex(_ watcher: Watcher) {
        for pair in watcher.dependencies {
            switch index[pair] {
            case .one(let id)? where id == watcher.id: index[pair] = nil
            case .many(var set)?:
                index[pair] = nil
                set.remove(watcher.id)
                index[pair] = set.count == 1 ? .one(set.first!) : .many(set)
            default: break
            }
        }
    }

    /// Whether the sorted `fields` hold `field` (a binary search).
    private static func sorted(_ fields: [RecordField], contains field: RecordField) -> Bool {
        var low = 0, high = fields.count
        while low < high {
            let middle = (low + high) / 2
            if fields[middle] < field { low = middle + 1 } else { high = middle }
        }
        return low < fields.count && fields[low] == field
    }

    /// The watchers that depend on a field of any of `records` but were not `reached`
    /// (``notify(_:commit:state:)``), sorted, each with the records of `records` it reads:
    /// what a commit touched without reaching them. It looks at every watcher's
    /// dependencies, so it is for the monitor only, not for delivery.
    func unreached(touching records: Set<UInt32>, reached: [Int]) -> [(id: Int, records: [UInt32])] {
        let reached = Set(reached)
        return ids.compactMap { id in
            guard !reached.contains(id), let watcher = watchers[id] else { return nil }
            let read = Set(watcher.dependencies.lazy.map(\.record).filter(records.contains)).sorted()
            return read.isEmpty ? nil : (id, read)
        }
    }

    /// Re-reads the watchers a change set touches (commit number `commit`); returns the
    /// emissions to deliver, and the ids of the watchers reached (those that depend on a
    /// changed field), sorted.
    mutating func notify(_ changes: ChangeSet, commit: Int, state: EngineState) -> (deliveries: [WatchDelivery], reached: [Int]) {
        guard !watchers.isEmpty, !changes.isEmpty else { return ([], []) }
        var affected: [Int: [RecordField]] = [:]
        changes.forEachField { pair in
            switch index[pair] {
            case .one(let id)?: affected[id, default: []].append(pair)
            case .many(let set)?: for id in set { affected[id, default: []].append(pair) }
            case nil: break
            }
        }
        var deliveries: [WatchDelivery] = []
        let reached = affected.keys.sorted()
        for id in reached {
            guard let watcher = watchers[id] else { continue }
            let changed = Set(affected[id]!).map(state.keys.name).sorted()
            let throughRead = watcher.lastComplete.isEmpty || affected[id]!.contains { Self.sorted(watcher.read, contains: $0) }
            // A read that fails now (a key refused) leaves the watcher as it was.
            if let delivery = try? refresh(watcher, cause: changes.cause, changed: changed, commit: commit, state: state,
                                           onlyThroughLastComplete: !throughRead) {
                deliveries.append(delivery)
            }
        }
        return (deliveries, reached)
    }
}
