/// GraphQL's "Coercing Variable Values", done before an operation runs, so that the
/// server gets, and every field key holds, one spelling of each accepted value.
///
/// Only the variables the operation declares are kept. A variable left out takes its
/// default, if it has one; without a default, one of a non-null type (`Int!`) is an
/// error and any other stays out. A given value goes through the input coercion of its
/// declared type:
/// - `Int`: a 32-bit integer; a number with no fraction counts as one (`3.0` is `3`).
/// - `Float`: any number, kept as a double (`30` is `30.0`).
/// - `String`: a string. `ID`: a string or an integer, kept as a string (`2` is `"2"`).
/// - `Boolean`: a boolean.
/// - A list type: a list, each item coerced, or a single value, which becomes a list of one.
/// - `T!`: anything `T` accepts except null. A nullable type keeps an explicit null.
/// - Any other named type (an enum, a custom scalar, an input object) is accepted as given,
///   except that the fields of an input object the schema knows are coerced to their types.
///
/// ```swift
/// let op = try cache.operation("query ($first: Int!, $ids: [ID!]) { trips(first: $first, ids: $ids) { id } }")
/// try cache.coerceVariables(["first": 3.0, "ids": 7], for: op)   // ["first": 3, "ids": ["7"]]
/// try cache.coerceVariables(["first": "3"], for: op)
/// // throws: variable $first of type Int! cannot be "3" (a string)
/// ```
enum VariableCoercion {
    static func coerce(_ given: CacheObject, for variables: [CompiledOperation.Variable], schema: PossibleTypes) throws(VariableError) -> CacheObject {
        var coerced = CacheObject(capacity: variables.count)
        for variable in variables {
            // A default is coerced too: this schema may know more of its input objects than the compiler did.
            guard let value = given[variable.name] ?? variable.defaultValue else {
                if case .nonNull = variable.type {
                    throw VariableError(variable: variable, path: "", expected: variable.type, problem: "was not given")
                }
                continue
            }
            do { coerced.appendNew(variable.name, try coerce(value, to: variable.type, schema: schema)) } catch {
                throw VariableError(variable: variable, path: error.path, expected: error.expected, problem: error.problem)
            }
        }
        return coerced
    }

    /// `value` coerced to `type`, or what was wrong and where inside the value.
    static func coerce(_ value: CacheValue, to type: TypeReference, schema: PossibleTypes, path: String = "") throws(Failure) -> CacheValue {
        switch (type, value) {
        case (.nonNull, .null):
            throw Failure(path: path, expected: type, problem: "cannot be null")
        case (.nonNull(let inner), _):
            return try coerce(value, to: inner, schema: schema, path: path)
        case (_, .null):
            return .null
        case (.list(let item), .list(let items)):
            var result: [CacheValue] = []
            result.reserveCapacity(items.count)
            for (index, member) in items.enumerated() {
                result.append(try coerce(member, to: item, schema: schema, path: path + "[\(index)]"))
            }
            return .list(result)
        case (.list(let item), _):
            return .list([try coerce(value, to: item, schema: schema, path: path)])
        case (.named(let name), _):
            return try coerce(value, named: name, schema: schema, path: path)
        }
    }

    /// `value` coerced to the named type `name`; see ``VariableCoercion``.
    private static func coerce(_ value: CacheValue, named name: String, schema: PossibleTypes, path: String) throws(Failure) -> CacheValue {
        func refuse(_ why: String? = nil) -> Failure {
            Failure(path: path, expected: .named(name), problem: "cannot be \(value.shortJSON) (\(why ?? value.kindDescription))")
        }
        switch (name, value) {
        case ("Int", .int(let int)):
            guard Int32(exactly: int) != nil else { throw refuse("outside the 32 bits of an Int") }
            return value
        case ("Int", .double(let double)):
            guard double.rounded() == double else { throw refuse("a float with a fraction") }
            guard let int = Int32(exactly: double) else { throw refuse("outside the 32 bits of an Int") }
            return .int(Int64(int))
        case ("Float", .int(let int)): return .double(Double(int))
        case ("Float", .double), ("String", .string), ("ID", .string), ("Boolean", .bool): return value
        case ("ID", .int(let int)): return .string(String(int))
        case ("Int", _), ("Float", _), ("String", _), ("ID", _), ("Boolean", _): throw refuse()
        case (_, .object(let object)):
            var fields = CacheObject(capacity: object.count)
            for (key, member) in object.members {
                guard let fieldType = schema.inputFieldType(name, key) else {
                    fields.appendNew(key, member)
                    continue
                }
                fields.appendNew(key, try coerce(member, to: fieldType, schema: schema, path: path + "." + key))
            }
            return .object(fields)
        default:
            return value
        }
    }

    /// What was wrong, at `path` inside the variable's value (`[1]`, `.range.max`).
    struct Failure: Error {
        let path: String
        let expected: TypeReference
        let problem: String
    }
}

/// A variable's value that its declared type does not accept, or a required variable
/// that was not given; nothing ran.
///
/// ```swift
/// // query ($first: Int!) { trips(first: $first) { id } }, run without variables:
/// error.description   // variable $first of type Int! was not given
/// // query ($ids: [Int!]) { ... } with {"ids": [1, "2"]}:
/// error.description   // variable $ids of type [Int!]: $ids[1] of type Int! cannot be "2" (a string)
/// ```
public struct VariableError: Error, Equatable, CustomStringConvertible {
    /// The variable's name, without `$`.
    public let variable: String
    /// Its declared type.
    public let type: TypeReference
    /// Where inside its value the problem is: empty for the value itself, `[1]`, `.range.max`.
    public let path: String
    /// The type expected there.
    public let expected: TypeReference
    /// `was not given`, `cannot be null`, `cannot be "3" (a string)`.
    public let problem: String

    init(variable: CompiledOperation.Variable, path: String, expected: TypeReference, problem: String) {
        self.variable = variable.name
        self.type = variable.type
        self.path = path
        self.expected = expected
        self.problem = problem
    }

    public var description: String {
        let declared = "variable $\(variable) of type \(type)"
        return path.isEmpty ? "\(declared) \(problem)" : "\(declared): $\(variable)\(path) of type \(expected) \(problem)"
    }
}
