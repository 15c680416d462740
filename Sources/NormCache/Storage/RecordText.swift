/// A record's fields as Apollo iOS stores them: the text of the `record` column, one JSON
/// object from field key to value, references as `{"$reference":"Human:1000"}`
/// (docs/persistence.md). A NULL, a value other than an object, or broken JSON is a
/// ``Problem`` that says which.
///
/// ```swift
/// let text = Array(#"{"name":"Luke","friend":{"$reference":"Human:1002"}}"#.utf8)
/// try text.withUnsafeBufferPointer { try RecordText.fields(of: $0) }   // name: "Luke", friend: .reference("Human:1002")
/// ```
enum RecordText {
    /// Why a record's text is not a record.
    struct Problem: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// The fields of a record's text (`nil`: NULL).
    static func fields(of text: UnsafeBufferPointer<UInt8>?) throws -> CacheObject {
        guard let text else { throw Problem("the record is NULL") }
        guard case .object(let fields) = try JSON.parse(bytes: text, references: .apollo) else {
            throw Problem("the record is not a JSON object")
        }
        return fields
    }

    /// Hands `field` each field of a record's text (`nil`: NULL): its key's UTF-8 bytes
    /// (valid during the call) and its value, in order, without building the object; the
    /// same errors as ``fields(of:)``, thrown after the fields before the error were
    /// handed. `field` says whether the key is new (false: a duplicate member).
    static func forEachField(of text: UnsafeBufferPointer<UInt8>?, _ field: (UnsafeBufferPointer<UInt8>, CacheValue) -> Bool) throws {
        guard let text else { throw Problem("the record is NULL") }
        guard try JSON.forEachMember(of: text, references: .apollo, field) else { throw Problem("the record is not a JSON object") }
    }
}
