/// What paging reads of an operation's plan (NormClient's `NextPage`): each field, where
/// it is, and which of its arguments are variables, so the next page's variables can be
/// told. Read-only: the plan itself stays the engine's.
///
/// ```swift
/// let op = try cache.operation("query P($after: String) { feed(first: 5, after: $after) { id } }")
/// let feed = op.fieldArguments[0]
/// feed.path        // ["feed"]
/// feed.arguments   // [(name: "first", variable: nil), (name: "after", variable: "after")]
/// ```
extension CompiledOperation {
    /// One field of the operation and its arguments.
    package struct FieldArguments: Sendable {
        /// The response keys from the root down to the field (its alias, else its name).
        package let path: [String]
        /// The field's name in the schema.
        package let name: String
        /// Each argument the document gives it, with the variable it is when it is exactly
        /// one (`after: $cursor` → "cursor"); nil for a literal, or a list or object value.
        package let arguments: [(name: String, variable: String?)]
    }

    /// Every field of the operation, in document order (a field before those under it).
    package var fieldArguments: [FieldArguments] {
        var fields: [FieldArguments] = []
        func collect(_ plan: SelectionPlan, under path: [String]) {
            for field in plan.fields {
                let arguments = field.arguments.map { argument -> (name: String, variable: String?) in
                    if case .variable(let variable) = argument.value { return (argument.name, variable) }
                    return (argument.name, nil)
                }
                fields.append(FieldArguments(path: path + [field.responseKey], name: field.name, arguments: arguments))
                if let selections = field.selections { collect(selections, under: path + [field.responseKey]) }
            }
        }
        collect(selections, under: [])
        return fields
    }
}
