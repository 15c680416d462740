/// A number of seconds as people read it, in the largest units, none left out but zero
/// ones: what `.why` and `.clock` say an age, a max age or an offset is.
///
/// ```swift
/// DurationText.of(5_405)   // "1h 30m 5s"
/// DurationText.of(0)       // "0s"
/// ```
package enum DurationText {
    package static func of(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "forever" }
        var left = Int(seconds.rounded()), parts: [String] = []
        for (unit, size) in [("d", 86_400), ("h", 3_600), ("m", 60), ("s", 1)] where left >= size || (unit == "s" && parts.isEmpty) {
            parts.append("\(left / size)\(unit)")
            left %= size
        }
        return parts.joined(separator: " ")
    }
}
