/// Builds a ``CacheObject`` member by member, finding an earlier member of the same key in
/// constant time however wide the object grows. ``CacheObject``'s own lookups scan its
/// keys, which is fastest for the small objects of responses and records but makes
/// adding n members one by one cost n² comparisons: a `QUERY_ROOT` with 100,000 root
/// fields, or the snapshot that holds 100,000 records. The builder scans too while the
/// object is small, and keeps a hash index of its keys from ``indexFrom`` members on.
/// Keys are compared as bytes, as JSON compares member names: `"é"` and `"e\u{301}"`
/// are two keys (Swift's `==` on strings would take them for one).
///
/// ```swift
/// var builder = CacheObject.Builder()
/// builder.add("id", "1")          // true
/// builder.add("id", "2")          // false: a duplicate, nothing changed
/// builder.set("id", "3")          // replaces: {"id": "3"}
/// builder.object.keys             // ["id"]
/// ```
extension CacheObject {
    struct Builder {
        private(set) var object = CacheObject()
        /// The position of each key, once the object has ``indexFrom`` members.
        private var positions: [UTF8Key: Int]? = nil
        /// The width from which a hash of the key beats scanning the keys before it.
        static let indexFrom = 16

        init() {}

        /// A builder that goes on from `object`, whose keys are distinct.
        init(_ object: CacheObject) {
            self.object = object
            if object.count >= Self.indexFrom {
                positions = Dictionary(uniqueKeysWithValues: object.keys.enumerated().map { (UTF8Key($1), $0) })
            }
        }

        /// Adds a member whose key is new, and says so; a key already there leaves the
        /// object as it was and returns false.
        @discardableResult @inline(__always)
        mutating func add(_ key: String, _ value: consuming CacheValue) -> Bool {
            guard position(of: key) == nil else { return false }
            append(key, value)
            return true
        }

        /// Sets `key`: a key already there keeps its place and takes `value`, a new one is appended.
        mutating func set(_ key: String, _ value: consuming CacheValue) {
            if let index = position(of: key) { object.replaceValue(at: index, with: value) } else { append(key, value) }
        }

        @inline(__always) private func position(of key: String) -> Int? {
            if let positions { return positions[UTF8Key(key)] }
            return object.keys.firstIndex { $0.hasSameUTF8(as: key) }
        }

        @inline(__always) private mutating func append(_ key: String, _ value: consuming CacheValue) {
            object.appendNew(key, value)
            if positions != nil {
                positions![UTF8Key(key)] = object.count - 1
            } else if object.count == Self.indexFrom {
                positions = Dictionary(uniqueKeysWithValues: object.keys.enumerated().map { (UTF8Key($1), $0) })
            }
        }
    }

    /// A key compared and hashed by its UTF-8 bytes.
    struct UTF8Key: Hashable {
        let text: String

        init(_ text: String) {
            var text = text
            text.makeContiguousUTF8()
            self.text = text
        }

        static func == (a: UTF8Key, b: UTF8Key) -> Bool { a.text.hasSameUTF8(as: b.text) }

        func hash(into hasher: inout Hasher) {
            text.utf8.withContiguousStorageIfAvailable { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        }
    }
}
