/// Whether bytes are well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates,
/// nothing above U+10FFFF), checked in place.
///
/// The JSON reader checks a string's bytes with it and then builds the `String` with
/// `String(decoding:as:)`, whose own check runs the standard library's specialized UTF-8
/// path. `String(validating:as:)` is generic over the encoding and, unspecialized, looked
/// up type metadata for every string: a fifth of the time of reading a response.
///
/// ```swift
/// UTF8Validation.isValid([0x41, 0xC3, 0xA9])   // true: "Aé"
/// UTF8Validation.isValid([0xC0, 0x80])         // false: an overlong NUL
/// ```
enum UTF8Validation {
    static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let count = bytes.count
        while i < count {
            let lead = bytes[i]
            if lead < 0x80 {
                i += 1
                continue
            }
            let length: Int
            // The range the second byte must fall in, which rules out overlong forms,
            // surrogates and scalars above U+10FFFF.
            var low: UInt8 = 0x80, high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return false
            }
            guard i + length <= count, (low...high).contains(bytes[i + 1]) else { return false }
            for j in 2..<length where bytes[i + j] & 0xC0 != 0x80 { return false }
            i += length
        }
        return true
    }
}
