/// Invalidation: a field kept but marked stale, so reads report it missing until it is
/// written again.
extension NormalizedCache {
    /// Marks a field stale: it still reads, but a read reports it as missing (so a
    /// cache-first fetch goes to the network) until it is written again.
    public func invalidate(_ key: String, field: String) throws(CacheError) {
        try commit(cause: .evict) { () throws(CacheError) in
            if !state.loaded.all { try state.load(try state.recordID(key)) }
            guard let id = state.recordKeys.find(key)?.rawValue, let fid = state.fieldKeys.find(field)?.rawValue,
                state.value(id, fid) != nil
            else { throw .invalid("no field \"\(key).\(field)\"") }
            let pair = RecordField(record: id, field: fid)
            if state.invalidated.insert(pair).inserted {
                state.undo.append(.invalidation(pair, wasInvalid: false))
                state.changes.fields.append(pair)
            }
        }
    }
}
