/// JSON text read once into a flat list of entries, one for each value and each member
/// name, in the order of the text: the form a response is normalized from when the cache
/// gets its bytes (``NormalizedCache/write(responseJSON:for:variables:schema:cause:)``).
///
/// No tree of values is built. A string stays in the text until a record stores it, a
/// number is read once, and the entry of an object or a list says where it ends, so a
/// reader steps over it without looking inside. Reading makes every check
/// ``JSON/parse(bytes:references:)`` makes and refuses the same text with the same error
/// (line, column and path), all before anything reads the tape.
///
/// ```swift
/// let tape = try JSONTape(reading: bytes)               // {"data":{"hero":{"name":"R2-D2"}}}
/// tape.withRoot(text: bytes) { root in
///     root.object()?.member("data", near: 0)?.decoded()    // .object(["hero": ["name": "R2-D2"]])
/// }
/// ```
struct JSONTape {
    enum Kind: UInt8 {
        case null, `false`, `true`, int, double, string, list, object
    }

    /// One value or member name. An object's entry is followed by its members, each a
    /// string entry for the name and the entries of the value; a list's by its items.
    struct Entry {
        var kind: Kind
        /// A string whose bytes are in ``unescaped`` rather than in the text.
        var isUnescaped = false
        /// A list's items, an object's members, a string's bytes.
        var count: UInt32 = 0
        /// An integer's or a float's bits; where a string's bytes start; for a list or an
        /// object, the index of the entry after its last item or member.
        var payload: UInt64 = 0
    }

    var entries: [Entry] = []
    /// The bytes of the strings that held escapes, unescaped, one after another.
    var unescaped: [UInt8] = []

    /// Reads UTF-8 JSON text (at most 4 GiB: entries count bytes in 32 bits).
    init(reading bytes: UnsafeBufferPointer<UInt8>) throws(JSONError) {
        var reader = JSONReader(bytes: bytes, references: .none)
        self = try reader.readTape()
    }

    init() {}

    /// Calls `body` with the document's value, read from the tape and `text`, the bytes it
    /// was read from. The value and everything reached from it are valid during the call only.
    func withRoot<Result, Failure: Error>(
        text: UnsafeBufferPointer<UInt8>, _ body: (TapeValue) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let outcome: Swift.Result<Result, Failure> = entries.withUnsafeBufferPointer { entries in
            unescaped.withUnsafeBufferPointer { unescaped in
                var view = View(entries: entries.baseAddress!, text: text.baseAddress, unescaped: unescaped.baseAddress)
                return withUnsafePointer(to: &view) { view in
                    do throws(Failure) { return .success(try body(TapeValue(view: view, index: 0))) } catch { return .failure(error) }
                }
            }
        }
        return try outcome.get()
    }

    /// Where a walk of the tape reads from.
    struct View {
        let entries: UnsafePointer<Entry>
        let text: UnsafePointer<UInt8>?
        let unescaped: UnsafePointer<UInt8>?

        /// The bytes of the string at entry `index`.
        @inline(__always) func bytes(ofString index: Int) -> UnsafeBufferPointer<UInt8> {
            let entry = entries[index]
            return UnsafeBufferPointer(start: (entry.isUnescaped ? unescaped : text)! + Int(entry.payload), count: Int(entry.count))
        }

        /// The index of the entry after the value at `index`.
        @inline(__always) func end(of index: Int) -> Int {
            let entry = entries[index]
            return entry.kind == .list || entry.kind == .object ? Int(entry.payload) : index + 1
        }
    }

    // MARK: writing, for the reader

    /// Appends a scalar read as a ``CacheValue`` (not a string: ``append(string:)``).
    mutating func append(scalar value: CacheValue) {
        switch value {
        case .null: entries.append(Entry(kind: .null))
        case .bool(let bool): entries.append(Entry(kind: bool ? .true : .false))
        case .int(let int): entries.append(Entry(kind: .int, payload: UInt64(bitPattern: int)))
        case .double(let double): entries.append(Entry(kind: .double, payload: double.bitPattern))
        case .string, .list, .object, .reference: preconditionFailure("not a scalar of the text: \(value.kindDescription)")
        }
    }

    /// Appends a string or member name: where it is in the text, or its unescaped bytes.
    mutating func append(string range: Range<Int>) {
        entries.append(Entry(kind: .string, count: UInt32(range.count), payload: UInt64(range.lowerBound)))
    }

    mutating func append(unescaped bytes: [UInt8]) {
        entries.append(Entry(kind: .string, isUnescaped: true, count: UInt32(bytes.count), payload: UInt64(unescaped.count)))
        unescaped.append(contentsOf: bytes)
    }

    /// Appends the entry of an object or a list, to be closed by ``close(_:count:)`` after its contents.
    mutating func open(_ kind: Kind) -> Int {
        entries.append(Entry(kind: kind))
        return entries.count - 1
    }

    mutating func close(_ index: Int, count: Int) {
        entries[index].count = UInt32(count)
        entries[index].payload = UInt64(entries.count)
    }
}

