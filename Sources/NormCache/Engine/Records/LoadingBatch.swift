/// One load of records from the store (``EngineState/load(_:)``): the ``RecordBatch`` the
/// store hands them to. A key the store asks about is found among the interned record
/// keys (one hash of its bytes) and checked against the batch (one bit); a wanted
/// record's text is read straight into its ``StoredRecord`` (``RecordShape``) and put in
/// the base table at once, so no parsed object is made and none is held; or, for a
/// reload (``EngineState/readAgain(_:)``), handed to `sink` instead.
///
/// ```swift
/// let batch = LoadingBatch(state: state, ids: [7, 9])
/// try store.load(batch)      // Trip:7 and Trip:9 are in the base table
/// batch.isPending(9)         // false: handed over (true: the store does not hold it)
/// ```
final class LoadingBatch: RecordBatch {
    private let state: EngineState
    private let ids: [UInt32]
    /// The records not handed over yet, one bit each.
    private var pending = LoadedRecords(all: false)
    private var remaining = 0
    /// The record ``wants(key:)`` said yes to last.
    private var current: UInt32 = 0
    private var shape = RecordShape()
    /// Where each record goes; nil: into the base table, loaded.
    private let sink: ((UInt32, StoredRecord) -> Void)?
    /// The record whose text could not be read as a record, when that ended the load.
    private(set) var unreadable: UInt32?

    /// A batch of these records (distinct ids), put in the base table as they come, or
    /// handed to `sink`.
    init(state: EngineState, ids: [UInt32], sink: ((UInt32, StoredRecord) -> Void)? = nil) {
        self.state = state
        self.ids = ids
        self.sink = sink
        for id in ids where pending.insert(id) { remaining += 1 }
    }

    private(set) lazy var keys: [String] = ids.map(state.keys.recordKey)
    var count: Int { ids.count }
    var isComplete: Bool { remaining == 0 }

    /// Whether the record `id` is one of the batch's that was not handed over.
    func isPending(_ id: UInt32) -> Bool { pending.contains(id) }

    func wants(key: UnsafeRawBufferPointer) -> Bool {
        guard let id = state.keys.recordKeys.find(utf8: key)?.rawValue, pending.contains(id) else { return false }
        current = id
        return true
    }

    func take(text: UnsafeBufferPointer<UInt8>?) throws {
        var shape = self.shape
        self.shape = RecordShape()
        defer { self.shape = shape }
        shape.begin()
        do { try RecordText.forEachField(of: text) { shape.add($0, $1, keys: state.keys) } } catch {
            unreadable = current
            throw error
        }
        insert(try shape.finish())
    }

    func take(fields: CacheObject) throws {
        insert(try shape.record(of: fields, keys: state.keys))
    }

    private func insert(_ record: consuming StoredRecord) {
        if let sink { sink(current, record) } else { state.records.insertLoaded(current, record) }
        pending.remove(current)
        remaining -= 1
    }
}
