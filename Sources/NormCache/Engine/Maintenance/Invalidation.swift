/// Invalidation: a field kept but marked stale, so reads report it missing until it is
/// written again.
extension NormalizedCache {
    /// Marks a field stale: it still reads, but a read reports it as missing (so a
    /// cache-first fetch goes to the network) until it is written again.
    public func invalidate(_ key: String, field: String) throws(CacheError) {
        try commit(cause: .evict, origin: .command("invalidate", target: key + "." + field)) { () throws(CacheError) in
            if !state.records.loaded.all { try state.load(try state.keys.recordID(key)) }
            guard let id = state.keys.recordKeys.find(key)?.rawValue, let fid = state.keys.fieldKeys.find(field)?.rawValue,
                state.records.value(id, fid) != nil
            else { throw .invalid("no field \"\(key).\(field)\"") }
            let pair = RecordField(record: id, field: fid)
            if state.records.invalidated.insert(pair).inserted {
                state.log.undo.append(.invalidation(pair, wasInvalid: false))
                state.log.changes.fields.append(pair)
            }
        }
    }
}
