/// Loading records from the store as they are needed (see ``LoadedRecords``): a read or
/// a write loads the records it reaches first, by key; what needs every record loads
/// them all once. Each record comes with the received times the store kept of it.
extension EngineState {
    /// Loads `record`'s fields from the store unless they are loaded.
    @inline(__always)
    func load(_ record: UInt32) throws(CacheError) {
        if records.loaded.contains(record) { return }
        try load(CollectionOfOne(record))
    }

    /// Loads the records of `wanted` that are not loaded, in one ``RecordStore/load(_:)``,
    /// each put in the table as the store hands it over (``LoadingBatch``). A store that
    /// cannot read one (a broken row, a damaged page) fails the call, naming the record;
    /// those it handed over before stay loaded, the others are not: the next read tries
    /// them again.
    func load<Records: Sequence<UInt32>>(_ wanted: Records) throws(CacheError) {
        guard let store = records.store, !records.loaded.all else { return }
        var ids: [UInt32] = []
        for id in wanted where records.loaded.insert(id) { ids.append(id) }
        guard !ids.isEmpty else { return }
        let batch = LoadingBatch(state: self, ids: ids)
        do { try store.load(batch) } catch {
            for id in ids where batch.isPending(id) { records.loaded.remove(id) }
            throw error as? CacheError ?? .storage("\(error)")
        }
        // The batch's keys, which a store that looks records up has made already.
        try loadReceived(zip(ids, batch.keys).filter { !batch.isPending($0.0) }, from: store)
    }

    /// Takes the received times the store kept of `loaded` (records just loaded, with their
    /// keys) in place of those held: a record the store keeps none of keeps what it has (a
    /// store without times has none for any). Times that do not read as times are left
    /// out, with a warning.
    private func loadReceived(_ loaded: [(id: UInt32, key: String)], from store: RecordStore) throws(CacheError) {
        guard !loaded.isEmpty else { return }
        let kept: [String: String]
        do { kept = try store.receivedTimes(of: loaded.map(\.key)) } catch { throw error as? CacheError ?? .storage("\(error)") }
        guard !kept.isEmpty else { return }
        var unnoted = ReceivedTimes.Change(recording: false)
        for (id, key) in loaded {
            guard let text = kept[key] else { continue }
            do {
                let times = try RecordTimes(json: try JSON.parse(text), place: key, fieldID: keys.fieldID)
                received.set(id, to: times, into: &unnoted)
            } catch {
                warnings.append("the store's received times of \(key) cannot be read (\(error)); its fields' ages are unknown")
            }
        }
    }

    /// Loads every record the store holds that is not loaded: gc, extract, clear and
    /// restore see every record.
    func loadAll() throws(CacheError) {
        guard let store = records.store, !records.loaded.all else { return }
        let stored: [Record]
        do { stored = try store.loadAll() } catch { throw .storage("\(error)") }
        // Every record key at once, into a table made big enough first: the batch entry
        // overlaps their table lookups, and the table does not grow on the way.
        keys.recordKeys.reserve(stored.count)
        let ids: [UInt32]
        do { ids = try keys.recordKeys.intern(stored.map(\.key)).map(\.rawValue) } catch { throw .key(error) }
        var shape = RecordShape()
        var loaded: [(id: UInt32, key: String)] = []
        for (record, id) in zip(stored, ids) where records.loaded.insert(id) {
            records.insertLoaded(id, try shape.record(of: record.fields, keys: keys))
            loaded.append((id, record.key))
        }
        records.loaded.all = true
        try loadReceived(loaded, from: store)
    }

    /// ``loadAll()`` where a call cannot throw: what cannot be loaded is left out, and a
    /// warning says so.
    func loadAllOrWarn() {
        do { try loadAll() } catch { warnings.append("not every record could be loaded from the store: \(error)") }
    }

    /// The keys of the records the store holds that are not loaded, read without loading
    /// them (nor interning their keys); a store that cannot list them leaves them out
    /// with a warning.
    func unloadedStoredKeys() -> [String] {
        guard let store = records.store, !records.loaded.all else { return [] }
        do {
            return try store.keys().filter { key in keys.recordKeys.find(key).map { !records.loaded.contains($0.rawValue) } ?? true }
        } catch {
            warnings.append("the store's keys could not be read: \(error)")
            return []
        }
    }

}
