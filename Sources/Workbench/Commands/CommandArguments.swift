import NormCache

/// A JSON object given as a command's argument (`.vars {"id": "2"}`); a mistake is
/// reported with the command and the place in the JSON.
///
/// ```swift
/// try JSONArgument.object(#"{"id": "2"}"#, for: ".vars")   // ["id": "2"]
/// try JSONArgument.object("[1]", for: ".vars")              // throws ".vars needs a JSON object, not a list"
/// ```
enum JSONArgument {
    static func object(_ text: String, for command: String, references: JSON.ReferenceStyle = .none) throws(CommandError) -> CacheObject {
        guard !text.isEmpty else { throw CommandError("\(command) needs a JSON object") }
        let value: CacheValue
        do { value = try JSON.parse(text, references: references) } catch { throw CommandError("JSON for \(command): \(error)") }
        guard case .object(let object) = value else { throw CommandError("\(command) needs a JSON object, not \(value.kindDescription)") }
        return object
    }
}

/// A `KEY.FIELD` argument split into a record key and a field. Record keys may hold
/// dots (`Trip:1.destination` is the path key of an unkeyed object), so the split whose
/// record has that field wins, the longest record key first; with none, the whole text
/// is a record key. A field name without arguments stands for its argument variants
/// too (``NormalizedCache/field(_:names:)``), so `QUERY_ROOT.trip` splits when only
/// `trip(id:1)` is stored.
///
/// ```swift
/// RecordTarget.split("Trip:1.destination", in: cache)        // ("Trip:1", "destination")
/// RecordTarget.split("Trip:1.destination.city", in: cache)   // ("Trip:1.destination", "city")
/// RecordTarget.split("Trip:1", in: cache)                    // ("Trip:1", nil)
/// ```
enum RecordTarget {
    static func split(_ target: String, in cache: NormalizedCache) -> (key: String, field: String?) {
        var end = target.endIndex
        while let dot = target[..<end].lastIndex(of: ".") {
            let key = String(target[..<dot]), field = String(target[target.index(after: dot)...])
            if let record = cache.record(key), record.keys.contains(where: { NormalizedCache.field(field, names: $0) }) { return (key, field) }
            end = dot
        }
        return (target, nil)
    }
}

/// A whole number a command takes (`.history KEY N`, `.graph KEY DEPTH`, `.watchlog N`,
/// `.network latency MS`): the one place such a word is read and its error worded.
///
/// ```swift
/// try CountArgument.parse("5", command: ".history", name: "N")             // 5
/// try CountArgument.parse("-1", command: ".history", name: "N")            // throws: .history: N must be a whole number 0 or more, not "-1"
/// try CountArgument.parse("0", command: ".watchlog", name: "N", least: 1)  // throws: .watchlog: N must be a whole number 1 or more, not "0"
/// ```
enum CountArgument {
    static func parse(_ word: String, command: String, name: String, least: Int = 0) throws(CommandError) -> Int {
        guard let count = Int(word), count >= least else {
            throw CommandError("\(command): \(name) must be a whole number \(least) or more, not \"\(word)\"")
        }
        return count
    }
}
