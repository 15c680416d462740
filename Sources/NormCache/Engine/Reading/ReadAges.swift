/// What a read that judges fields' ages keeps (``AgeJudge``); a plain read, or one where
/// nothing can be stale, carries none (its reader's optional is nil: nothing to copy or
/// count references of, as a field of a class would have). The
/// max age of the field being read and of the field holding its object follow the read
/// down; the max ages of a selection's fields are worked out once per selection, type and
/// parent's max age (``MaxAges/maxAge(of:on:supertypes:returning:composite:rootField:parent:)``).
///
/// ```swift
/// var ages = AgeJudge.judges(state) ? ReadAges(state) : nil   // nil: nothing can be stale
/// let fields = ages?.maxAges(of: plan, typename: "Trip", rootField: false, declared: nil)
/// ```
struct ReadAges {
    let judge: AgeJudge
    let rules: MaxAges
    /// The max age of the field being read, and of the field holding the object it is read from.
    var field = Double.infinity
    var parent = Double.infinity
    private var met: [(plan: ObjectIdentifier, typename: String, parent: Double, ages: [Double])] = []
    /// The record being read: the age of the receipt its fields share (−∞ when unknown) and
    /// the max age that receipt came with, or `ownFields` when some fields have their own,
    /// so that a field of the common record, one receipt for all, is judged by a comparison.
    private(set) var record = (age: -Double.infinity, limit: Double.infinity, ownFields: false)

    /// What a read in `state` keeps, once ``AgeJudge/judges(_:)`` says it judges ages.
    init(_ state: EngineState) {
        judge = AgeJudge(state)
        rules = AgeJudge.rules(of: state)
    }

    /// Whether the field being read may be stale (exact unless its record's fields have
    /// receipts of their own: then its own is to be looked up).
    @inline(__always) var fieldMayBeStale: Bool { record.ownFields || record.age >= min(field, record.limit) }

    /// Starts reading `id`'s fields; returns the record read before, for ``leave(_:)``.
    @inline(__always) mutating func enter(_ id: UInt32, received: ReceivedTimes) -> (age: Double, limit: Double, ownFields: Bool) {
        let outer = record
        let (shared, ownFields) = received.received(id)
        record = (shared.map { judge.now - $0.at } ?? -.infinity, shared?.maxAge ?? .infinity, ownFields)
        return outer
    }

    /// Back to the record read before.
    @inline(__always) mutating func leave(_ outer: (age: Double, limit: Double, ownFields: Bool)) { record = outer }

    /// The max ages of `plan`'s fields read from an object of type `typename` under the
    /// current parent's; `schema` what the schema declares (asked only the first time).
    mutating func maxAges(of plan: SelectionPlan, typename: String, rootField: Bool,
                          schema: @autoclosure () -> PossibleTypes) -> [Double] {
        let id = ObjectIdentifier(plan)
        if let known = met.first(where: { $0.plan == id && $0.parent == parent && $0.typename == typename }) { return known.ages }
        let schema = schema()
        let declared = schema.outputFields(of: typename), supertypes = schema.supertypes(of: typename)
        let found = plan.fields.map { field in
            rules.maxAge(of: field.name, on: typename, supertypes: supertypes, returning: declared?[field.name]?.namedType,
                         composite: field.selections != nil, rootField: rootField, parent: parent)
        }
        met.append((id, typename, parent, found))
        return found
    }
}
