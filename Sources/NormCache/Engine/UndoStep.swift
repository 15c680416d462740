/// One step to take back if a transaction fails.
enum UndoStep {
    /// A field of the base table (layer nil) or of a layer had this value (nil: absent).
    case field(layer: String?, record: UInt32, field: UInt32, old: StoredValue?)
    case invalidation(RecordField, wasInvalid: Bool)
    case layerAdded(String)
    case layerRemoved(OptimisticLayer, at: Int)
    /// The retained and emptied roots were these.
    case roots(RootState)
}
