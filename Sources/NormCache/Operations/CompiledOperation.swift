import NormAPI

/// A GraphQL operation compiled once into a selection plan: what the engine walks to
/// write a response into records and to read it back. Build one with
/// ``NormalizedCache/operation(_:name:)``, which caches plans by the document's hash.
/// (Not `Operation`: that name is Foundation's, and an app's files import both.)
///
/// ```swift
/// let op = try cache.operation("query Hero($ep: Episode) { hero(episode: $ep) { name } }")
/// op.name         // "Hero"
/// op.kind         // .query
/// op.variables    // [$ep: Episode]
/// ```
public final class CompiledOperation: Sendable {
    public enum Kind: String, Sendable {
        case query, mutation, subscription

        /// The record a response of this kind is written under.
        public var rootKey: String {
            switch self {
            case .query: "QUERY_ROOT"
            case .mutation: "MUTATION_ROOT"
            case .subscription: "SUBSCRIPTION_ROOT"
            }
        }

        /// The keys of the three roots.
        static let allRootKeys = [Kind.query, .mutation, .subscription].map(\.rootKey)
    }

    /// A declared variable: `$first: Int = 10`.
    public struct Variable: Sendable, Equatable, CustomStringConvertible {
        public let name: String
        /// The declared type, wrappers included (`Int`, `[ID!]!`, `TripFilter`).
        public let type: TypeReference
        /// The declared default, coerced to ``type`` (`$x: Float = 3` has `3.0`).
        public let defaultValue: CacheValue?

        public var description: String { "$\(name): \(type)" }
    }

    public let name: String?
    public let kind: Kind
    /// Marked `@apollo_client_ios_localCacheMutation`: Apollo iOS only reads it from and
    /// writes it to the cache, and never sends it (``FetchPolicy`` in NormClient keeps it home).
    public let isLocalCacheMutation: Bool
    public let variables: [Variable]
    /// The document text the operation was compiled from.
    public let source: String
    /// The text a server gets: ``source`` with `__typename` added to every selection set
    /// below the root (`{ trips { id } }` → `{ trips { __typename id } }`).
    public let networkDocument: String
    let selections: SelectionPlan
    /// Whether some fragment of the operation has a `@defer`: its response may come in parts.
    package let defers: Bool
    /// How many fields the plan has; each ``FieldPlan`` has an `index` below it.
    let fieldCount: Int
    /// The type conditions the document itself shows to be object types: those under which
    /// one response key names another field or other arguments than beside them, which
    /// GraphQL's validation allows only between object types. No other type satisfies one.
    let objectTypeConditions: Set<String>

    init(name: String?, kind: Kind, isLocalCacheMutation: Bool = false, variables: [Variable], source: String, networkDocument: String,
         selections: SelectionPlan, fieldCount: Int, objectTypeConditions: Set<String>) {
        self.name = name
        self.kind = kind
        self.isLocalCacheMutation = isLocalCacheMutation
        self.variables = variables
        self.source = source
        self.networkDocument = networkDocument
        self.selections = selections
        self.defers = selections.hasDeferrals
        self.fieldCount = fieldCount
        self.objectTypeConditions = objectTypeConditions
    }
}

/// Why a document could not be compiled, with its place in the document.
public struct OperationError: Error, Equatable, CustomStringConvertible {
    public let message: String
    /// 1-based, when the problem has a place.
    public let line: Int?
    public let column: Int?

    init(_ message: String, line: Int? = nil, column: Int? = nil) {
        self.message = message
        self.line = line
        self.column = column
    }

    public var description: String {
        if let line, let column { return "GraphQL error at line \(line), column \(column): \(message)" }
        return "GraphQL error: \(message)"
    }
}

/// The fields of one selection set, with fragments flattened into guards on each field.
final class SelectionPlan: Sendable {
    let fields: [FieldPlan]
    /// True when some field has a type condition, an `@include`/`@skip` or a `@defer`: then
    /// the fields that apply, or must be there, depend on the object's type or the variables.
    let isConditional: Bool
    /// True when no two fields have the same name, so no two can have the same field key
    /// (a key starts with the name): a record staged from one object under this plan
    /// meets each field key once.
    let hasDistinctNames: Bool

    /// Each field's response key, in order: the keys of every object read under a plan
    /// without conditions share this one array.
    let responseKeys: [String]

    /// Whether a field here or below has a `@defer`.
    var hasDeferrals: Bool {
        fields.contains { !$0.deferrals.isEmpty || $0.selections?.hasDeferrals == true }
    }

