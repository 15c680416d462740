import CCore

/// A dense integer standing for one canonical key in a ``KeyInterner``.
///
/// Ids are issued 0, 1, 2, … in order of first appearance (then ids released before) and
/// never change while they are held, so the engine can index arrays with them instead of
/// hashing `String`s.
package struct KeyID: Hashable, Comparable, Sendable, CustomStringConvertible {
    package let rawValue: UInt32

    package init(rawValue: UInt32) { self.rawValue = rawValue }

    package static func < (lhs: KeyID, rhs: KeyID) -> Bool { lhs.rawValue < rhs.rawValue }

    package var description: String { "#\(rawValue)" }
}

/// Maps keys to ``KeyID``s and back, through the C core's interner (its own hash, open addressing).
///
/// Keys are normalised to Unicode NFC first, so `"é"` and `"e\u{301}"` get one id, as
/// Swift's `==` would have it. Not thread-safe: the owner serialises access.
///
/// ```swift
/// let keys = try KeyInterner()
/// let luke = try keys.intern("Human:1000")     // #0
/// try keys.intern("QUERY_ROOT")                // #1
/// keys.find("Human:1000") == luke              // true
/// keys.key(for: luke)                          // "Human:1000"
/// ```
package final class KeyInterner {
    @usableFromInline let handle: OpaquePointer

    /// - Parameter maxIDs: the most ids to issue (`nil` for about 4 billion); interning
    ///   past it throws ``KeyError/Reason/full``.
    package init(maxIDs: UInt32? = nil) throws(KeyError) {
        var config = nc_interner_config(allocator: nil, max_ids: maxIDs ?? 0, hash: nil)
        var handle: OpaquePointer?
        try KeyError.check(nc_interner_create(&handle, &config), "create a key interner")
        self.handle = handle!
    }

    deinit { nc_interner_destroy(handle) }

    /// The id of `key`, issued now if the key is new.
    @discardableResult
    package func intern(_ key: String) throws(KeyError) -> KeyID {
        var id: nc_id = 0
        let status = key.withUTF8Bytes { nc_interner_intern(handle, $0, $1, &id) }
        try KeyError.check(status, "intern \(key.quotedPreview)")
        return KeyID(rawValue: id)
    }

    /// Makes room for `count` more keys, so that interning them does not grow the table on
    /// the way: for a caller about to intern many new keys, such as the records of a list
    /// of new objects. A hint only: without the memory (or for a count of 0 or less),
    /// nothing changes.
    package func reserve(_ count: Int) {
        guard count > 0 else { return }
        _ = nc_interner_reserve(handle, count)
    }

    /// The id of a key given as UTF-8 bytes, issued now if the key is new. The fast path:
    /// no `String` is made, and the call inlines into the caller.
    @inlinable @discardableResult
    package func intern(utf8 bytes: UnsafeRawBufferPointer) throws(KeyError) -> KeyID {
        var id: nc_id = 0
        let status = nc_interner_intern(handle, bytes.baseAddress, bytes.count, &id)
        try KeyError.check(status, "intern \(String(decoding: bytes, as: UTF8.self).quotedPreview)")
        return KeyID(rawValue: id)
    }

    /// The ids of `keys`, in order, exactly as interning them one at a time would give
    /// them, but meant for many keys: the C core hashes each key a few keys ahead of its
    /// lookup and prefetches the table memory it needs, so that the cache misses of
    /// neighbouring keys overlap. For loading many keys at once, such as a cache file's
    /// records or a snapshot being restored.
    ///
    /// ```swift
    /// let keys = try KeyInterner()
    /// try keys.intern(["Human:1000", "QUERY_ROOT", "Human:1000"])   // [#0, #1, #0]
    /// ```
    ///
    /// - Throws: ``KeyError`` for the first key that cannot be interned, naming it and its
    ///   index. The keys before it stay interned, as after single calls; nothing of it or
    ///   of the keys after it is kept.
    @discardableResult
    package func intern(_ keys: [String]) throws(KeyError) -> [KeyID] {
        var ids = [KeyID](repeating: KeyID(rawValue: 0), count: keys.count)
        var bytes: [UInt8] = [], ends: [Int] = [], spans: [nc_text] = []
        // The C call needs every key's bytes at once: they are copied into one buffer a
        // chunk at a time, so that the copy is still in cache when the interner reads it.
        let chunk = 1024
        for first in stride(from: 0, to: keys.count, by: chunk) {
            let range = first..<min(first + chunk, keys.count)
            bytes.removeAll(keepingCapacity: true)
            ends.removeAll(keepingCapacity: true)
            spans.removeAll(keepingCapacity: true)
            for key in keys[range] {
                bytes.append(contentsOf: key.utf8)
                ends.append(bytes.count)
            }
            let (done, status) = bytes.withUnsafeBytes { all in
                var start = 0
                for end in ends {
                    let base = all.baseAddress.map { ($0 + start).assumingMemoryBound(to: CChar.self) }
                    spans.append(nc_text(bytes: base, length: end - start))
                    start = end
                }
                return spans.withUnsafeBufferPointer { spans in
                    ids[range].withUnsafeMutableBufferPointer { internMany(spans, $0) }
                }
            }
            if status != NC_OK {
                throw KeyError(status, "intern \(keys[first + done].quotedPreview) (key \(first + done) of \(keys.count))")
            }
        }
        return ids
    }

    /// The ids of keys given as UTF-8 byte spans, `ids[i]` for `keys[i]`: the fast path of
    /// ``intern(_:)-([String])`` for callers that hold the keys' bytes already, such as a
    /// loader reading a cache file; no `String` is made. `ids` must have room for every key.
    ///
    /// ```swift
    /// let text = Array("Human:1000QUERY_ROOT".utf8)
    /// var ids = [KeyID](repeating: KeyID(rawValue: 0), count: 2)
    /// try text.withUnsafeBytes { raw in
    ///     let base = raw.baseAddress!.assumingMemoryBound(to: CChar.self)
    ///     let spans = [nc_text(bytes: base, length: 10), nc_text(bytes: base + 10, length: 10)]
    ///     try spans.withUnsafeBufferPointer { spans in
    ///         try ids.withUnsafeMutableBufferPointer { try keys.intern(utf8: spans, into: $0) }
    ///     }
    /// }
    /// // ids == [#0, #1]
    /// ```
    ///
    /// - Throws: ``KeyError`` for the first key that cannot be interned, naming it and its
    ///   index; `ids` then holds the ids of the keys before it, which stay interned, and
    ///   nothing of it or of the keys after it is kept.
    package func intern(utf8 keys: UnsafeBufferPointer<nc_text>, into ids: UnsafeMutableBufferPointer<KeyID>) throws(KeyError) {
        let (done, status) = internMany(keys, ids)
        if status != NC_OK {
            let key = keys[done]
            let preview = key.bytes.map {
                String(decoding: UnsafeRawBufferPointer(start: $0, count: key.length), as: UTF8.self).quotedPreview
            } ?? "(no bytes)"
            throw KeyError(status, "intern \(preview) (key \(done) of \(keys.count))")
        }
    }

    /// Interns `keys` into `ids`: how many were interned, and NC_OK or the status of the
    /// key that stopped the call.
    private func internMany(_ keys: UnsafeBufferPointer<nc_text>, _ ids: UnsafeMutableBufferPointer<KeyID>)
        -> (done: Int, status: nc_status)
    {
        precondition(ids.count >= keys.count, "intern(utf8:into:) needs room for \(keys.count) ids, has \(ids.count)")
        var done = 0
        // KeyID is a UInt32 (nc_id) and nothing else, so the two share a layout.
        let status = ids.withMemoryRebound(to: nc_id.self) { ids in
            nc_interner_intern_many(handle, keys.baseAddress, keys.count, ids.baseAddress, &done)
        }
        return (done, status)
    }

    /// The id of `key` if it was interned before; never issues one.
    package func find(_ key: String) -> KeyID? {
        var id: nc_id = 0
        let status = key.withUTF8Bytes { nc_interner_find(handle, $0, $1, &id) }
        return status == NC_OK ? KeyID(rawValue: id) : nil
    }

    /// The id of a key given as UTF-8 bytes if it was interned before; never issues one.
    /// The fast path of ``find(_:)`` for callers that hold the bytes, such as a store's row.
    @inlinable
    package func find(utf8 bytes: UnsafeRawBufferPointer) -> KeyID? {
        var id: nc_id = 0
        return nc_interner_find(handle, bytes.baseAddress, bytes.count, &id) == NC_OK ? KeyID(rawValue: id) : nil
    }

    /// The canonical key of `id`, or `nil` for an id this interner never issued.
    package func key(for id: KeyID) -> String? {
        var length = 0
        guard let bytes = nc_interner_bytes(handle, id.rawValue, &length) else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: bytes, count: length), as: UTF8.self)
    }

    /// Forgets the key of `id`: the id and its bytes' memory go to the next new keys. For
    /// an owner that knows nothing names the id any more: the engine releases the ids of
    /// records that garbage collection removed and nothing else refers to
    /// (``NormalizedCache/gc(retaining:)``). Whatever still held the id would meet another
    /// key under it.
    ///
    /// ```swift
    /// let keys = try KeyInterner()
    /// let trip = try keys.intern("Trip:1")   // #0
    /// try keys.release(trip)
    /// keys.key(for: trip)                    // nil
    /// try keys.intern("Trip:2")              // #0 again
    /// ```
    ///
    /// - Throws: ``KeyError`` with ``KeyError/Reason/notFound`` for an id not held (never
    ///   issued, or released already), ``KeyError/Reason/outOfMemory`` without the memory
    ///   to note it free; nothing changes then.
    package func release(_ id: KeyID) throws(KeyError) {
        try KeyError.check(nc_interner_release(handle, id.rawValue), "release key id \(id)")
    }

    /// One more than the highest id issued, so every id is below it: the size of a table
    /// indexed by id. Released ids stay counted; new keys take them before it grows.
    package var count: Int { Int(nc_interner_count(handle)) }

    /// How many keys the interner holds: ids issued and not released.
    package var liveCount: Int { Int(nc_interner_live(handle)) }

    /// Bytes of memory the interner holds.
    package var memoryBytes: Int { nc_interner_memory(handle) }
}
