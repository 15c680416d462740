import Foundation
import NormCache

/// How `.history` writes a kept change for people: one line each, values as compact JSON
/// with references as `{"$reference":"K"}` (as `.inspect` shows them in JSON), an absent
/// value as `(absent)`, times in ISO 8601 (UTC, to the second).
///
/// ```swift
/// HistoryText.line(change)
/// // #12 2026-11-28T23:40:01Z write (TripList): name "Porto" → "Porto Antigo"
/// ```
enum HistoryText {
    static func line(_ change: HistoryChange) -> String {
        "#\(change.commit) \(time(change.at)) \(change.cause.rawValue)" + (change.origin.map { " (\($0))" } ?? "")
            + ": \(change.field) \(value(change.old)) → \(value(change.new))"
    }

    static func value(_ value: CacheValue?) -> String {
        value.map { JSON.string($0, references: .apollo) } ?? "(absent)"
    }

    static func time(_ date: Date) -> String {
        date.ISO8601Format()
    }
}
