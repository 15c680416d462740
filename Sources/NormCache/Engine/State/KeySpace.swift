/// The engine's keys: every record key (`Trip:2`, `QUERY_ROOT.trips.0`) and field key
/// (`trips(first:3)`) interned to an id, the static field ids of each operation met, and
/// the arguments each field key was built from. The one place an id becomes a key again
/// (``recordKey(_:)``, ``name(_:)``) and a plan's field becomes its id under variables
/// (``fieldID(of:ids:variables:)``).
///
/// A class, held by ``EngineState`` in a constant: the writer and the reader ask it for
/// every field, and its interners are shared by reference anyway.
///
/// ```swift
/// let keys = try KeySpace()
/// let field = RecordField(record: try keys.recordID("Trip:2"), field: try keys.fieldID("name"))
/// keys.name(field)   // "Trip:2.name"
/// ```
final class KeySpace {
    let recordKeys: KeyInterner
    let fieldKeys: KeyInterner
    let keyBuilder = KeyBuilder()
    /// The field id of `__typename`.
    let typenameField: UInt32

    /// Static field-key ids of each operation's fields, by `FieldPlan.index` (NC_ID_NONE
    /// where the key depends on variables). Keyed by identity, each with a weak reference
    /// to its operation: a plan the memo let go (``CompiledOperations``) may free its
    /// address for another, which must not be taken for it.
    private var fieldIDs: [ObjectIdentifier: OperationFieldIDs] = [:]
    /// When ``fieldIDs`` grows to this, the entries of freed operations go.
    private var fieldIDsPruneAt = 64
    /// Each operation's field ids under the last pagination it ran with (FieldIDs.swift),
    /// when that was not empty.
    var pagedFieldIDs: [ObjectIdentifier: PaginatedFieldIDs] = [:]
    /// The arguments each field key was built from, for Apollo Client snapshots.
    private(set) var fieldArguments: [UInt32: (name: String, arguments: [String: ArgumentValue])] = [:]

    init() throws(CacheError) {
        do {
            recordKeys = try KeyInterner()
            fieldKeys = try KeyInterner()
            typenameField = try fieldKeys.intern("__typename").rawValue
        } catch { throw .key(error) }
    }

    func recordID(_ key: String) throws(CacheError) -> UInt32 {
        do { return try recordKeys.intern(key).rawValue } catch { throw .key(error) }
    }

    func fieldID(_ key: String) throws(CacheError) -> UInt32 {
        do { return try fieldKeys.intern(key).rawValue } catch { throw .key(error) }
    }

    /// The field-key id of a key given as UTF-8 bytes (a record's text, as loaded).
    func fieldID(utf8 key: UnsafeRawBufferPointer) throws(CacheError) -> UInt32 {
        do { return try fieldKeys.intern(utf8: key).rawValue } catch { throw .key(error) }
    }

    func recordKey(_ id: UInt32) -> String { recordKeys.key(for: KeyID(rawValue: id)) ?? "#\(id)" }
    func fieldKey(_ id: UInt32) -> String { fieldKeys.key(for: KeyID(rawValue: id)) ?? "#\(id)" }
    /// `Trip:2.name`.
    func name(_ field: RecordField) -> String {
        recordKey(field.record) + "." + fieldKey(field.field)
    }

    /// The static field ids of `operation`, interned the first time it is seen.
    func staticFieldIDs(_ operation: CompiledOperation) throws(CacheError) -> [UInt32] {
        if let known = fieldIDs[ObjectIdentifier(operation)], known.operation === operation { return known.ids }
        var ids = [UInt32](repeating: NC_ID_NONE_VALUE, count: operation.fieldCount)
        func visit(_ plan: SelectionPlan) throws(CacheError) {
            for field in plan.fields {
                if let key = field.staticKey {
                    ids[field.index] = try fieldID(key)
                    if !field.arguments.isEmpty { fieldArguments[ids[field.index]] = (field.name, arguments(of: field, variables: CacheObject())) }
                }
                if let children = field.selections { try visit(children) }
            }
        }
        try visit(operation.selections)
        if fieldIDs.count >= fieldIDsPruneAt {
            fieldIDs = fieldIDs.filter { $0.value.operation != nil }
            pagedFieldIDs = pagedFieldIDs.filter { $0.value.operation != nil }
            fieldIDsPruneAt = max(64, fieldIDs.count * 2)
        }
        fieldIDs[ObjectIdentifier(operation)] = OperationFieldIDs(operation: operation, ids: ids)
        return ids
    }

    /// The field-key id of `field` under `variables` (coerced: ``VariableCoercion``), a
    /// paginated field's page arguments left out (``FieldIDs``).
    @inline(__always)
    func fieldID(of field: FieldPlan, ids: FieldIDs, variables: CacheObject) throws(CacheError) -> UInt32 {
        let id = ids.ids[field.index]
        if id != NC_ID_NONE_VALUE { return id }
        var arguments = arguments(of: field, variables: variables)
        if let dropped = ids.droppedArguments(field.index) { for name in dropped { arguments[name] = nil } }
        return try fieldID(named: field.name, arguments: arguments)
    }

    /// The id of the field key `name` with `arguments` (`hero(episode:JEDI)`), as
    /// ``KeyBuilder`` writes it, its arguments remembered for Apollo Client snapshots: the
    /// one place a field key is built from arguments, for a plan's field and a snapshot's.
    func fieldID(named name: String, arguments: [String: ArgumentValue]) throws(CacheError) -> UInt32 {
        let key: String
        do { key = try keyBuilder.fieldKey(name, arguments: arguments) } catch { throw .key(error) }
        let id = try fieldID(key)
        if !arguments.isEmpty, fieldArguments[id] == nil { fieldArguments[id] = (name, arguments) }
        return id
    }

    /// `field`'s arguments with `variables` substituted; arguments of variables not given are left out.
    func arguments(of field: FieldPlan, variables: CacheObject) -> [String: ArgumentValue] {
        var arguments: [String: ArgumentValue] = [:]
        for argument in field.arguments {
            if let value = argument.value.resolve(with: variables) { arguments[argument.name] = value }
        }
        return arguments
    }

    /// The static field ids of one operation, and the operation while it lives.
    private struct OperationFieldIDs {
        weak var operation: CompiledOperation?
        let ids: [UInt32]
    }
}

/// NC_ID_NONE as a Swift constant (the C macro's value).
let NC_ID_NONE_VALUE = UInt32.max
