import NormCache

/// What differs between the records of two caches, A and B: the keys of the records only
/// A holds, of those only B holds, and, of the records both hold, the fields that differ,
/// old (A's) → new (B's), a field one side lacks being absent (nil) there. The one
/// comparison `normcache diff A B` and `.diff FILE` make.
///
/// Records are compared as the engine reads them (``NormalizedCache/inspect(_:)``: the
/// current cache with its optimistic layers applied, a file's rows parsed), not as text:
/// what Apollo iOS reads as the same value is the same (``CacheValue/readsTheSame(as:)``), so member
/// order and number formatting never show as changes. Keys, and fields within a record,
/// come sorted. Every record of either side is read, and one that cannot be read fails the
/// comparison, naming the file and the record.
///
/// ```swift
/// let diff = try CacheDiff(device, expected, keys: "Human:*")
/// diff.onlyA     // ["Human:1003"]
/// diff.changed   // [Change(key: "Human:1000", fields: [FieldChange(field: "mass", old: 77, new: 80)])]
/// ```
struct CacheDiff: Equatable {
    /// A record both caches hold, with the fields that differ.
    struct Change: Equatable {
        let key: String
        /// Each field that differs: its value in A (`old`) and in B (`new`), nil where it is absent.
        let fields: [FieldChange]
    }

    /// Keys of the records only A holds, sorted.
    let onlyA: [String]
    /// Keys of the records only B holds, sorted.
    let onlyB: [String]
    /// The records both hold whose fields differ, sorted by key.
    let changed: [Change]
    /// How many records both hold with the same fields.
    let same: Int
    /// The glob that narrowed both sides to the record keys matching it, if one did.
    let pattern: String?

    /// Whether the two caches hold the same records.
    var isEmpty: Bool { onlyA.isEmpty && onlyB.isEmpty && changed.isEmpty }

    /// How many steps of the walk read their records together: one read of each store.
    static let batch = 4096

    /// Compares the records of `a` and `b`, only those whose keys match `pattern` when it
    /// is given (a glob of record keys as `.keys` takes it: `*` any run, `?` one character).
    /// Throws for an empty pattern, and when either cache cannot read a record.
    init(_ a: NormalizedCache, _ b: NormalizedCache, keys pattern: String? = nil) throws {
        if pattern?.isEmpty == true {
            throw CommandError("the glob of record keys is empty: give one such as Human:* (* any run, ? one character)")
        }
        let keysA = a.keys(matching: pattern), keysB = b.keys(matching: pattern)
        // Both lists sorted, walked together: each step a key of A's, of B's, or of both.
        var steps: [(a: String?, b: String?)] = []
        var i = 0, j = 0
        while i < keysA.count || j < keysB.count {
            let inA = i < keysA.count && (j == keysB.count || keysA[i] <= keysB[j])
            let inB = j < keysB.count && (i == keysA.count || keysB[j] <= keysA[i])
            steps.append((inA ? keysA[i] : nil, inB ? keysB[j] : nil))
            if inA { i += 1 }
            if inB { j += 1 }
        }
        // Every record is read, those of one side only too (one that cannot be read is an
        // error wherever it is), a batch of steps at a time.
        var onlyA: [String] = [], onlyB: [String] = [], changed: [Change] = []
        var same = 0
        for start in stride(from: 0, to: steps.count, by: Self.batch) {
            let batch = steps[start..<min(start + Self.batch, steps.count)]
            var fromA = try a.inspect(batch.compactMap(\.a)).makeIterator()
            var fromB = try b.inspect(batch.compactMap(\.b)).makeIterator()
            for (keyA, keyB) in batch {
                switch (keyA == nil ? nil : fromA.next() ?? nil, keyB == nil ? nil : fromB.next() ?? nil) {
                case (let old?, let new?):
                    let fields = Self.fields(from: old, to: new)
                    if fields.isEmpty { same += 1 } else { changed.append(Change(key: keyA!, fields: fields)) }
                case (_?, nil): onlyA.append(keyA!)
                case (nil, _?): onlyB.append(keyB!)
                case (nil, nil): break
                }
            }
        }
        (self.onlyA, self.onlyB, self.changed, self.same, self.pattern) = (onlyA, onlyB, changed, same, pattern)
    }

    /// The fields of a record that differ from `old` to `new`, sorted by field key.
    static func fields(from old: CacheObject, to new: CacheObject) -> [FieldChange] {
        if CacheValue.object(old).readsTheSame(as: .object(new)) { return [] }   // most records, without sorting their fields
        let names = Set(old.keys).union(new.keys).sorted()
        return names.compactMap { name in
            let before = old[name], after = new[name]
            if let before, let after, before.readsTheSame(as: after) { return nil }
            return FieldChange(field: name, old: before, new: after)
        }
    }
}
