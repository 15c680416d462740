import NormAPI
import NormCache

extension Client {
    /// The schema knowledge an operation's reads, writes and watchers use against
    /// `transport`: the transport's (``Transport/schemaKnowledge``); for a generated
    /// operation, its generated schema's (`generated`, what the app was built with) over
    /// the transport's. Its key fields, field policies and paginated and embedded fields win
    /// type by type and field by field, the transport's filling the rest; the possible
    /// types, root types and input types are the transport's schema's when it has one (the
    /// server's whole schema), else the generated schema's; the max ages (`@cacheControl`)
    /// are the transport's, since a generated schema carries none. The one place that decides it;
    /// docs/client.md, "Schema knowledge per endpoint".
    ///
    /// ```swift
    /// client.knowledge(over: fake, generated: nil)                            // fake.schemaKnowledge
    /// client.knowledge(over: fake, generated: TripsAPI.SchemaMetadata.self)   // Airport keyed by code, trip(id:) redirects
    /// ```
    func knowledge(over transport: (any Transport)?, generated schema: (any SchemaMetadata.Type)?) -> SchemaKnowledge? {
        let endpoint = transport?.schemaKnowledge
        guard let schema else { return endpoint }
        var knowledge = SchemaKnowledge.generated(by: schema)
        guard let endpoint else { return knowledge }
        if endpoint.possibleTypes.fromSchema { knowledge.possibleTypes = endpoint.possibleTypes }
        knowledge.maxAges = endpoint.maxAges   // a generated schema declares none
        for type in endpoint.typePolicies.types where knowledge.typePolicies[type] == nil {
            knowledge.typePolicies[type] = endpoint.typePolicies[type]
        }
        for type in endpoint.fieldPolicies.types {
            for field in endpoint.fieldPolicies.fields(of: type) where knowledge.fieldPolicies[type, field] == nil {
                knowledge.fieldPolicies[type, field] = endpoint.fieldPolicies[type, field]
            }
        }
        // `isEmbedded`: the generated schema declares the field, embedded or paginated.
        for declaration in endpoint.pagination.declarations where !knowledge.pagination.isEmbedded(declaration.type, declaration.field) {
            knowledge.pagination.declare(declaration)
        }
        return knowledge
    }
}
