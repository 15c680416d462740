extension WatcherRegistry {
    /// One watcher: what it reads (operation, variables, the endpoint's knowledge), what
    /// its last read depended on and returned, and the callback its emissions go to.
    final class Watcher {
        let id: Int
        let operation: CompiledOperation
        var variables: CacheObject
        /// The knowledge of the endpoint the watched operation runs against.
        let schema: SchemaKnowledge?
        let partial: Bool
        let callback: @Sendable (WatchEmission) -> Void
        /// What it is indexed under, sorted: its last read's dependencies, and under Apollo
        /// iOS's semantics while that read is incomplete, those of its last complete read.
        var dependencies: [RecordField] = []
        /// What its last read depended on, sorted.
        var read: [RecordField] = []
        /// What its last complete read depended on, sorted, kept while later reads are
        /// incomplete under Apollo iOS's semantics (empty otherwise).
        var lastComplete: [RecordField] = []
        var last: ReadResult?
        var emissions = 0
        /// The number of the commit its last emission came after (``CommitJournal``).
        var emittedAfter = 0

        init(id: Int, operation: CompiledOperation, variables: CacheObject, schema: SchemaKnowledge?, partial: Bool,
             callback: @escaping @Sendable (WatchEmission) -> Void) {
            self.id = id
            self.operation = operation
            self.variables = variables
            self.schema = schema
            self.partial = partial
            self.callback = callback
        }
    }
}
