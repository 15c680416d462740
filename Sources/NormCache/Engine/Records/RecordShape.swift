/// Builds each record a store hands over, field by field as its text is read, straight
/// into a ``StoredRecord`` (no ``CacheObject`` between), and remembers the field keys of
/// the last one built and their ids: records loaded together mostly have the same fields
/// in the same order, so a record's field keys are compared as bytes with those of the one
/// before instead of interned one by one, and records of one shape share one array of
/// field ids (1M trips hold one such array, not 1M).
///
/// ```swift
/// var shape = RecordShape()
/// shape.begin()
/// shape.add(idBytes, "1", keys: keys)        // interned: the first record of its shape
/// let trip1 = try shape.finish()
/// shape.begin()
/// shape.add(idBytes, "2", keys: keys)        // compared with "id": no lookup
/// let trip2 = try shape.finish()              // shares trip1's field ids
/// ```
struct RecordShape {
    /// The last shape's field keys, back to back, where each ends, and their ids.
    private var names: [UInt8] = []
    private var ends: [Int] = []
    private var ids: [UInt32] = []

    /// The record being built: how many of its fields followed the shape, their values,
    /// and, from the first field that did not, the record itself with the keys of its
    /// fields (its shape, once it is finished).
    private var matched = 0
    private var values: [StoredValue] = []
    private var departed: (record: StoredRecord, names: [UInt8], ends: [Int])?
    /// What went wrong in ``add(_:_:keys:)`` (a key or reference that cannot be interned),
    /// thrown by ``finish()``.
    private var failure: CacheError?

    /// Starts a record.
    mutating func begin() {
        matched = 0
        values = []
        values.reserveCapacity(ids.count)
        departed = nil
        failure = nil
    }

    /// Adds a field of the record being built: its key's UTF-8 bytes and its value. False
    /// when the record has a field of that key already.
    mutating func add(_ name: UnsafeBufferPointer<UInt8>, _ value: CacheValue, keys: KeySpace) -> Bool {
        let stored: StoredValue
        do { stored = try keys.stored(value) } catch {
            failure = failure ?? error
            return true
        }
        if departed == nil {
            if matched < ids.count, isName(matched, name) {
                matched += 1
                values.append(stored)
                return true
            }
            let kept = matched == 0 ? 0 : ends[matched - 1]
            departed = (StoredRecord(fieldIDs: Array(ids[..<matched]), values: values), Array(names[..<kept]), Array(ends[..<matched]))
        }
        let id: UInt32
        do { id = try keys.fieldID(utf8: UnsafeRawBufferPointer(name)) } catch {
            failure = failure ?? error
            return true
        }
        departed!.names.append(contentsOf: name)
        departed!.ends.append(departed!.names.count)
        return departed!.record.set(id, stored) == nil
    }

    /// The record built since ``begin()``; it becomes the shape when its fields departed from it.
    mutating func finish() throws(CacheError) -> StoredRecord {
        if let failure { throw failure }
        if let departed {
            (names, ends, ids) = (departed.names, departed.ends, departed.record.fieldIDs)
            self.departed = nil
            return departed.record
        }
        let built = values
        values = []
        return StoredRecord(fieldIDs: matched == ids.count ? ids : Array(ids[..<matched]), values: built)
    }

    /// The record of `fields`, read as a store's text would be.
    mutating func record(of fields: CacheObject, keys: KeySpace) throws(CacheError) -> StoredRecord {
        begin()
        for (key, value) in fields.members {
            var key = key
            key.withUTF8 { _ = add($0, value, keys: keys) }
        }
        return try finish()
    }

    /// Whether `name` is the key of the shape's field at `index`.
    @inline(__always) private func isName(_ index: Int, _ name: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = index == 0 ? 0 : ends[index - 1]
        guard ends[index] - start == name.count else { return false }
        return names.withUnsafeBufferPointer { UnsafeBufferPointer(rebasing: $0[start..<ends[index]]).elementsEqual(name) }
    }
}
