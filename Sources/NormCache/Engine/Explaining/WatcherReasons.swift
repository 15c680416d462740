/// The reason a commit did not move a watcher, in the watcher's terms: the one owner of
/// the order the reasons are tried in, most specific first (docs/explain.md lists them).
/// A commit is judged against what the watcher reads now (the lock held).
///
/// ```swift
/// let reasons = WatcherReasons(watcher, state: state)
/// reasons.reason(changed: [], created: [], reached: false, rolledBack: false).code   // .unchanged
/// ```
struct WatcherReasons {
    private let state: EngineState
    private let id: Int
    /// `TripList`, or `watcher 3` for an anonymous operation.
    private let title: String
    /// The record fields the watcher reads, and their records.
    private let reads: Set<NamedField>
    private let readRecords: Set<String>
    /// The fields it reads by record and field name (`QUERY_ROOT` `trips`), the first in key order.
    private let readByName: [String: NamedField]
    /// The lists of references it reads, in key order, with the records each lists.
    private let lists: [(field: NamedField, listed: [String])]

    init(_ watcher: WatcherRegistry.Watcher, state: EngineState) {
        self.state = state
        id = watcher.id
        title = watcher.operation.name ?? "watcher \(watcher.id)"
        // Each dependency named once, in key order.
        let named = watcher.dependencies.map { (pair: $0, name: NamedField(record: state.keys.recordKey($0.record), field: state.keys.fieldKey($0.field))) }
            .sorted { $0.name < $1.name }
        let sorted = named.map(\.name)
        reads = Set(sorted)
        readRecords = Set(sorted.map(\.record))
        var byName: [String: NamedField] = [:]
        for field in sorted where byName[field.record + "." + field.name] == nil { byName[field.record + "." + field.name] = field }
        readByName = byName
        lists = named.compactMap { pair, name in
            try? state.load(pair.record)
            guard case .list(let items)? = state.records.value(pair.record, pair.field) else { return nil }
            var listed: [String] = []
            for item in items { item.forEachReference { listed.append(state.keys.recordKey($0)) } }
            return listed.isEmpty ? nil : (name, listed)
        }
    }

    /// Why a commit that changed `changed` (creating `created`) did or did not move the watcher.
    func reason(changed: [NamedField], created: Set<String>, reached: Bool, rolledBack: Bool) -> WhyReason {
        if rolledBack {
            return WhyReason(.rolledBack, "it failed and was rolled back: nothing it wrote remains")
        }
        if reached {
            return WhyReason(.sameResult, "it changed \(list(changed.filter(reads.contains))), which \(title) reads; read again, its data was the same")
        }
        if changed.isEmpty {
            return WhyReason(.unchanged, "it wrote values equal to those cached: nothing changed",
                             hint: "a watcher emits only when data it reads changes")
        }
        // The roots are made by the first write under them, not created objects.
        let outside = created.subtracting(readRecords).subtracting(CompiledOperation.Kind.allRootKeys).sorted()
        if let reason = otherArguments(changed) { return reason }
        if let reason = newRecordNotInList(outside) { return reason }
        if let reason = otherKey(changed) { return reason }
        let touched = changed.filter { readRecords.contains($0.record) }
        if let record = touched.first?.record {
            let read = reads.filter { $0.record == record }.map(\.field).sorted()
            return WhyReason(.notSelected,
                             "it changed \(list(touched)); \(title) reads \(record) but only \(read.joined(separator: ", "))",
                             hint: "select the field in \(title) if its view shows it")
        }
        if let root = changed.first(where: { $0.record == "MUTATION_ROOT" }) {
            let result = outside.isEmpty ? "" : "; what it returned (\(list(outside))) is in no field \(title) reads"
            return WhyReason(.mutationRoot,
                             "it wrote \(root) under MUTATION_ROOT, the mutation's own root, where no query reads\(result)",
                             hint: "refetch after the mutation (.refetch \(id)), as a service does, or update the fields \(title) reads in the mutation's cache update")
        }
        let records = Array(Set(changed.map(\.record))).sorted()
        return WhyReason(.otherRecords, "it changed only records \(title) does not read: \(list(records))",
                         hint: ".graph \(id) draws the records it reads")
    }

    /// A record the commit created that none of the watcher's lists name, though one lists
    /// records of its type.
    private func newRecordNotInList(_ created: [String]) -> WhyReason? {
        guard !lists.isEmpty, !created.isEmpty else { return nil }
        // Each list's item types, found once.
        let listTypes = lists.map { Set($0.listed.compactMap(typeName)) }
        for key in created {
            guard let typename = typeName(of: key) else { continue }
            for (index, (field, listed)) in lists.enumerated() {
                guard listTypes[index].contains(typename) else { continue }
                let span = listed.count == 1 ? listed[0] : "\(listed.first!)…\(listed.last!)"
                return WhyReason(.newRecordNotInList,
                                 "\(key) is new; \(title) reads \(field), which still lists \(span) (\(listed.count)): "
                                 + "a created object joins a list only when the list is refetched or written",
                                 hint: "refetch it (.refetch \(id)), or write \(key) into \(field) as the mutation's cache update would")
            }
        }
        return nil
    }

    /// A field the watcher reads, written with other arguments (`trips(first:20)` for `trips(first:10)`).
    private func otherArguments(_ changed: [NamedField]) -> WhyReason? {
        for written in changed where readRecords.contains(written.record) {
            guard let read = readByName[written.record + "." + written.name], read != written else { continue }
            return WhyReason(.otherArguments,
                             "it wrote \(written); \(title) reads \(read): each set of arguments is a field of its own",
                             hint: "refetch it (.refetch \(id)), or run the write with the arguments \(title) reads")
        }
        return nil
    }

    /// A record the commit changed that is the key an object the watcher reads under another
    /// key would have by its type's key policy, or its id (``EngineState/objectKey(of:)``).
    private func otherKey(_ changed: [NamedField]) -> WhyReason? {
        let records = Set(changed.map(\.record)).subtracting(readRecords)
        guard !records.isEmpty else { return nil }
        for read in readRecords.sorted() {
            guard let id = state.keys.recordKeys.find(read)?.rawValue, let key = state.objectKey(of: id), key != read,
                  records.contains(key), let typename = typeName(of: read) else { continue }
            return WhyReason(.otherKey,
                             "it changed \(key); \(title) reads the same \(typename) kept as \(read): one object under two keys",
                             hint: "key \(typename) by its id (.keyfields \(typename) id, or @typePolicy(keyFields: \"id\") in the schema) so both are one record")
        }
        return nil
    }

    // MARK: the cache as it is now

    private func value(of field: NamedField) -> StoredValue? {
        guard let record = state.keys.recordKeys.find(field.record)?.rawValue,
              let id = state.keys.fieldKeys.find(field.field)?.rawValue else { return nil }
        try? state.load(record)
        return state.records.value(record, id)
    }

    private func typeName(of key: String) -> String? {
        guard let record = state.keys.recordKeys.find(key)?.rawValue else { return nil }
        try? state.load(record)
        return state.typename(of: record)
    }

    /// `Trip:1.name, Trip:2.name` (the first 4, then how many more).
    private func list(_ items: [some CustomStringConvertible]) -> String {
        let shown = items.prefix(4).map(\.description).joined(separator: ", ")
        return items.count > 4 ? shown + " and \(items.count - 4) more" : shown
    }
}
