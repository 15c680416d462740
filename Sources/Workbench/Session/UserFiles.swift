import Foundation

/// Where the workbench keeps a user's own files, as the environment says: the history of
/// the lines typed at the prompt, and the init script run before the first prompt or
/// script. Each may be named (`NORMCACHE_HISTORY`, `NORMCACHE_INIT`; empty: none), else it
/// lives where the XDG base directories put such files, else, while only that exists, in
/// the workbench's first place (`~/.normcache_history`, `~/.normcacherc`), so nobody loses
/// theirs: history read there is saved in the new place from then on.
///
/// ```swift
/// let files = UserFiles(environment: ["HOME": "/home/ana"], exists: { $0 == "/home/ana/.normcacherc" })
/// files.history    // (load: "/home/ana/.local/state/normcache/history", save: the same)
/// files.initFile   // "/home/ana/.normcacherc": ~/.config/normcache/init.repl does not exist
/// ```
struct UserFiles {
    let environment: [String: String]
    /// Whether a file exists (tests give their own).
    let exists: (String) -> Bool

    init(environment: [String: String] = ProcessInfo.processInfo.environment,
         exists: @escaping (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }) {
        self.environment = environment
        self.exists = exists
    }

    /// The history file to load at the start and to save each line to; nil: none
    /// (`NORMCACHE_HISTORY` set empty, or no home to keep it in). `NORMCACHE_HISTORY`, else
    /// `$XDG_STATE_HOME/normcache/history` (default `~/.local/state/…`); loaded from
    /// `~/.normcache_history` while only that one exists.
    var history: (load: String, save: String)? {
        if let named = environment["NORMCACHE_HISTORY"] { return named.isEmpty ? nil : (named, named) }
        guard let file = base("XDG_STATE_HOME", else: ".local/state").map({ $0 + "/normcache/history" }) else { return nil }
        if !exists(file), let first = home(".normcache_history"), exists(first) { return (first, file) }
        return (file, file)
    }

    /// The init script to run, if there is one: `NORMCACHE_INIT` (empty: none), else
    /// `$XDG_CONFIG_HOME/normcache/init.repl` (default `~/.config/…`), else `~/.normcacherc`;
    /// whichever of these exists. (`--init FILE` is run in its place, and must exist.)
    var initFile: String? {
        if let named = environment["NORMCACHE_INIT"] { return named.isEmpty || !exists(named) ? nil : named }
        let candidates = [base("XDG_CONFIG_HOME", else: ".config").map { $0 + "/normcache/init.repl" }, home(".normcacherc")]
        return candidates.compactMap { $0 }.first(where: exists)
    }

    /// An XDG base directory: the variable's value when it is an absolute path (the
    /// specification says to ignore any other), else `fallback` under the home directory.
    private func base(_ variable: String, else fallback: String) -> String? {
        if let value = environment[variable], value.hasPrefix("/") { return value }
        return home(fallback)
    }

    private func home(_ path: String) -> String? {
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return (home as NSString).appendingPathComponent(path)
    }
}
