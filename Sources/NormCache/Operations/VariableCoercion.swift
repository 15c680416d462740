/// GraphQL's "Coercing Variable Values", done before an operation runs, so that the
/// server gets, and every field key holds, one spelling of each accepted value, and a
/// value the schema refuses never leaves: this is the one place variables are checked,
/// for the cache's reads, writes and watches and for every request a client sends.
///
/// A given variable the operation does not declare is an error (a misspelt name would
/// otherwise vanish). A declared one left out takes its default, if it has one; without
/// a default, one of a non-null type (`Int!`) is an error and any other stays out. A given
/// value goes through the input coercion of its declared type:
/// - `Int`: a 32-bit integer; a number with no fraction counts as one (`3.0` is `3`).
/// - `Float`: any number, kept as a double (`30` is `30.0`).
/// - `String`: a string. `ID`: a string or an integer, kept as a string (`2` is `"2"`).
/// - `Boolean`: a boolean.
/// - A list type: a list, each item coerced, or a single value, which becomes a list of one.
/// - `T!`: anything `T` accepts except null. A nullable type keeps an explicit null.
/// - An enum the schema knows: a string naming one of its values.
/// - An input object the schema knows: an object with none but its fields, each coerced
///   to its type, every required field (non-null, no default) given; a `@oneOf` one gives
///   exactly one field, not null. Fields left out stay out (their defaults are the
///   server's to fill, as Apollo iOS leaves them).
/// - Any other named type (a custom scalar, or a type no schema at hand defines) is
///   accepted as given.
///
/// The schema is the endpoint's (``SchemaKnowledge``), else the cache's own; with none,
/// only the built-in scalars, lists and non-null are checked.
///
/// ```swift
/// let op = try cache.operation("query ($first: Int!, $ids: [ID!]) { trips(first: $first, ids: $ids) { id } }")
/// try cache.coerceVariables(["first": 3.0, "ids": 7], for: op)   // ["first": 3, "ids": ["7"]]
/// try cache.coerceVariables(["first": "3"], for: op)
/// // throws: $first: Int cannot be "3" (a string)
/// ```
enum VariableCoercion {
    static func coerce(_ given: CacheObject, for variables: [CompiledOperation.Variable], schema: PossibleTypes) throws(VariableError) -> CacheObject {
        for (name, _) in given.members where !variables.contains(where: { $0.name == name }) {
            throw undeclared(name, among: variables)
        }
        var coerced = CacheObject(capacity: variables.count)
        for variable in variables {
            // A default is coerced too: this schema may know more of its input objects than the compiler did.
            guard let value = given[variable.name] ?? variable.defaultValue else {
                if case .nonNull = variable.type {
                    throw VariableError(variable: variable.name, path: "", problem: "missing; the operation requires $\(variable.name): \(variable.type)")
                }
                continue
            }
            coerced.appendNew(variable.name, try coerce(value, as: variable, schema: schema))
        }
        return coerced
    }

    /// The error for a variable `name` that an operation declaring `variables` does not declare.
    static func undeclared(_ name: String, among variables: [CompiledOperation.Variable]) -> VariableError {
        let declared = variables.map { "$\($0.name): \($0.type)" }.joined(separator: ", ")
        return VariableError(variable: name, path: "", problem: "not declared by the operation (it declares \(declared.isEmpty ? "none" : declared))")
    }

    /// `value` coerced as `variable` takes it.
    static func coerce(_ value: CacheValue, as variable: CompiledOperation.Variable, schema: PossibleTypes) throws(VariableError) -> CacheValue {
        do { return try coerce(value, to: variable.type, schema: schema) } catch {
            throw VariableError(variable: variable.name, path: error.path, problem: error.problem)
        }
    }

    /// `value` coerced to `type`, or what was wrong and where inside the value.
    static func coerce(_ value: CacheValue, to type: TypeReference, schema: PossibleTypes, path: String = "") throws(Failure) -> CacheValue {
        switch (type, value) {
        case (.nonNull, .null):
            throw Failure(path: path, problem: "\(type) cannot be null")
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
            Failure(path: path, problem: "\(name) cannot be \(value.shortJSON) (\(why ?? value.kindDescription))")
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
        default: break
        }
        if let values = schema.enumValues(of: name) {
            if case .string(let given) = value, values.isEmpty || values.contains(given) { return value }
            let shown = if case .string = value { value.shortJSON } else { "\(value.shortJSON) (\(value.kindDescription))" }
            throw Failure(path: path, problem: "\(shown) is not a value of \(name) (\(values.joined(separator: ", ")))")
        }
        if let input = schema.inputObject(name) {
            guard case .object(let object) = value else { throw refuse("\(value.kindDescription), not an object") }
            return .object(try coerce(object, to: input, named: name, schema: schema, path: path))
        }
        return value
    }

    /// An input object's value checked and coerced field by field: no field the type does
    /// not have, `@oneOf`'s one field, then each given field, then the required ones.
    private static func coerce(_ object: CacheObject, to input: InputObjectType, named name: String,
                               schema: PossibleTypes, path: String) throws(Failure) -> CacheObject {
        let given = try object.members.map { (key, value) throws(Failure) in
            guard let field = input.field(key) else {
                throw Failure(path: path + "." + key,
                              problem: "\(name) has no field \(key) (its fields: \(input.fields.map(\.name).joined(separator: ", ")))")
            }
            return (field: field, value: value)
        }
        if input.isOneOf {
            guard given.count == 1 else {
                let got = given.isEmpty ? "0" : "\(given.count) (\(given.map(\.field.name).joined(separator: ", ")))"
                throw Failure(path: path, problem: "@oneOf \(name) takes exactly one field, got \(got)")
            }
            if given[0].value == .null {
                throw Failure(path: path + "." + given[0].field.name, problem: "@oneOf \(name) takes exactly one field, and not null")
            }
        }
        var fields = CacheObject(capacity: object.count)
        for (field, value) in given {
            fields.appendNew(field.name, try coerce(value, to: field.type, schema: schema, path: path + "." + field.name))
        }
        for field in input.fields where field.isRequired && object[field.name] == nil {
            throw Failure(path: path + "." + field.name, problem: "missing; \(name) requires \(field.name): \(field.type)")
        }
        return fields
    }

    /// What was wrong, at `path` inside the variable's value (`[1]`, `.range.max`), and
    /// what the type there wants.
    struct Failure: Error {
        let path: String
        let problem: String
    }
}

/// A variable the schema refuses, a required one not given, or one the operation does
/// not declare; nothing ran, and nothing was sent. It names where in the value the
/// problem is and what the type there wants.
///
/// ```swift
/// // query ($first: Int!) { trips(first: $first) { id } }, run without variables:
/// error.description   // $first: missing; the operation requires $first: Int!
/// // mutation ($review: ReviewInput!) { ... } with {"review": {"commentary": "Great"}}:
/// error.description   // $review.stars: missing; ReviewInput requires stars: Int!
/// ```
public struct VariableError: Error, Equatable, CustomStringConvertible {
    /// The variable's name, without `$`.
    public let variable: String
    /// Where inside its value the problem is: empty for the value itself, `[1]`, `.range.max`.
    public let path: String
    /// What is wrong there and what the type wants: `Int cannot be "3" (a string)`,
    /// `"JEDIX" is not a value of Episode (NEWHOPE, EMPIRE, JEDI)`.
    public let problem: String

    init(variable: String, path: String, problem: String) {
        self.variable = variable
        self.path = path
        self.problem = problem
    }

    public var description: String { "$\(variable)\(path): \(problem)" }
}
