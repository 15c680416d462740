import Foundation
import NormPluginKit

extension FeedService {
    /// How long after one search the next one starts, as keystrokes would.
    static let keystrokeInterval: Duration = .milliseconds(20)

    /// The commands of the feed views: load, retry, search as the user types.
    var commands: [Command] {
        [
            Command("feed.load", help: "Loads the feed, cache-first; its state goes loading, then loaded or error.") { [self] _ in
                Self.lines(try await failure(of: "loading the feed", hint: " (feed.retry fetches it again)") { try await load() })
            },
            Command("feed.retry", help: "Fetches the feed from the network again (network-only); its state goes loading, then loaded or error.") { [self] _ in
                Self.lines(try await failure(of: "retrying the feed") { try await retry() })
            },
            Command("feed.search", usage: "TEXT...",
                    help: "Searches the feed once per TEXT, each 20 ms after the one before, as keystrokes; a newer search cancels the one in flight.") { [self] arguments in
                let texts = arguments.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
                guard !texts.isEmpty, !texts.contains(where: \.isEmpty) else {
                    throw PluginError("usage: feed.search TEXT...: one text per keystroke, e.g. lis lisb lisbon")
                }
                return try await searchLines(texts)
            },
        ]
    }

    /// Starts one search per text, `keystrokeInterval` apart, then reports each in order:
    /// `search "lis": cancelled` or `search "lisbon": 2 results (...)`.
    private func searchLines(_ texts: [String]) async throws -> [String] {
        var searches: [(text: String, task: Task<[FeedRow], any Error>)] = []
        for text in texts {
            if !searches.isEmpty { try await Task.sleep(for: Self.keystrokeInterval) }
            searches.append((text, search(text)))
        }
        var lines: [String] = []
        for (text, task) in searches {
            do {
                let items = try await task.value
                lines.append("search \"\(text)\": \(items.count) \(items.count == 1 ? "result" : "results") (\(items.map(\.title).joined(separator: ", ")))")
            } catch is CancellationError {
                lines.append("search \"\(text)\": cancelled")
            } catch {
                throw PluginError("search \"\(text)\" failed: \(error)")
            }
        }
        return lines
    }

    /// Runs `body`; a failure becomes one line, `"ACTION failed: MESSAGE"` and the hint.
    private func failure<Value>(of action: String, hint: String = "", _ body: () async throws -> Value) async throws -> Value {
        do { return try await body() } catch { throw PluginError("\(action) failed: \(error)\(hint)") }
    }

    /// `6 items (network)` and a line per item.
    private static func lines(_ loaded: Loaded) -> [String] {
        ["\(loaded.items.count) items (\(loaded.source))"] + loaded.items.map { "  " + $0.line }
    }
}

// What the commands print, from the generated fragment of a feed row.

extension FeedRow {
    /// `1  Lisbon in three days, by ana`
    var line: String { "\(id)  \(title), by \(author)" }
}
