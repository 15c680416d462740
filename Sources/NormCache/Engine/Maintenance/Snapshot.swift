/// Apollo Client's `cache.extract()` / `cache.restore()` format: one JSON object from
/// record id to fields, references as `{"__ref": K}`, the root as `ROOT_QUERY` with a
/// `__typename`, and arguments in field keys as JSON: `hero({"episode":"JEDI"})`. The
/// records retained as roots of garbage collection are listed last, as Apollo Client
/// lists them: `"__META":{"extraRootIds":["Book:1"]}` (see ``RootState``). Asked for,
/// when each record was received goes in `__META` too, as
/// `"normcacheReceived":{"Trip:1":{"at":…}}` (``RecordTimes``, field keys as the snapshot
/// writes them), which Apollo Client's `restore` passes over (it reads only
/// `extraRootIds` of `__META`); a snapshot without it restores with every age unknown.
///
/// ```swift
/// let snapshot = cache.extract()
/// // {"ROOT_QUERY":{"__typename":"Query","hero({\"episode\":\"JEDI\"})":{"__ref":"Human:1000"}}, ...}
/// try other.restore(snapshot)
/// ```
extension NormalizedCache {
    private static let roots = [("QUERY_ROOT", "ROOT_QUERY", "Query"), ("MUTATION_ROOT", "ROOT_MUTATION", "Mutation"),
                                ("SUBSCRIPTION_ROOT", "ROOT_SUBSCRIPTION", "Subscription")]

    /// The member of a snapshot that is no record but says which records are retained.
    package static let snapshotMetadataKey = "__META"
    /// The member of `__META` that holds when each record was received.
    private static let receivedKey = "normcacheReceived"

    /// The cache's records (optimistic layers left out) as an Apollo Client snapshot, with
    /// the retained records in `__META` when there are any, and with `receivedTimes` when
    /// each record was received (the workbench's `.dump` and `.export`).
    public func extract(receivedTimes: Bool = false) -> CacheValue {
        locked {
            state.loadAllOrWarn()
            var snapshot = CacheObject()
            var received = CacheObject()
            let ids = Set(state.records.base.ids).union(state.records.roots.emptied)
            for (key, id) in ids.map({ (state.keys.recordKey($0), $0) }).sorted(by: { $0.0 < $1.0 }) {
                let root = Self.roots.first { $0.0 == key }
                if receivedTimes, let times = state.received.times(of: id) { received.appendNew(root?.1 ?? key, times.json(fieldKey: clientFieldKey)) }
                var fields = CacheObject.Builder()
                if let root { fields.set("__typename", .string(root.2)) }
                if let stored = state.records.base[id] {
                    for (field, value) in zip(stored.fieldIDs, stored.values) {
                        fields.set(clientFieldKey(field), clientValue(state.keys.cacheValue(value)))
                    }
                }
                snapshot.appendNew(root?.1 ?? key, .object(fields.object))
            }
            if !state.records.roots.retained.isEmpty || !received.isEmpty {
                // Apollo Client's restore reads `extraRootIds` of any `__META`: always there.
                var metadata: CacheObject = ["extraRootIds": .list(state.records.roots.retained.sorted().map(CacheValue.string))]
                if !received.isEmpty { metadata.appendNew(Self.receivedKey, .object(received)) }
                snapshot[Self.snapshotMetadataKey] = .object(metadata)
            }
            return .object(snapshot)
        }
    }

    /// Replaces the cache's records, the records retained as roots and when each record was
    /// received (unknown for a record the snapshot has no times of) with those of an Apollo
    /// Client snapshot, in one commit; a malformed snapshot changes nothing.
    public func restore(_ snapshot: CacheValue) throws(CacheError) {
        guard case .object(let records) = snapshot else {
            throw .invalid("a snapshot must be a JSON object of records, not \(snapshot.kindDescription)")
        }
        // Under the lock throughout: keys are built with the engine's one key builder.
        try commit(cause: .write, origin: .command("restore", target: nil)) { () throws(CacheError) in
            var converted: [(key: String, name: String, fields: [(String, CacheValue)])] = []
            var roots = RootState()
            var received: [String: CacheValue] = [:]
            for (key, value) in records.members {
                if key == Self.snapshotMetadataKey {
                    roots.retained = try Self.retainedRecords(in: value)
                    received = try Self.receivedTimes(in: value)
                    continue
                }
                guard case .object(let fields) = value else {
                    throw .invalid("snapshot record \"\(key)\" must be an object, not \(value.kindDescription)")
                }
                let root = Self.roots.first { $0.1 == key }
                var list: [(String, CacheValue)] = []
                for (field, value) in fields.members {
                    if root != nil, field == "__typename" { continue }
                    list.append((try iosFieldKey(field, record: key), try iosValue(value, record: key)))
                }
                converted.append((root?.0 ?? key, key, list))
            }
            try state.loadAll()
            for id in state.records.base.ids { state.records.removeRecord(id, log: &state.log) }
            let restored = Set(records.keys)
            for key in received.keys.sorted() where !restored.contains(key) || key == Self.snapshotMetadataKey {
                throw .invalid("snapshot \"\(Self.snapshotMetadataKey)\".\(Self.receivedKey) has times of \"\(key)\", a record the snapshot does not hold")
            }
            for (key, name, fields) in converted {
                let id = try state.keys.recordID(key)
                for (field, value) in fields { state.records.setField(id, try state.keys.fieldID(field), try state.keys.stored(value), log: &state.log) }
                if fields.isEmpty, CompiledOperation.Kind.allRootKeys.contains(key) { roots.emptied.insert(id) }
                var times: RecordTimes?
                if let kept = received[name] {
                    times = try RecordTimes(json: kept, place: "snapshot \"\(Self.snapshotMetadataKey)\".\(Self.receivedKey)[\"\(name)\"]") {
                        field throws(CacheError) in try state.keys.fieldID(try iosFieldKey(field, record: name))
                    }
                }
                state.log.keptTimes.append((id, times))
            }
            state.records.setRoots(roots, log: &state.log)
        }
    }

