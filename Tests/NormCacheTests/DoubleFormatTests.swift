import CCore
import Testing

/// Float arguments appear in keys as Swift's `Double.description` writes them; the C core
/// reimplements that, so compare the two over special, boundary and random values.
@Suite struct DoubleFormatTests {
    func formatted(_ value: Double) -> String {
        var text = [CChar](repeating: 0, count: 32)
        let length = nc_format_double(value, &text)
        return String(decoding: text[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    @Test(arguments: [
        0.0, -0.0, 1, -1, 30, 1.5, 0.1, 1.72, 5.64, 12.5, 1e-4, 1e-5, 9.9999e-5, 1e15, 1e16, 9.999999999999998e15,
        123456789012345680, 9007199254740991, 9007199254740992, 9007199254740994, 1e100, -1e-300, Double.leastNonzeroMagnitude, Double.leastNormalMagnitude,
        Double.greatestFiniteMagnitude, Double.pi, .infinity, -.infinity, .nan, 0.3, 2.0 / 3, 100, 1e21, 4.35,
    ])
    func matchesSwift(_ value: Double) {
        #expect(formatted(value) == value.description)
    }

    @Test func matchesSwiftOnRandomValues() {
        var random = SystemRandomNumberGenerator()
        var mismatches: [String] = []
        for round in 0..<200_000 {
            // Half arbitrary bit patterns, half short decimals as people type them.
            let value = round % 2 == 0
                ? Double(bitPattern: random.next())
                : Double(Int64.random(in: -1_000_000...1_000_000, using: &random)) / Double([1, 10, 100, 1000, 1e6][round % 5])
            if formatted(value) != value.description, mismatches.count < 5 {
                mismatches.append("\(value.bitPattern): \(formatted(value)) != \(value.description)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
    }
}
