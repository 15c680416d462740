/// Why something happened the way it did, in a watcher's or an operation's terms: one of
/// a documented set of codes (docs/explain.md is the contract scripts assert on), a
/// sentence naming the records and fields, and what would change the outcome.
///
/// ```swift
/// let reason = WhyReason(.unchanged, "it wrote values equal to those cached: nothing changed")
/// reason.code.rawValue   // "unchanged"
/// ```
package struct WhyReason: Sendable, Equatable {
    package enum Code: String, Sendable, CaseIterable {
        // Why a commit did not reach a watcher, or reached it without a new emission.
        case newRecordNotInList = "new-record-not-in-list"
        case otherArguments = "other-arguments"
        case mutationRoot = "mutation-root"
        case otherKey = "other-key"
        case unchanged
        case notSelected = "not-selected"
        case otherRecords = "other-records"
        case rolledBack = "rolled-back"
        case sameResult = "same-result"
        // Why a field an operation asked for was missing from the cache.
        case notFetched = "not-fetched"
        case fieldPolicyWouldRedirect = "field-policy-would-redirect"
        case danglingReference = "dangling-reference"
        case stale
        case typeCase = "type-case"
        case otherShape = "other-shape"
    }

    package let code: Code
    package let text: String
    /// What would bring the change in, or answer the field; nil when nothing would.
    package let hint: String?

    package init(_ code: Code, _ text: String, hint: String? = nil) {
        self.code = code
        self.text = text
        self.hint = hint
    }
}

/// A field of a record by their keys (`Trip:2`, `name`), as explanations name it:
/// `Trip:2.name`.
package struct NamedField: Hashable, Comparable, Sendable, CustomStringConvertible {
    package let record: String
    package let field: String

    /// The field's name without its arguments: `trips` for `trips(first:10)`.
    var name: Substring { field.prefix { $0 != "(" } }
    package var description: String { record + "." + field }
    package static func < (a: NamedField, b: NamedField) -> Bool { (a.record, a.field) < (b.record, b.field) }
}
