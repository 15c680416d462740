import Foundation
import NormAPI

extension SchemaKnowledge {
    /// What a generated schema's metadata (`TripsAPI.SchemaMetadata`, written by
    /// `normcache codegen`) tells the cache: its possible types and root types, the key
    /// fields of its object types and interfaces (`@typePolicy`), its field policies
    /// (`@fieldPolicy`) and its paginated and embedded fields, the same knowledge the
    /// project it was generated from gives the workbench. Converted once per schema type,
    /// then remembered.
    ///
    /// ```swift
    /// let trips = SchemaKnowledge.generated(by: TripsAPI.SchemaMetadata.self)
    /// trips.typePolicies["Airport"]        // .keyFields(["code"])
    /// trips.fieldPolicies["Query", "trip"] // ["id"]
    /// SchemaKnowledge.generated(by: FeedAPI.SchemaMetadata.self).pagination["Query", "pagedFeed"]   // .connection
    /// ```
    public static func generated(by schema: any SchemaMetadata.Type) -> SchemaKnowledge {
        let id = ObjectIdentifier(schema)
        if let known = converted.withLock({ $0[id] }) { return known }
        var knowledge = SchemaKnowledge(possibleTypes: PossibleTypes(generated: schema))
        for object in schema.objectTypes {
            if let fields = object.keyFields { knowledge.typePolicies[object.typename] = .keyFields(fields) }
        }
        for interface in schema.interfaces {
            if let fields = interface.keyFields { knowledge.typePolicies[interface.name] = .keyFields(fields) }
        }
        for policy in schema.fieldPolicies { knowledge.fieldPolicies[policy.type, policy.field] = policy.keyArgs }
        for field in schema.pagination {
            let style: Pagination.Style? = switch field.style {
            case .connection: .connection
            case .offset(let argument, let arguments): .offset(argument: argument, arguments: arguments)
            case .embedded: nil
            }
            knowledge.pagination.declare(.init(type: field.type, field: field.field, style: style))
        }
        converted.withLock { $0[id] = knowledge }
        return knowledge
    }

    /// The knowledge of each generated schema converted so far.
    private static let converted = LockedDictionary<ObjectIdentifier, SchemaKnowledge>()
}

/// A dictionary behind a lock, for knowledge shared by every thread.
private final class LockedDictionary<Key: Hashable, Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Key: Value] = [:]

    func withLock<Result>(_ body: (inout [Key: Value]) -> Result) -> Result {
        lock.withLock { body(&values) }
    }
}
