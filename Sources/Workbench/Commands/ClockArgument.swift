import Foundation

/// What `.clock` was given: nothing (show the time), `real`, a duration forward
/// (`+90s`, `+2h`, `+1d`, `+1h30m`) or an instant in ISO 8601 (`2026-12-01T10:00:00Z`).
///
/// ```swift
/// try ClockArgument("+1h30m")                 // .forward(5400)
/// try ClockArgument("2026-12-01T10:00:00Z")   // .instant(…)
/// try ClockArgument("soon")                   // throws: .clock takes +DURATION (…), an ISO 8601 time or real, not "soon"
/// ```
enum ClockArgument: Equatable {
    case show, real
    case forward(TimeInterval)
    case instant(Date)

    /// Seconds in each unit a duration may use.
    private static let units: [Character: TimeInterval] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400]

    init(_ word: String?) throws(CommandError) {
        guard let word else { self = .show; return }
        if word == "real" { self = .real; return }
        if word.hasPrefix("-") { throw CommandError("the clock only moves forward (.clock +DURATION), not \"\(word)\"") }
        if word.hasPrefix("+") {
            guard let seconds = Self.duration(word.dropFirst()) else { throw Self.usage(word) }
            self = .forward(seconds)
            return
        }
        guard let date = try? Date(word, strategy: .iso8601) else { throw Self.usage(word) }
        self = .instant(date)
    }

    /// `90s`, `1h30m`: runs of digits each followed by a unit; nil for anything else.
    private static func duration(_ text: Substring) -> TimeInterval? {
        var total: TimeInterval = 0, digits = "", any = false
        for character in text {
            if character.isASCII, character.isNumber { digits.append(character); continue }
            guard let unit = units[character], let count = Double(digits) else { return nil }
            total += count * unit
            digits = ""
            any = true
        }
        return any && digits.isEmpty ? total : nil
    }

    private static func usage(_ word: String) -> CommandError {
        CommandError(".clock takes +DURATION (+90s, +15m, +2h, +1d, +1h30m), an ISO 8601 time (2026-12-01T10:00:00Z) or real, not \"\(word)\"")
    }
}
