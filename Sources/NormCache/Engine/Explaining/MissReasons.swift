/// The reason a field was missing from a read, and the nearest data the cache holds: the
/// one owner of the order the reasons are tried in, most specific first (docs/explain.md).
/// It looks at the cache as it is (the lock held), so it runs at the read, before a fetch
/// writes the answer.
///
/// ```swift
/// let reasons = MissReasons(state: state, variables: variables)
/// try reasons.explain(pair, field: plan, root: root).reason.code   // .otherArguments
/// ```
final class MissReasons {
    let state: EngineState
    let variables: CacheObject
    /// Every record field that refers to each record: made once, when a read's misses first
    /// need it (a dangling reference), for all of them.
    private lazy var referrers: [UInt32: [String]] = Self.referrers(state)

    init(state: EngineState, variables: CacheObject) {
        self.state = state
        self.variables = variables
    }

    /// Why `field` of the record in `pair` was absent. `root`: the operation's root record and type.
    func explain(_ pair: RecordField, field: FieldPlan, root: (record: UInt32, typename: String)) throws(CacheError) -> MissExplanation {
        let name = state.keys.name(pair), recordKey = state.keys.recordKey(pair.record)
        let fieldKey = state.keys.fieldKey(pair.field)
        func miss(_ reason: WhyReason, nearest: [String] = []) -> MissExplanation { MissExplanation(field: name, reason: reason, nearest: nearest) }

        if pair.record != root.record, !state.records.recordExists(pair.record) {
            let referrers = (referrers[pair.record] ?? []).sorted()
            return miss(WhyReason(.danglingReference,
                                  "\(recordKey) is not in the cache" + (referrers.isEmpty ? "" : ", though \(referrers.joined(separator: ", ")) refers to it")
                                  + ": it was evicted or removed, or never written",
                                  hint: "fetch it again (network-only writes the record and what refers to it), or drop the references to it (.gc dangling)"), nearest: referrers)
        }
        let others = state.records.visibleFields(pair.record).map { state.keys.fieldKey($0.0) }
            .filter { $0 != fieldKey && $0.prefix { $0 != "(" } == field.name }.sorted()
        if !others.isEmpty {
            return miss(WhyReason(.otherArguments,
                                  "\(recordKey) holds \(field.name) only with other arguments: \(others.joined(separator: ", "))",
                                  hint: "each set of arguments is cached apart: a fetch with these arguments writes this one"),
                        nearest: others.map { recordKey + "." + $0 })
        }
        let parentType = pair.record == root.record ? root.typename : state.typename(of: pair.record)
        if let parentType, field.selections != nil, let (argument, target) = try redirectCandidate(field, on: parentType) {
            return miss(WhyReason(.fieldPolicyWouldRedirect,
                                  "\(name) was never written, but \(target) holds the object it asks for (\(argument): \(argumentText(field, argument)))",
                                  hint: "extend type \(parentType) @fieldPolicy(forField: \"\(field.name)\", keyArgs: \"\(argument)\") in the schema, "
                                        + "and reads answer it from \(target)"),
                        nearest: [target])
        }
        if let parentType, let same = try sameObject(as: pair.record, having: pair.field) {
            return miss(WhyReason(.otherKey,
                                  "\(recordKey) lacks \(fieldKey), but the same \(parentType) kept as \(same) has it: one object under two keys",
                                  hint: "key \(parentType) by its id (.keyfields \(parentType) id, or @typePolicy(keyFields: \"id\") in the schema) so both are one record"),
                        nearest: [same + "." + fieldKey])
        }
        if !field.typeConditions.isEmpty {
            let cases = field.typeConditions.map { "... on \($0)" }.joined(separator: " ")
            return miss(WhyReason(.typeCase,
                                  "only the type case \(cases) selects \(field.name), and \(recordKey)" + (parentType.map { ", a \($0)," } ?? "")
                                  + " was written by responses that did not select it",
                                  hint: "a fetch of an operation with this type case writes it"))
        }
        return miss(WhyReason(.notFetched, "no response has written \(fieldKey) of \(recordKey) yet",
                              hint: "a fetch writes it (cache-first sends one for a missing field)"))
    }

    /// For each record, the fields of other records that refer to it (`QUERY_ROOT.trips`).
    /// Among the records loaded: the read loaded the fields that led it to the record, and
    /// a lazily opened file is not read whole for an explanation.
    private static func referrers(_ state: EngineState) -> [UInt32: [String]] {
        var referrers: [UInt32: [String]] = [:]
        for holder in state.records.base.ids {
            for (field, value) in state.records.visibleFields(holder) {
                var named = Set<UInt32>()
                value.forEachReference { named.insert($0) }
                for record in named { referrers[record, default: []].append(state.keys.recordKey(holder) + "." + state.keys.fieldKey(field)) }
            }
        }
        return referrers
    }

    /// An argument of `field` that, as a field policy's key argument, would name a record
    /// the cache holds, with that record's key.
    private func redirectCandidate(_ field: FieldPlan, on parentType: String) throws(CacheError) -> (String, String)? {
        for argument in field.arguments.map(\.name).sorted() {
            guard let targets = try state.schema.redirectTargets(of: field, on: parentType, keyArguments: [argument], variables: variables, keys: state.keys),
                  !targets.isList, let candidates = targets.candidates.first else { continue }
            for key in candidates {
                guard let id = state.keys.recordKeys.find(key)?.rawValue else { continue }
                try state.load(id)
                if state.records.recordExists(id) { return (argument, key) }
            }
        }
        return nil
    }

    /// The record the type's key (or its id) keys `record`'s object as (``EngineState/objectKey(of:)``),
    /// when that is another record and it has `field`: one object kept under two keys (a
    /// path key and `Trip:2`). Looked up by key: one lookup, not a scan.
    private func sameObject(as record: UInt32, having field: UInt32) throws(CacheError) -> String? {
        guard let key = state.objectKey(of: record), let other = state.keys.recordKeys.find(key)?.rawValue, other != record else { return nil }
        try state.load(other)
        return state.records.value(other, field) != nil ? key : nil
    }

    /// The value `field`'s `argument` has in this read, as a key holds it.
    private func argumentText(_ field: FieldPlan, _ argument: String) -> String {
        state.keys.arguments(of: field, variables: variables)[argument]?.keyText ?? "?"
    }
}
