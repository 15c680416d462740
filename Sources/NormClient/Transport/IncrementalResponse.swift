import NormCache

/// A response delivered in parts (`@defer`, `deferSpec=20220824`): the initial part's
/// `data`, with each later part's `incremental` items merged in at the object their `path`
/// resolves to, and the errors of every part; the one owner of that merge. After each part
/// ``response`` is the whole response so far, which the client writes as one commit.
///
/// ```swift
/// var response = try IncrementalResponse(initial: part1)   // {"data":{"trip":{"id":"1"}},"hasNext":true}
/// try response.apply(part2)   // {"incremental":[{"data":{"name":"Faro"},"path":["trip"],"label":"details"}],"hasNext":false}
/// response.response["data"]   // {"trip":{"id":"1","name":"Faro"}}
/// response.hasNext            // false
/// ```
struct IncrementalResponse {
    private var data: CacheValue
    private var errors: [CacheValue]
    private var extensions: CacheValue?
    /// What the last part said: more parts follow.
    private(set) var hasNext: Bool

    /// The response whose first part is `initial`: an ordinary response (`data`, `errors`),
    /// never an `incremental` one.
    init(initial: MultipartReader.Part) throws(TransportError) {
        let object = initial.object
        guard object["incremental"] == nil else {
            throw .invalidResponse("part \(initial.number) of the multipart answer is an incremental part, but no initial part (with \"data\") came before it")
        }
        guard object["data"] != nil || object["errors"] != nil else {
            throw .invalidResponse("part \(initial.number) of the multipart answer has neither \"data\" nor \"errors\"")
        }
        data = object["data"] ?? .null
        errors = try Self.errors(in: object["errors"], where: "part \(initial.number) of the multipart answer")
        extensions = object["extensions"]
        hasNext = try Self.hasNext(of: initial)
    }

    /// The response so far: `data`, `errors` when there are some, `extensions`, `hasNext`.
    var response: CacheValue {
        var object: CacheObject = ["data": data]
        if !errors.isEmpty { object["errors"] = .list(errors) }
        if let extensions { object["extensions"] = extensions }
        object["hasNext"] = .bool(hasNext)
        return .object(object)
    }

    /// Merges a later part's `incremental` items (a part may have none: `{"hasNext": false}`).
    mutating func apply(_ part: MultipartReader.Part) throws(TransportError) {
        let object = part.object
        let place = "part \(part.number) of the multipart answer"
        guard object["data"] == nil else {
            throw .invalidResponse("\(place) has \"data\" again: a later part carries \"incremental\" items")
        }
        var items: [CacheValue] = []
        switch object["incremental"] {
        case nil: break
        case .list(let list)?: items = list
        case let other?: throw .invalidResponse("\(place) has \"incremental\" as \(other.kindDescription), not a list")
        }
        for (index, item) in items.enumerated() {
            let where_ = "incremental item \(index + 1) of \(place)"
            guard case .list(let path)? = item["path"] else { throw .invalidResponse("\(where_) has no \"path\" list") }
            errors += try Self.errors(in: item["errors"], where: where_)
            guard let delivered = item["data"] else {
                if item["items"] != nil { throw .invalidResponse("\(where_) has \"items\" (@stream), which normcache does not read") }
                continue   // its fragment failed: only errors
            }
            guard case .object = delivered else { continue }   // null: the fragment's errors say why
            data = try Self.merging(delivered, into: data, at: path[...], path: path, where: where_)
        }
        errors += try Self.errors(in: object["errors"], where: place)
        if case .object(let added)? = object["extensions"] {
            extensions = (extensions ?? .object(CacheObject())).updated(with: added)
        }
        hasNext = try Self.hasNext(of: part)
    }

    /// `value` with `delivered` merged into the object at `rest` of `path`.
    private static func merging(_ delivered: CacheValue, into value: CacheValue, at rest: ArraySlice<CacheValue>, path: [CacheValue],
                                where place: String) throws(TransportError) -> CacheValue {
        guard let step = rest.first else {
            guard case .object = value else { throw unresolved(path, place, "it is \(value.kindDescription), not an object") }
            return value.merged(with: delivered)
        }
        switch (value, step) {
        case (.object(var object), .string(let key)):
            guard let member = object[key] else { throw unresolved(path, place, "no \"\(key)\" there") }
            object[key] = try merging(delivered, into: member, at: rest.dropFirst(), path: path, where: place)
            return .object(object)
        case (.list(var list), .int(let index)):
            guard list.indices.contains(Int(index)) else { throw unresolved(path, place, "no item \(index) in a list of \(list.count)") }
            list[Int(index)] = try merging(delivered, into: list[Int(index)], at: rest.dropFirst(), path: path, where: place)
            return .list(list)
        default:
            throw unresolved(path, place, "\(JSON.string(step)) meets \(value.kindDescription)")
        }
    }

    private static func unresolved(_ path: [CacheValue], _ place: String, _ why: String) -> TransportError {
        .invalidResponse("the path \(JSON.string(.list(path))) of \(place) does not resolve in the response: \(why)")
    }

    private static func errors(in value: CacheValue?, where place: String) throws(TransportError) -> [CacheValue] {
        switch value {
        case nil, .null?: return []
        case .list(let list)?: return list
        case let other?: throw .invalidResponse("\(place) has \"errors\" as \(other.kindDescription), not a list")
        }
    }

    private static func hasNext(of part: MultipartReader.Part) throws(TransportError) -> Bool {
        guard case .bool(let said)? = part.object["hasNext"] else {
            throw .invalidResponse("part \(part.number) of the multipart answer has no \"hasNext\" (true or false)")
        }
        return said
    }
}

private extension CacheValue {
    /// This object with `added`'s members set over its own.
    func updated(with added: CacheObject) -> CacheValue {
        guard case .object(var object) = self else { return .object(added) }
        for (key, value) in added.members { object[key] = value }
        return .object(object)
    }
}
