/// What a read that judges fields' ages keeps (``AgeJudge``); a plain read, or one where
/// nothing can be stale, carries none, so its reader holds one nil reference for it. The
/// max age of the field being read and of the field holding its object follow the read
/// down; the max ages of a selection's fields are worked out once per selection, type and
/// parent's max age (``MaxAges/maxAge(of:on:returning:composite:rootField:parent:)``).
///
/// ```swift
/// let ages = AgeJudge.judges(state) ? ReadAges(state) : nil   // nil: nothing can be stale
/// let fields = ages?.maxAges(of: plan, typename: "Trip", rootField: false, declared: nil)
/// ```
final class ReadAges {
    let judge: AgeJudge
    let rules: MaxAges
    /// The max age of the field being read, and of the field holding the object it is read from.
    var field = Double.infinity
    var parent = Double.infinity
    private var met: [(plan: ObjectIdentifier, typename: String, parent: Double, ages: [Double])] = []

    /// What a read in `state` keeps, once ``AgeJudge/judges(_:)`` says it judges ages (a
    /// failable initializer of a class would allocate it before saying no).
    init(_ state: EngineState) {
        judge = AgeJudge(state)
        rules = AgeJudge.rules(of: state)
    }

    /// The max ages of `plan`'s fields read from an object of type `typename` under the
    /// current parent's; `declared` its type's output fields, when a schema says (asked
    /// only the first time).
    func maxAges(of plan: SelectionPlan, typename: String, rootField: Bool,
                 declared fields: @autoclosure () -> [String: TypeReference]?) -> [Double] {
        let id = ObjectIdentifier(plan)
        if let known = met.first(where: { $0.plan == id && $0.parent == parent && $0.typename == typename }) { return known.ages }
        let declared = fields()
        let found = plan.fields.map { field in
            rules.maxAge(of: field.name, on: typename, returning: declared?[field.name]?.namedType,
                         composite: field.selections != nil, rootField: rootField, parent: parent)
        }
        met.append((id, typename, parent, found))
        return found
    }
}
