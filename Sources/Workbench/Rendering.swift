import NormCache
import NormClient

/// How results, watch emissions and service states read in the workbench's text mode.
///
/// ```swift
/// Rendering.result(result)
/// // network TripList: {"trips":[{"__typename":"Trip","id":"1","name":"Lisbon"}]}
/// ```
enum Rendering {
    /// `SOURCE NAME: DATA`, then the GraphQL errors and the missing fields, one a line.
    static func result(_ result: ClientResult) -> [String] {
        let name = result.operationName.map { " " + $0 } ?? ""
        var lines = ["\(result.source.rawValue)\(name): \(result.data.map { JSON.string($0) } ?? "null")"]
        lines += result.errors.map { "  server error: " + errorText($0) }
        if !result.missing.isEmpty { lines.append("  missing: " + result.missing.joined(separator: ", ")) }
        return lines
    }

    /// `watch ID #N CAUSE: DATA` and what changed, or the watch's failure.
    static func watchEvent(_ event: ClientWatch.Event, of watch: ClientWatch) -> String {
        switch event {
        case .emission(let number, let emission):
            let data = emission.result.data.map { JSON.string($0) } ?? "null"
            var text = "watch \(emission.watcher) #\(number) \(emission.cause.rawValue): \(data)"
            if !emission.changed.isEmpty { text += "\n  changed: " + emission.changed.joined(separator: ", ") }
            if !emission.result.missing.isEmpty { text += "\n  missing: " + emission.result.missing.joined(separator: ", ") }
            return text
        case .failure(let error):
            return "watch \(watch.id): fetch failed: \(error)"
        }
    }

    /// `state SERVICE: STATE (DETAIL)`.
    static func state(service: String, state: String, detail: String?) -> String {
        "state \(service): \(state)" + (detail.map { " (\($0))" } ?? "")
    }

    /// A GraphQL error's message, with its path when it has one.
    static func errorText(_ error: CacheValue) -> String {
        guard case .string(let message)? = error["message"] else { return JSON.string(error) }
        guard case .list(let path)? = error["path"], !path.isEmpty else { return message }
        let steps = path.map { step in if case .string(let name) = step { name } else { JSON.string(step) } }
        return message + " (at " + steps.joined(separator: ".") + ")"
    }
}
