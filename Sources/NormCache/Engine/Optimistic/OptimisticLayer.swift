/// The records written for one optimistic mutation, over the base table.
struct OptimisticLayer {
    let id: String
    var table = RecordTable()
}
