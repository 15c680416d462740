/// The age of a field judged from its record alone (a `__typename` is never stale), for `.inspect` and `.gc stale`: its
/// max age by ``MaxAges`` as a root field or a field with no parent field (a rule that
/// inherits takes none), the field's name its key's up to its arguments, its type the
/// schema's or, without one, composite when it holds a reference. A read along a path
/// (``AgeJudge``) may find a field stale that this does not: a parent's max age is known
/// there.
///
/// ```swift
/// let ages = FieldAges(state)
/// ages.age(RecordField(record: trip, field: name))   // (received, 300, Verdict(age: 420, …))
/// ```
struct FieldAges {
    private let state: EngineState
    private let judge: AgeJudge?
    private let rules: MaxAges

    init(_ state: EngineState) {
        self.state = state
        rules = AgeJudge.rules(of: state)
        judge = AgeJudge.judges(state) ? AgeJudge(state) : nil
    }

    /// When the field was received, its max age (nil: never stale) and, when stale, the verdict.
    func age(_ pair: RecordField) -> (received: ReceivedTimes.Receipt?, maxAge: Double?, verdict: AgeJudge.Verdict?) {
        let received = state.received.received(pair.record, pair.field)
        guard let judge, let received, pair.field != state.keys.typenameField else { return (received, nil, nil) }
        let key = state.keys.recordKey(pair.record)
        let root = [CompiledOperation.Kind.query, .mutation, .subscription].first { $0.rootKey == key }
        guard let typename = root.map(state.schema.rootType) ?? state.typename(of: pair.record) else { return (received, received.maxAge, nil) }
        let fieldKey = state.keys.fieldKey(pair.field)
        let name = fieldKey.firstIndex(of: "(").map { String(fieldKey[..<$0]) } ?? fieldKey
        var composite = false
        state.records.base[pair.record]?.value(of: pair.field)?.forEachReference { _ in composite = true }
        let schema = state.schema.declaredTypes
        let ruled = rules.maxAge(of: name, on: typename, supertypes: schema.supertypes(of: typename), returning: schema.outputFields(of: typename)?[name]?.namedType,
                                       composite: composite, rootField: root != nil, parent: .infinity)
        let maxAge = min(ruled, received.maxAge ?? .infinity)
        return (received, maxAge.isFinite ? maxAge : nil, judge.verdict(received, maxAge: ruled))
    }
}
