/// A value as it stands in an entity key, the one place its text is made: a String as it
/// is, an Int in decimal, a Float as Swift prints it (`2.5`), as Apollo iOS takes key
/// values; `nil` for a Boolean, null, a list or an object, which make no key. A key field's
/// value (the normalizer, ``ImpliedKeyFields``) and a field policy's key argument (cache
/// redirects) both go through it, so `trip(id: 3)` reads the `Trip:3` a write made.
///
/// ```swift
/// KeyText.of(int: 2001)       // "2001"
/// KeyText.of(double: 2.5)     // "2.5"
/// ```
enum KeyText {
    static func of(int number: Int64) -> String { String(number) }
    static func of(double number: Double) -> String { number.description }

    /// The text of a String, Int or Float value; `nil` for any other.
    static func of(_ value: CacheValue) -> String? {
        switch value {
        case .string(let text): text
        case .int(let number): of(int: number)
        case .double(let number): of(double: number)
        default: nil
        }
    }
}
