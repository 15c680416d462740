/// The key fields a cache's record keys show for each type: what an app that keys objects
/// in code (Apollo iOS's `cacheKeyInfo(for:object:)`, no `@typePolicy` in its schema) did
/// to the file it wrote. `Trip:2` over a record whose `id` is `"2"` shows Trip keyed by
/// `id`; `Seat:LH123+14C` over `flight: "LH123"` and `number: "14C"` shows Seat keyed by
/// `flight number`; `Animal:7` over a `Dog` shows Dog keyed by `id` in Animal's key space.
///
/// A type's keys are sampled (those of its records that are not path keys first); a type
/// shows key fields when every sampled record whose key its fields can make agrees on
/// them. Keys are built as the engine builds them (``KeyBuilder``), so a key field's value
/// is escaped and normalised the same way.
///
/// ```swift
/// for found in ImpliedKeyFields.find(in: cache) where project.schemaKnowledge.typePolicies[found.typename] == nil {
///     client.typePolicies[found.typename] = found.policy   // Trip: .keyFields(["id"])
/// }
/// ```
package struct ImpliedKeyFields: Sendable, Equatable {
    /// The type whose records were keyed so (their `__typename`, else the key's type part).
    package let typename: String
    /// The fields whose values make the key, in order.
    package let fields: [String]
    /// The key's type part when it is not the typename (a key space shared by several types).
    package let group: String?

    /// As a type policy.
    package var policy: TypePolicies.Policy { .keyFields(fields, group: group) }

    /// How many records of each key's type part are looked at.
    package static let sampled = 20

    /// What the keys of `cache`'s records show, sorted by typename; types whose keys no
    /// fields of theirs make (keys computed in other ways) are left out.
    package static func find(in cache: NormalizedCache) -> [ImpliedKeyFields] {
        // Each key's type part keeps its first `sampled` keys in sample order, without
        // sorting every key of a large cache (as a file opens with `inspect --project`).
        var samples: [String: [String]] = [:]
        for key in cache.unsortedKeys() {
            guard let colon = key.firstIndex(of: ":"), isName(key[..<colon]) else { continue }
            let part = String(key[..<colon])
            var sample = samples[part, default: []]
            samples[part] = nil
            if sample.count < sampled || comesFirst(key, sample[sample.count - 1]) {
                sample.insert(key, at: sample.firstIndex { comesFirst(key, $0) } ?? sample.endIndex)
                if sample.count > sampled { sample.removeLast() }
            }
            samples[part] = sample
        }
        let builder = KeyBuilder()
        var found: [ImpliedKeyFields] = []
        for (part, sample) in samples {
            var agreed: [String: Set<[String]>] = [:]   // typename → the field lists every record of it allows
            for key in sample {
                guard let record = cache.record(key) else { continue }
                let fieldLists = keyFieldLists(of: record, key: key, part: part, builder: builder)
                guard !fieldLists.isEmpty else { continue }
                let typename = record["__typename"]?.stringValue ?? part
                agreed[typename] = agreed[typename].map { $0.intersection(fieldLists) } ?? fieldLists
            }
            for (typename, lists) in agreed {
                // Several lists fit when fields hold equal values: `id` first, then the shortest, then by name.
                func rank(_ fields: [String]) -> (Int, Int, String) { (fields == ["id"] ? 0 : 1, fields.count, fields.joined(separator: " ")) }
                guard let fields = lists.min(by: { rank($0) < rank($1) }) else { continue }
                found.append(ImpliedKeyFields(typename: typename, fields: fields, group: typename == part ? nil : part))
            }
        }
        return found.sorted { $0.typename < $1.typename }
    }

    /// The order keys are sampled in: path keys below an entity (`Trip:1.owner`) last, as
    /// they show nothing; else by key.
    private static func comesFirst(_ a: String, _ b: String) -> Bool {
        (a.contains(".") ? 1 : 0, a) < (b.contains(".") ? 1 : 0, b)
    }

    /// The lists of `record`'s fields whose values make `key` (up to four fields).
    private static func keyFieldLists(of record: CacheObject, key: String, part: String, builder: KeyBuilder) -> Set<[String]> {
        let texts = record.members.compactMap { name, value in name == "__typename" ? nil : Normalizer.keyText(value).map { (name, $0) } }
        func keyOf(_ values: [String]) -> String? { try? builder.entityKey(type: part, values: values) }
        let single = texts.filter { keyOf([$0.1]) == key }.map { [$0.0] }
        if !single.isEmpty { return Set(single) }
        // Several fields: each piece of the key between unescaped `+`s is one field's value.
        let pieces = valuePieces(key.utf8.dropFirst(part.utf8.count + 1))
        guard (2...4).contains(pieces.count) else { return [] }
        var lists: [[(name: String, text: String)]] = [[]]
        // A value as it stands among others in a key (escaped, normalised): the key of it and
        // an empty value is `Type:value+`.
        let written = texts.map { name, text in (name, text, keyOf([text, ""]).map { $0.dropFirst(part.count + 1).dropLast() }) }
        for piece in pieces {
            let fitting = written.filter { $0.2.map(String.init) == piece }
            lists = lists.flatMap { list in fitting.map { list + [($0.0, $0.1)] } }
            if lists.isEmpty || lists.count > 64 { return [] }
        }
        return Set(lists.filter { list in keyOf(list.map(\.text)) == key }.map { $0.map(\.name) })
    }

    /// The key's values as written in it, split at each `+` that no backslash escapes.
    private static func valuePieces(_ bytes: Substring.UTF8View) -> [String] {
        var pieces: [String] = [], piece: [UInt8] = [], escaped = false
        for byte in bytes {
            if !escaped, byte == UInt8(ascii: "+") {
                pieces.append(String(decoding: piece, as: UTF8.self))
                piece = []
            } else {
                piece.append(byte)
            }
            escaped = !escaped && byte == UInt8(ascii: "\\")
        }
        return pieces + [String(decoding: piece, as: UTF8.self)]
    }

    /// A GraphQL name: what a type part of a key is, unlike a path key's `QUERY_ROOT.trip(id`.
    private static func isName(_ text: Substring) -> Bool {
        guard let first = text.utf8.first, first == UInt8(ascii: "_") || (first | 0x20) >= UInt8(ascii: "a") && (first | 0x20) <= UInt8(ascii: "z")
        else { return false }
        return text.utf8.allSatisfy { byte in
            byte == UInt8(ascii: "_") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || ((byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z"))
        }
    }
}
