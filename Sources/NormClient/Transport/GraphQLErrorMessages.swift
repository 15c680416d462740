import NormCache

/// The messages of a server's GraphQL errors, as NormClient's errors word them (the
/// workbench's result lines add each error's path): each error's `message`, or its JSON
/// when it has none. `errors` is a response's `errors` list, or one error object
/// (`graphql-ws` sends one as an `error` payload); none for nil or null.
///
/// ```swift
/// graphQLErrorMessages(response["errors"])   // ["Cannot query field 'nope' on type 'Query'."]
/// ```
func graphQLErrorMessages(_ errors: CacheValue?) -> [String] {
    let list: [CacheValue] = switch errors {
    case nil, .null?: []
    case .list(let errors)?: errors
    case let one?: [one]
    }
    return list.map { error in
        if case .string(let message)? = error["message"] { return message }
        return JSON.string(error)
    }
}
