/// Whether a field of a selection applies to an object: its `@include`/`@skip` conditions,
/// and whether the object's type satisfies its fragments' type conditions. The writer
/// (``Normalizer``) and the reader (``Reader``) both ask ``SchemaContext/applicability(of:to:in:variables:shownBy:)``,
/// so a read after a write finds exactly the fields the write stored.
enum FieldApplicability: Equatable {
    case applies
    /// An `@include` or `@skip` leaves the field out.
    case leftOut
    /// The object's type does not satisfy this type condition of the field's.
    case notSatisfying(String)
    /// Nothing says whether the object's type satisfies one of the field's conditions (no
    /// schema defines the type, no response showed it, and the condition may be an
    /// interface or a union): the writer stores the field when the object carries it and
    /// it fits, the reader reads it when the records hold it, and neither calls it missing.
    case undecided
    /// The field comes in a deferred part of the response (`@defer`), which may not have
    /// come yet: the writer stores it when the object carries it and it fits; the reader
    /// reads it when the records hold all of it and, under Apollo iOS's semantics, never
    /// calls it missing (the part is pending, as Apollo iOS's cache read says), while under
    /// Apollo Client's it is missing like any field.
    case deferred
}

extension SchemaContext {
    /// Whether `field` applies to an object of type `typename` (empty: the object has no
    /// `__typename`) in `operation`. For each type condition:
    ///
    /// 1. the endpoint's schema decides for the object types it defines, then the cache's
    ///    own knowledge (its schema, and what responses taught);
    /// 2. a condition that names an object type is satisfied by that type alone: one the
    ///    schema defines, one a response named as a `__typename`, or one the operation
    ///    shows to be an object type (``CompiledOperation/objectTypeConditions``);
    /// 3. else `evidence` may show it: a writer passes whether the object carries a field
    ///    that only that condition selects, and the cache learns that the type satisfies
    ///    the condition;
    /// 4. else the condition is undecided.
    ///
    /// A condition that does not hold wins over one that is undecided.
    func applicability(of field: FieldPlan, to typename: String, in operation: CompiledOperation, variables: CacheObject,
                       shownBy evidence: (String) -> Bool = { _ in false }) -> FieldApplicability {
        guard field.isIncluded(under: variables) else { return .leftOut }
        var undecided = false
        for condition in field.typeConditions {
            switch satisfies(typename, condition: condition, in: operation) {
            case true?: continue
            case false?: return .notSatisfying(condition)
            case nil:
                if evidence(condition) {
                    if !typename.isEmpty { possibleTypes.learn(typename, satisfies: condition) }
                } else {
                    undecided = true
                }
            }
        }
        if undecided { return .undecided }
        return field.isDeferred(under: variables) ? .deferred : .applies
    }

    /// Whether objects of type `typename` satisfy the type condition `condition` of a field
    /// of `operation` (steps 1 and 2 of ``applicability(of:to:in:variables:shownBy:)``).
    private func satisfies(_ typename: String, condition: String, in operation: CompiledOperation) -> Bool? {
        if let known = endpoint?.possibleTypes.satisfies(typename, condition: condition) ?? possibleTypes.satisfies(typename, condition: condition) {
            return known
        }
        return !typename.isEmpty && operation.objectTypeConditions.contains(condition) ? false : nil
    }

    /// Why an object of type `typename` does not satisfy `condition`, for a message: the
    /// schema's word on the type, or the condition being another object type.
    func whyNot(_ typename: String, satisfies condition: String) -> String {
        if endpoint?.possibleTypes.definesObjectType(typename) == true || possibleTypes.definesObjectType(typename) {
            return "the schema says \(typename) is not a \(condition)"
        }
        return "a \(typename) is not a \(condition), an object type"
    }
}
