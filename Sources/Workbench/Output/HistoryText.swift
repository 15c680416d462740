import Foundation
import NormCache

/// How `.history` writes a kept change for people (and `.follow` a field another process
/// changed): one line each, values as compact JSON
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
            + ": " + Self.change(change.field, change.old, change.new)
    }

    /// `name "Porto" → "Porto Antigo"`: a field, its old value and its new one, as
    /// `.history` and `.follow` write them.
    static func change(_ field: String, _ old: CacheValue?, _ new: CacheValue?) -> String {
        "\(field) \(value(old)) → \(value(new))"
    }

    static func value(_ value: CacheValue?) -> String {
        value.map { JSON.string($0, references: .apollo) } ?? "(absent)"
    }

    static func time(_ date: Date) -> String {
        date.ISO8601Format()
    }
}
