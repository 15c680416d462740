/// The field keys of the last record loaded and their ids: records loaded together mostly
/// have the same fields in the same order, so their keys are compared instead of interned
/// again one by one.
///
/// ```swift
/// var shape = RecordShape()
/// try shape.fieldIDs(of: ["id", "name"], state: state)   // interned: [3, 4]
/// try shape.fieldIDs(of: ["id", "name"], state: state)   // the same array, no lookup
/// ```
struct RecordShape {
    private var keys: [String] = []
    private var ids: [UInt32] = []

    /// The field ids of `keys`.
    mutating func fieldIDs(of keys: [String], state: EngineState) throws(CacheError) -> [UInt32] {
        if keys == self.keys { return ids }
        var ids: [UInt32] = []
        ids.reserveCapacity(keys.count)
        for (i, key) in keys.enumerated() {
            ids.append(i < self.keys.count && self.keys[i] == key ? self.ids[i] : try state.fieldID(key))
        }
        (self.keys, self.ids) = (keys, ids)
        return ids
    }
}