/// One value of a ``JSONTape``, read in place: valid during ``JSONTape/withRoot(text:_:)``.
struct TapeValue {
    let view: UnsafePointer<JSONTape.View>
    let index: Int

    var entryKind: JSONTape.Kind { view.pointee.entries[index].kind }

    /// The object, when the value is one.
    func object() -> TapeObject? { entryKind == .object ? TapeObject(view: view, index: index) : nil }

    /// The value as a ``CacheValue``.
    func decoded() -> CacheValue {
        let entry = view.pointee.entries[index]
        switch entry.kind {
        case .null: return .null
        case .false: return .bool(false)
        case .true: return .bool(true)
        case .int: return .int(Int64(bitPattern: entry.payload))
        case .double: return .double(Double(bitPattern: entry.payload))
        case .string: return .string(text!)
        case .list:
            var items: [CacheValue] = []
            items.reserveCapacity(Int(entry.count))
            var shape: [String] = []   // the keys of the last object among the items, which the next one likely has too
            forEachItem { _, item in
                guard item.entryKind == .object else { return items.append(item.decoded()) }
                let object = item.decodedObject(sharing: shape)
                shape = object.keys
                items.append(.object(object))
            }
            return .list(items)
        case .object:
            return .object(decodedObject(sharing: []))
        }
    }

    /// The object's members, decoded. When its names are `shared`'s, byte for byte and in
    /// order (the items of a list), the object keeps `shared` itself as its keys, and no
    /// key is made again.
    private func decodedObject(sharing shared: [String]) -> CacheObject {
        let entry = view.pointee.entries[index]
        var keys: [String] = [], values: [CacheValue] = []
        values.reserveCapacity(Int(entry.count))
        var sharing = shared.count == Int(entry.count)
        if !sharing { keys.reserveCapacity(Int(entry.count)) }
        var member = index + 1, position = 0
        while member < Int(entry.payload) {
            let name = view.pointee.bytes(ofString: member)
            if sharing, !shared[position].hasSameUTF8(as: name) {   // another name: the keys are its own from here
                sharing = false
                keys.reserveCapacity(Int(entry.count))
                keys.append(contentsOf: shared[..<position])
            }
            if !sharing { keys.append(String(decoding: name, as: UTF8.self)) }
            values.append(TapeValue(view: view, index: member + 1).decoded())
            member = view.pointee.end(of: member + 1)
            position += 1
        }
        return CacheObject(keys: sharing ? shared : keys, values: values)   // the reader refused duplicates
    }

    /// A string's text; nil for any other value.
    var text: String? {
        entryKind == .string ? String(decoding: view.pointee.bytes(ofString: index), as: UTF8.self) : nil
    }

    /// Calls `body` with each item of a list and its index (nothing for another value).
    func forEachItem<Failure: Error>(_ body: (Int, TapeValue) throws(Failure) -> Void) throws(Failure) {
        let entry = view.pointee.entries[index]
        guard entry.kind == .list else { return }
        var item = index + 1, position = 0
        while item < Int(entry.payload) {
            try body(position, TapeValue(view: view, index: item))
            item = view.pointee.end(of: item)
            position += 1
        }
    }

    /// A list's items or an object's members; 0 for another value.
    var count: Int { entryKind == .list || entryKind == .object ? Int(view.pointee.entries[index].count) : 0 }
}

/// An object of a ``JSONTape``: its members looked up by comparing name bytes.
struct TapeObject {
    let view: UnsafePointer<JSONTape.View>
    /// The object's own entry; its first member's name follows it.
    let index: Int

    /// The entry of the first member's name, where ``position(of:from:)`` walks from.
    var firstMember: Int { index + 1 }

    /// The entry of the name of the member named `key`, looked for at entry `cursor`
    /// first (a member's name, or the object's end), then among all members.
    @inline(__always)
    func position(of key: String, from cursor: Int) -> Int? {
        let end = Int(view.pointee.entries[index].payload)
        if cursor < end, has(key, at: cursor) { return cursor }
        var name = index + 1
        while name < end {
            if name != cursor, has(key, at: name) { return name }
            name = position(after: name)
        }
        return nil
    }

    /// The value of the member whose name is entry `position`.
    @inline(__always)
    func value(at position: Int) -> TapeValue { TapeValue(view: view, index: position + 1) }

    /// The entry of the name of the member after the one whose name is entry `position`.
    @inline(__always)
    func position(after position: Int) -> Int { view.pointee.end(of: position + 1) }

    /// Whether the member name at entry `name` is `key`, as a decoded tree's look-up says
    /// (``CacheObject``'s `==`): the same bytes, or a name with other than ASCII in it that
    /// canonical equivalence takes for the key.
    @inline(__always)
    private func has(_ key: String, at name: Int) -> Bool {
        let bytes = view.pointee.bytes(ofString: name)
        if key.hasSameUTF8(as: bytes) { return true }
        return bytes.contains { $0 >= 0x80 } && String(decoding: bytes, as: UTF8.self) == key
    }
}
