import NormCache

/// The variables of the page after (or before) a page of an operation's paginated field,
/// or why there is none, in a sentence naming the field.
///
/// The paginated field is the one a caller names (its response keys from the root), else
/// the first field of the operation that takes `after:`, `before:`, `offset:` or `skip:`.
/// Its style follows from those arguments:
/// - **cursor** (Relay connections): the next page sets the `after:` variable to the page's
///   `pageInfo.endCursor`, else its last edge's `cursor`; there is none when
///   `pageInfo.hasNextPage` is false. The previous page sets `before:` to
///   `pageInfo.startCursor` (else the first edge's cursor) and `last:` to the page size.
/// - **offset**: the next page sets the `offset:` (or `skip:`) variable to the page's
///   offset plus the items it shows; the page size is the `limit:` (or `first:`) variable.
///   A page with fewer items than a whole page (or none) is the last.
///
/// `page` is the data of one page's response (response keys), read with `variables`; a
/// list merged from pages and read with the first page's variables works the same way.
///
/// ```swift
/// let next = try NextPage(in: feedPage, page: data, variables: ["first": 20])
/// next.field.path   // ["feedConnection"]
/// next.variables    // ["first": 20, "after": "19"]
/// // no more: "feedConnection has no next page: pageInfo.hasNextPage is false"
/// ```
package struct NextPage: Sendable {
    /// How the field pages: by cursor (`after:`/`before:`) or by position (`offset:`/`skip:`).
    package enum Style: String, Sendable {
        case cursor, offset
    }

    /// Which page: the one after the page given, or the one before it.
    package enum Direction: String, Sendable {
        case next, previous
    }

    /// Why there is no next (or previous) page: a sentence naming the field.
    package struct Unavailable: Error, Equatable, CustomStringConvertible {
        package let reason: String
        package var description: String { reason }

        package init(reason: String) { self.reason = reason }
    }

    /// An operation's paginated field: where it is, how it pages, and the variables its
    /// paging arguments are.
    package struct Field: Sendable {
        /// The response keys from the root down to the field.
        package let path: [String]
        package let style: Style
        /// The variable each paging argument of the field is, by argument name (`after` →
        /// `cursor` for `after: $cursor`); an argument given a literal is not here.
        package let variables: [String: String]
        /// The arguments the field takes at all, variables or not.
        let arguments: Set<String>
        let operationName: String
        let declared: [CompiledOperation.Variable]

        /// The field at `path` (response keys) of `operation`, or without a path the first
        /// that takes `after:`, `before:`, `offset:` or `skip:`.
        package init(in operation: CompiledOperation, at path: [String]? = nil) throws(Unavailable) {
            operationName = operation.name ?? "the operation"
            declared = operation.variables
            let fields = operation.fieldArguments
            let found: CompiledOperation.FieldArguments
            if let path {
                guard let field = fields.first(where: { $0.path == path }) else {
                    throw Unavailable(reason: "\(operationName) has no field \(path.joined(separator: "."))")
                }
                found = field
            } else {
                let paging = Set(Self.cursorArguments + Self.offsetArguments)
                guard let field = fields.first(where: { $0.arguments.contains { paging.contains($0.name) } }) else {
                    throw Unavailable(reason: "\(operationName) has no paginated field: no field of it takes after:, before:, offset: or skip:")
                }
                found = field
            }
            self.path = found.path
            arguments = Set(found.arguments.map(\.name))
            variables = Dictionary(found.arguments.compactMap { argument in argument.variable.map { (argument.name, $0) } }) { first, _ in first }
            if !arguments.isDisjoint(with: Self.cursorArguments) {
                style = .cursor
            } else if !arguments.isDisjoint(with: Self.offsetArguments) {
                style = .offset
            } else {
                throw Unavailable(reason: "\(found.path.joined(separator: ".")) is not paginated in \(operationName): it takes no after:, before:, offset: or skip:")
            }
        }

        /// The field as messages name it: its response keys, dotted.
        package var name: String { path.joined(separator: ".") }

        /// The list whose items ``items(in:)`` gives: `feedConnection.edges`, `feedItems`.
        package var itemsName: String { style == .cursor ? name + ".edges" : name }

        /// The items of the page in `data`: a connection's `edges`, an offset field's list;
        /// nil when the data does not hold them.
        package func items(in data: CacheObject) -> [CacheValue]? {
            let value = style == .cursor ? self.value(in: data)?["edges"] : self.value(in: data)
            guard case .list(let items)? = value else { return nil }
            return items
        }

        /// The field's value in `data`, following its path through objects.
        func value(in data: CacheObject) -> CacheValue? {
            path.dropFirst().reduce(data[path[0]]) { value, key in value?[key] }
        }

        /// The page size: the value (or declared default) of the variable of the first of
        /// `arguments` that has one, with that argument's name.
        func pageSize(_ arguments: [String], in variables: CacheObject) -> (argument: String, value: CacheValue)? {
            for argument in arguments {
                if let variable = self.variables[argument], let value = value(of: variable, in: variables), value != .null { return (argument, value) }
            }
            return nil
        }

        /// What `variable` is in `variables`, else its declared default.
        func value(of variable: String, in variables: CacheObject) -> CacheValue? {
            variables[variable] ?? declared.first { $0.name == variable }?.defaultValue
        }

        /// The variable that `argument` is, or why none is, for the page `direction` asks for.
        func pagingVariable(_ argument: String, for direction: Direction) throws(Unavailable) -> String {
            if let variable = variables[argument] { return variable }
            let page = direction == .next ? "next" : "previous"
            if arguments.contains(argument) { throw Unavailable(reason: "\(name)'s \(argument): is not a variable in \(operationName), so its \(page) page cannot be asked for") }
            throw Unavailable(reason: "\(name) takes no \(argument): in \(operationName), so its \(page) page cannot be asked for")
        }

        static let cursorArguments = ["after", "before"]
        static let offsetArguments = ["offset", "skip"]
    }

    /// The paginated field.
    package let field: Field
    package let direction: Direction
    /// The variables of that page: those of the page given, its cursor or offset moved.
    package let variables: CacheObject

    /// The page after (or before) `page`, the data of `operation` read with `variables`, of
    /// the field at `path` (response keys) or else the first paginated one. `merged`: the
    /// field is one the cache merges pages into, so `page` shows the whole list, and an
    /// offset list starts at 0 whatever `variables` say.
    package init(_ direction: Direction = .next, in operation: CompiledOperation, at path: [String]? = nil,
                 page: CacheObject, variables: CacheObject, merged: Bool = false, askedLast: CacheObject? = nil) throws(Unavailable) {
        try self.init(direction, of: Field(in: operation, at: path), page: page, variables: variables, merged: merged, askedLast: askedLast)
    }

    /// The page after (or before) `page`, read with `variables`, of `field`. When it is
    /// `askedLast`, the page asked for just before, that page did not move the list (an
    /// empty last page, a merge refused): there is none.
    package init(_ direction: Direction = .next, of field: Field, page: CacheObject, variables: CacheObject, merged: Bool = false,
                 askedLast: CacheObject? = nil) throws(Unavailable) {
        self.field = field
        self.direction = direction
        self.variables = switch field.style {
        case .cursor: try Self.cursorPage(direction, of: field, page: page, variables: variables)
        case .offset: try Self.offsetPage(direction, of: field, page: page, variables: variables, merged: merged)
        }
        if self.variables == askedLast {
            throw Unavailable(reason: "\(field.name) has no \(direction.rawValue) page: the one asked for last did not move the list")
        }
    }

    private static func cursorPage(_ direction: Direction, of field: Field, page: CacheObject, variables: CacheObject) throws(Unavailable) -> CacheObject {
        let forward = direction == .next
        let variable = try field.pagingVariable(forward ? "after" : "before", for: direction)
        guard case .object(let connection)? = field.value(in: page) else {
            throw Unavailable(reason: "\(field.name) is not in the page's data (null, or not selected)")
        }
        let has = forward ? "hasNextPage" : "hasPreviousPage"
        if connection["pageInfo"]?[has] == .bool(false) {
            throw Unavailable(reason: "\(field.name) has no \(direction.rawValue) page: pageInfo.\(has) is false")
        }
        var edges: [CacheValue] = []
        if case .list(let list)? = connection["edges"] { edges = list }
        let edge = forward ? edges.last : edges.first
        guard case .string(let cursor)? = connection["pageInfo"]?[forward ? "endCursor" : "startCursor"] ?? edge?["cursor"] else {
            let reason = edges.isEmpty && connection["edges"] != nil ? "the page has no edges" :
                "the page gives no cursor (select pageInfo { \(forward ? "endCursor" : "startCursor") } or edges { cursor })"
            throw Unavailable(reason: "\(field.name) has no \(direction.rawValue) page: \(reason)")
        }
        var next = variables
        next[variable] = .string(cursor)
        if forward {
            for other in ["before", "last"] { if let variable = field.variables[other] { next[variable] = nil } }
        } else {
            // A backward page is `last:` items `before:` the cursor; without a size the server would send everything before it.
            let last = try field.pagingVariable("last", for: direction)
            guard let size = field.pageSize(["last", "first"], in: variables) else {
                throw Unavailable(reason: "\(field.name) has no previous page: its page size is not known (neither last: nor first: has a value)")
            }
            if let after = field.variables["after"] { next[after] = nil }
            next[last] = size.value
            // `first` and `last` together make no backward page: null overrides a declared default.
            if let first = field.variables["first"] {
                if case .nonNull? = field.declared.first(where: { $0.name == first })?.type {
                    throw Unavailable(reason: "\(field.name) has no previous page: its first: is $\(first), a non-null variable, "
                                      + "and a page before a cursor takes last: alone")
                }
                next[first] = .null
            }
        }
        return next
    }

    private static func offsetPage(_ direction: Direction, of field: Field, page: CacheObject, variables: CacheObject,
                                   merged: Bool) throws(Unavailable) -> CacheObject {
        let variable = try field.pagingVariable(field.arguments.contains("offset") ? "offset" : "skip", for: direction)
        guard let items = field.items(in: page) else {
            throw Unavailable(reason: "\(field.name) is not a list in the page's data (null, or not selected)")
        }
        // A merged list holds its items by position from 0 (PageMerge), whatever offset the watcher asked with.
        let offset = merged ? 0 : field.value(of: variable, in: variables).flatMap(Self.count) ?? 0
        let sizeArgument = field.pageSize(["limit", "first"], in: variables)
        let size = sizeArgument.flatMap { Self.count($0.value) }
        var next = variables
        switch direction {
        case .next:
            if items.isEmpty { throw Unavailable(reason: "\(field.name) has no next page: the page has no items") }
            if let size, let sizeArgument, size > 0, items.count % size != 0 {
                throw Unavailable(reason: "\(field.name) has no next page: its last page has \(items.count % size) items, fewer than \(sizeArgument.argument) \(size)")
            }
            next[variable] = .int(Int64(offset + items.count))
        case .previous:
            if merged { throw Unavailable(reason: "\(field.name) has no previous page: it is merged by position from \(variable) 0") }
            if offset == 0 { throw Unavailable(reason: "\(field.name) has no previous page: its \(variable) is 0") }
            guard let size, size > 0 else {
                throw Unavailable(reason: "\(field.name) has no previous page: its page size is not known (its limit: is not a variable)")
            }
            next[variable] = .int(Int64(max(0, offset - size)))
        }
        return next
    }

    /// A whole number of items: an int, or a double with no fraction.
    private static func count(_ value: CacheValue) -> Int? {
        switch value {
        case .int(let int): Int(int)
        case .double(let double) where double == double.rounded() && abs(double) < 1e15: Int(double)
        default: nil
        }
    }
}