    /// The record ids of a snapshot's `{"extraRootIds": [...]}`, the three roots left out
    /// (they are always roots, and Apollo Client never lists them).
    private static func retainedRecords(in metadata: CacheValue) throws(CacheError) -> Set<String> {
        let place = "snapshot \"\(snapshotMetadataKey)\""
        guard case .object = metadata else {
            throw .invalid("\(place) must be an object {\"extraRootIds\":[...]}, not \(metadata.kindDescription)")
        }
        let ids = metadata["extraRootIds"]
        guard case .list(let items)? = ids else {
            throw .invalid("\(place) must hold \"extraRootIds\", a list of record ids" + (ids.map { ", not \($0.kindDescription)" } ?? ""))
        }
        var retained = Set<String>()
        for (index, item) in items.enumerated() {
            guard case .string(let id) = item else {
                throw .invalid("\(place): extraRootIds[\(index)] must be a record id (a string), not \(item.kindDescription)")
            }
            if !roots.contains(where: { $0.0 == id || $0.1 == id }) { retained.insert(id) }
        }
        return retained
    }

    /// The records' received times in a snapshot's `__META` (``receivedKey``), by record as
    /// the snapshot names them; none when it has none.
    private static func receivedTimes(in metadata: CacheValue) throws(CacheError) -> [String: CacheValue] {
        guard let times = metadata[receivedKey] else { return [:] }
        guard case .object(let byRecord) = times else {
            throw .invalid("snapshot \"\(snapshotMetadataKey)\".\(receivedKey) must be an object of records' received times, not \(times.kindDescription)")
        }
        return Dictionary(byRecord.members.map { ($0, $1) }, uniquingKeysWith: { first, _ in first })
    }

    /// `hero({"episode":"JEDI"})` for `hero(episode:JEDI)`, when the engine built that key.
    private func clientFieldKey(_ field: UInt32) -> String {
        guard let built = state.keys.fieldArguments[field] else { return state.keys.fieldKey(field) }
        var object = CacheObject()
        for name in built.arguments.keys.sorted() { object.appendNew(name, Self.json(built.arguments[name]!)) }
        return built.name + "(" + JSON.string(.object(object), sortedKeys: true) + ")"
    }

    /// `hero(episode:JEDI)` for `hero({"episode":"JEDI"})`; other keys unchanged. The
    /// arguments are remembered, so that a later ``extract()`` writes the key back as JSON.
    private func iosFieldKey(_ key: String, record: String) throws(CacheError) -> String {
        guard let open = key.firstIndex(of: "("), key.hasSuffix(")") else { return key }
        let name = String(key[..<open])
        let inside = String(key[key.index(after: open)..<key.index(before: key.endIndex)])
        guard inside.hasPrefix("{") else { return key }
        let arguments: CacheValue
        do { arguments = try JSON.parse(inside) } catch {
            throw .invalid("snapshot record \"\(record)\", field \"\(key)\": arguments are not JSON: \(error)")
        }
        guard case .object(let object) = arguments else { return key }
        var values: [String: ArgumentValue] = [:]
        for (argument, value) in object.members { values[argument] = ArgumentValue(value) }
        return state.keys.fieldKey(try state.keys.fieldID(named: name, arguments: values))
    }

    /// References as `{"__ref": K}` objects, roots renamed; the members of objects kept
    /// inline are field keys, written as Apollo Client writes them.
    private func clientValue(_ value: CacheValue) -> CacheValue {
        switch value {
        case .reference(let key): return ["__ref": .string(Self.roots.first { $0.0 == key }?.1 ?? key)]
        case .list(let items): return .list(items.map(clientValue))
        case .object(let object):
            var converted = CacheObject.Builder()
            for (key, member) in object.members {
                converted.set(state.keys.fieldKeys.find(key).map { clientFieldKey($0.rawValue) } ?? key, clientValue(member))
            }
            return .object(converted.object)
        default: return value
        }
    }

    /// `{"__ref": K}` objects as references, roots renamed; the members of objects kept
    /// inline are field keys, converted like a record's.
    private func iosValue(_ value: CacheValue, record: String) throws(CacheError) -> CacheValue {
        switch value {
        case .object(let object):
            if object.count == 1, object.keys[0] == "__ref", case .string(let key) = object.values[0] {
                return .reference(Self.roots.first { $0.1 == key }?.0 ?? key)
            }
            var converted = CacheObject.Builder()
            for (key, member) in object.members {
                converted.set(try iosFieldKey(key, record: record), try iosValue(member, record: record))
            }
            return .object(converted.object)
        case .list(let items):
            var converted: [CacheValue] = []
            for item in items { converted.append(try iosValue(item, record: record)) }
            return .list(converted)
        default: return value
        }
    }

    private static func json(_ argument: ArgumentValue) -> CacheValue {
        switch argument {
        case .null: .null
        case .bool(let value): .bool(value)
        case .int(let value): .int(value)
        case .float(let value): .double(value)
        case .string(let value): .string(value)
        case .list(let items): .list(items.map(json))
        case .object(let fields):
            .object(fields.keys.sorted().reduce(into: CacheObject()) { $0.appendNew($1, json(fields[$1]!)) })
        }
    }
}
