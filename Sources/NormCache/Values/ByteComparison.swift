#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

extension UnsafeBufferPointer<UInt8> {
    /// Whether `other` holds the same bytes: the standard library's `elementsEqual` steps
    /// through both one byte at a time with iterators, which made comparing member names a
    /// tenth of a response's reading.
    ///
    /// ```swift
    /// name.hasSameBytes(as: key)   // "__typename" == "__typename"
    /// ```
    @inline(__always)
    func hasSameBytes(as other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard count == other.count else { return false }
        guard count >= 4 else {  // also the empty case, which has no base address
            for i in 0..<count where self[i] != other[i] { return false }
            return true
        }
        let a = UnsafeRawPointer(baseAddress!), b = UnsafeRawPointer(other.baseAddress!)
        // Member names are mostly short: two overlapping loads cover 4 to 16 bytes with no
        // call, where a memcmp call costs more than the comparison.
        if count <= 8 {
            return a.loadUnaligned(as: UInt32.self) == b.loadUnaligned(as: UInt32.self)
                && a.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self) == b.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
        }
        if count <= 16 {
            return a.loadUnaligned(as: UInt64.self) == b.loadUnaligned(as: UInt64.self)
                && a.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) == b.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        }
        return memcmp(a, b, count) == 0
    }
}

extension String {
    /// Whether the string's UTF-8 is `bytes`, byte for byte: how JSON compares member
    /// names (RFC 8259, 8.3). Swift's `==` compares by canonical equivalence instead, under
    /// which `"e\u{301}"` is `"é"` and the Kelvin sign `"\u{212A}"` is `"K"`.
    ///
    /// ```swift
    /// "é".hasSameUTF8(as: name)   // false for the bytes of "e\u{301}"
    /// ```
    @inline(__always)
    func hasSameUTF8(as bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        utf8.withContiguousStorageIfAvailable { $0.hasSameBytes(as: bytes) } ?? utf8.elementsEqual(bytes)
    }

    @inline(__always)
    func hasSameUTF8(as other: String) -> Bool {
        utf8.withContiguousStorageIfAvailable { other.hasSameUTF8(as: $0) } ?? utf8.elementsEqual(other.utf8)
    }
}
