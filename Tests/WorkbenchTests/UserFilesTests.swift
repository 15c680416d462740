import Testing
@testable import Workbench

/// Where the history and the init file are: named by NORMCACHE_HISTORY and NORMCACHE_INIT,
/// else under the XDG base directories, else in the first places while only they exist.
@Suite struct UserFilesTests {
    let home = ["HOME": "/home/ana"]

    func files(_ environment: [String: String], existing: Set<String> = []) -> UserFiles {
        UserFiles(environment: environment, exists: existing.contains)
    }

    @Test func historyIsInTheXDGStateDirectory() {
        #expect(files(home).history! == ("/home/ana/.local/state/normcache/history", "/home/ana/.local/state/normcache/history"))
        let state = home.merging(["XDG_STATE_HOME": "/var/state"]) { $1 }
        #expect(files(state).history! == ("/var/state/normcache/history", "/var/state/normcache/history"))
        let relative = home.merging(["XDG_STATE_HOME": "state"]) { $1 }
        #expect(files(relative).history?.save == "/home/ana/.local/state/normcache/history", "a relative XDG path is ignored")
    }

    @Test func theFirstHistoryFileIsReadUntilTheNewOneExists() {
        let first = "/home/ana/.normcache_history", new = "/home/ana/.local/state/normcache/history"
        #expect(files(home, existing: [first]).history! == (first, new), "loaded from the old file, saved to the new")
        #expect(files(home, existing: [first, new]).history! == (new, new))
    }

    @Test func normcacheHistoryNamesTheFileOrNone() {
        let named = home.merging(["NORMCACHE_HISTORY": "/tmp/h"]) { $1 }
        #expect(files(named, existing: ["/home/ana/.normcache_history"]).history! == ("/tmp/h", "/tmp/h"))
        #expect(files(home.merging(["NORMCACHE_HISTORY": ""]) { $1 }).history == nil)
        #expect(files([:]).history == nil, "no home, no history file")
    }

    @Test func theInitFileIsTheFirstThatExists() {
        let xdg = "/home/ana/.config/normcache/init.repl", first = "/home/ana/.normcacherc"
        #expect(files(home).initFile == nil)
        #expect(files(home, existing: [first]).initFile == first)
        #expect(files(home, existing: [first, xdg]).initFile == xdg)
        let config = home.merging(["XDG_CONFIG_HOME": "/etc/ana"]) { $1 }
        #expect(files(config, existing: ["/etc/ana/normcache/init.repl", xdg]).initFile == "/etc/ana/normcache/init.repl")
    }

    @Test func normcacheInitNamesTheInitFileOrNone() {
        let xdg = "/home/ana/.config/normcache/init.repl"
        let named = home.merging(["NORMCACHE_INIT": "/tmp/init.repl"]) { $1 }
        #expect(files(named, existing: ["/tmp/init.repl", xdg]).initFile == "/tmp/init.repl")
        #expect(files(named, existing: [xdg]).initFile == nil, "a named file that does not exist is no init file, as psql's PSQLRC")
        #expect(files(home.merging(["NORMCACHE_INIT": ""]) { $1 }, existing: [xdg]).initFile == nil)
    }
}
