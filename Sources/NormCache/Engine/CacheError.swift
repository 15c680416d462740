/// Why the cache refused a request. The cache is unchanged after any of them.
public enum CacheError: Error, Equatable, CustomStringConvertible {
    case operation(OperationError)
    /// A variable's value does not fit its declared type, or a required one is missing.
    case variable(VariableError)
    case json(JSONError)
    case response(ResponseError)
    case key(KeyError)
    /// The store behind the cache failed; its message.
    case storage(String)
    /// A request that names something the cache does not have, or is malformed.
    case invalid(String)

    public var description: String {
        switch self {
        case .operation(let error): "\(error)"
        case .variable(let error): "\(error)"
        case .json(let error): "\(error)"
        case .response(let error): "\(error)"
        case .key(let error): "\(error)"
        case .storage(let message): "storage failed: \(message)"
        case .invalid(let message): message
        }
    }
}