    /// ``fields`` again, unretained: the plan holds each field for as long as it lives.
    private let unretainedFields: [Unmanaged<FieldPlan>]

    init(fields: [FieldPlan]) {
        self.fields = fields
        self.responseKeys = fields.map(\.responseKey)
        self.unretainedFields = fields.map(Unmanaged.passUnretained)
        self.isConditional = fields.contains { !$0.typeConditions.isEmpty || !$0.conditions.isEmpty || !$0.deferrals.isEmpty }
        self.hasDistinctNames = Set(fields.map(\.name)).count == fields.count
    }

    /// Calls `body` with each field and its position, in order. Unlike a `for` loop over
    /// ``fields`` it retains and releases nothing per field (a tenth of a large write's
    /// time went to that).
    @inline(__always)
    func forEachField<Failure: Error>(_ body: (Int, FieldPlan) throws(Failure) -> Void) throws(Failure) {
        for position in unretainedFields.indices {
            do {
                try unretainedFields[position]._withUnsafeGuaranteedRef { try body(position, $0) }
            } catch {
                throw error as! Failure  // body is the only thrower
            }
        }
    }
}

/// One field of a selection set (a class: walking a plan then retains nothing per field).
final class FieldPlan: Sendable {
    /// Dense within its operation, so engines can keep per-field data in an array.
    let index: Int
    /// The alias, or the name.
    let responseKey: String
    let name: String
    let arguments: [(name: String, value: ArgumentTemplate)]
    /// The field key when it does not depend on variables (no arguments, or literals only).
    let staticKey: String?
    /// Fragment type conditions the object's type must satisfy, outermost first.
    let typeConditions: [String]
    /// `@include` / `@skip` conditions, all of which must hold.
    let conditions: [Condition]
    /// The `@defer`s of the fragments that lead to the field, outermost first: when one
    /// holds, the field comes in a later part of the response (``isDeferred(under:)``).
    let deferrals: [Deferral]
    /// The sub-selection of an object-typed field.
    let selections: SelectionPlan?

    init(index: Int, responseKey: String, name: String, arguments: [(name: String, value: ArgumentTemplate)], staticKey: String?,
         typeConditions: [String], conditions: [Condition], deferrals: [Deferral] = [], selections: SelectionPlan?) {
        self.index = index
        self.responseKey = responseKey
        self.name = name
        self.arguments = arguments
        self.staticKey = staticKey
        self.typeConditions = typeConditions
        self.conditions = conditions
        self.deferrals = deferrals
        self.selections = selections
    }

    /// A fragment's `@defer(label:if:)`, numbered in its operation (the fields of one
    /// fragment share it); `condition` is its `if: $variable`, nil when it always defers.
    struct Deferral: Sendable, Equatable {
        let number: Int
        let label: String?
        let condition: Condition?
    }

    /// Whether the field comes in a later part of the response under `variables`: one of
    /// its fragments' `@defer`s holds.
    func isDeferred(under variables: CacheObject) -> Bool {
        deferredPart(under: variables) != nil
    }

    /// The number of the innermost of its fragments' `@defer`s that holds under
    /// `variables`: the part the field comes in; nil when none holds.
    func deferredPart(under variables: CacheObject) -> Int? {
        deferrals.last { $0.condition?.holds(under: variables) ?? true }?.number
    }

    /// `@include(if:)` (`include` true) or `@skip(if:)` (`include` false) on a literal or a variable.
    struct Condition: Sendable, Equatable {
        enum Value: Sendable, Equatable {
            case literal(Bool)
            case variable(String)
        }
        let include: Bool
        let value: Value

        func holds(under variables: CacheObject) -> Bool {
            switch value {
            case .literal(let literal): literal == include
            case .variable(let name): InclusionCondition(include: include, variable: name).holds(variables[name]?.boolValue)
            }
        }
    }

    /// Whether the field's `@include`/`@skip` conditions hold under `variables` (a
    /// variable's as ``InclusionCondition`` decides: absent or null is false).
    func isIncluded(under variables: CacheObject) -> Bool {
        conditions.allSatisfy { $0.holds(under: variables) }
    }
}

/// An argument value as written in the document; variables are substituted per execution.
indirect enum ArgumentTemplate: Sendable {
    case literal(ArgumentValue)
    case variable(String)
    case list([ArgumentTemplate])
    case object([(name: String, value: ArgumentTemplate)])

    var hasVariables: Bool {
        switch self {
        case .literal: false
        case .variable: true
        case .list(let items): items.contains { $0.hasVariables }
        case .object(let fields): fields.contains { $0.value.hasVariables }
        }
    }
}
