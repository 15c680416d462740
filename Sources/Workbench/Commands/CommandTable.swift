import Foundation
import NormCache
import NormClient

/// The workbench's commands, in the order `.help` lists them, in groups (session,
/// endpoint, operations, watching, cache, lifecycle, network, explaining, live, debug, tests). Add a command here and `.help`, lookup, completion and "did you mean"
/// follow. Each entry parses its arguments and hands over to the session at once.
package enum CommandTable {
    package static let commands: [DotCommand] = [
        // session
        DotCommand(name: "help", usage: "[COMMAND]", help: "List the commands, or show one command's help", completes: [.command]) { session, input in
            try session.showHelp(for: try input.words(0...1).first)
        },
        DotCommand(name: "mode", usage: "[tree|table|json]", help: "How output looks: a tree (default), tables, or one JSON object per line") { session, input in
            guard let word = try input.words(0...1).first else { return session.printer.emit(.mode(session.printer.mode)) }
            guard let mode = OutputMode(rawValue: word) else { throw CommandError("unknown mode \"\(word)\"; the modes are tree, table and json") }
            session.printer.mode = mode
        },
        DotCommand(name: "timer", usage: "on|off", help: "Print how long each command took") { session, input in
            session.settings.times = try input.onOff()
        },
        DotCommand(name: "echo", usage: "on|off", help: "Print each command before it runs") { session, input in
            session.settings.echoes = try input.onOff()
        },
        DotCommand(name: "bail", usage: "on|off", help: "Stop at the first command or expectation that fails") { session, input in
            session.settings.bails = try input.onOff()
        },
        DotCommand(name: "pager", usage: "on|off | OP [JSON]",
                   help: "on|off: at the terminal, send each command's output that is longer than the screen through $PAGER (default less -FRX; none when PAGER is empty or cat); on by default, never for JSON, a script or a pipe. "
                       + "OP [JSON]: Apollo iOS's pager over the named query's paginated field (a field taking after:, before:, offset: or skip:), with JSON variables (default: .vars): one watcher per page, each page its own field key; "
                       + "prints its id (its first page's watcher's), and every page's items concatenated whenever a page emits; .more ID [next|previous|all] loads the next page, the previous one or all of them, .refetch ID goes back to the first, .unwatch ID stops it (docs/pagination.md)",
                   completes: [.operation]) { session, input in
            switch input.words.first {
            case "on", "off": session.printer.pages = try input.onOff()
            case let name?:
                let variables = try input.rest(after: 1).isEmpty ? nil : JSONArgument.object(input.rest(after: 1), for: ".pager")
                try session.startPager(try session.operation(named: name), variables: variables)
            case nil: throw CommandError("usage: \(input.synopsis)")
            }
        },
        DotCommand(name: "history", usage: "on|off | limit N | KEY[.FIELD] [N]",
                   help: "on|off: keep the lines typed at the prompt in the history file from now on (on, the default) or not (off). "
                       + "KEY[.FIELD] [N]: the last N changes (default 20) of a record or one field, oldest first: commit, time, cause, origin, old → new. "
                       + "limit N: how many changes the cache keeps of each record (default 100; 0 keeps none)",
                   completes: [.recordKey]) { session, input in
            switch input.words.first {
            case "on", "off": session.settings.recordsHistory = try input.onOff()
            case "limit":
                guard let word = try input.words(1...2).dropFirst().first else {
                    throw CommandError(".history limit takes a number: how many changes each record keeps (0 keeps none)")
                }
                session.client.cache.historyLimit = try CountArgument.parse(word, command: ".history", name: "limit")
            case let target?:
                let count = try CountArgument.parse(try input.words(1...2).dropFirst().first ?? "20", command: ".history", name: "N")
                try session.showHistory(of: target, last: count)
            case nil: throw CommandError("usage: \(input.synopsis)")
            }
        },
        DotCommand(name: "read", usage: "FILE", help: "Run the commands in FILE (relative to the script that reads it); scripts may read scripts") { session, input in
            try session.run(file: try input.words(1...1)[0])
        },
        DotCommand(name: "output", usage: "[FILE]", help: "Send output to FILE (replaced), or back to the terminal without FILE; errors stay on standard error (in JSON mode they go with the output)") { session, input in
            try session.redirect(to: try input.words(0...1).first, once: false)
        },
        DotCommand(name: "once", usage: "FILE", help: "Send the next command's output to FILE (replaced)") { session, input in
            try session.redirect(to: try input.words(1...1)[0], once: true)
        },
        DotCommand(name: "shell", usage: "COMMAND", help: "Run a shell command (/bin/sh -c) and print its output; a nonzero exit status fails") { session, input in
            try session.shell(input.rest(after: 0))
        },
        DotCommand(name: "nowait", usage: "COMMAND", help: "Run COMMAND without waiting for the fetches it starts (scripts wait by default), e.g. to let a newer search cancel it") { session, input in
            let command = input.rest(after: 0)
            guard !command.isEmpty else { throw CommandError("usage: \(input.synopsis)") }
            session.skipsSettling = true
            session.execute(command, at: session.location)
        },
        DotCommand(name: "version", help: "normcache's version (also normcache --version)") { session, input in
            _ = try input.words(0...0)
            session.printer.emit(.version(NormcacheVersion.current))
        },
        DotCommand(name: "quit", help: "Leave the workbench (also Ctrl-D)", aliases: ["exit"]) { session, input in
            _ = try input.words(0...0)
            session.finish()
        },
        // endpoint
        DotCommand(name: "plugins", help: "Loaded plugins: name, version, path, services, operations, commands; with none, where normcache looked") { session, input in
            _ = try input.words(0...0)
            session.printer.emit(.plugins(session.plugins.plugins, searched: session.plugins.searched))
        },
        DotCommand(name: "load", usage: "PATH", help: "Load a plugin library (a shared library exporting nc_plugin_init)") { session, input in
            let plugin = try session.plugins.load(try input.words(1...1)[0])
            if session.endpoint == nil { session.endpoint = plugin.endpoint }
            session.printer.emit(.pluginLoaded(plugin))
        },
        DotCommand(name: "use", usage: "PLUGIN", help: "Make a plugin's in-process server the endpoint", completes: [.plugin]) { session, input in
            let name = try input.words(1...1)[0]
            guard let plugin = session.plugins.plugin(named: name) else {
                let loaded = session.plugins.plugins.map(\.name)
                if loaded.isEmpty { throw CommandError("no plugin \"\(name)\": none is loaded (.plugins says where normcache looked)") }
                throw CommandError("no plugin \"\(name)\" (.plugins lists them: \(loaded.joined(separator: ", ")))")
            }
            session.endpoint = plugin.endpoint
        },
        DotCommand(name: "endpoint", usage: "URL", help: "Send operations to an HTTP GraphQL endpoint (POST application/json); with a project loaded, the project's") { session, input in
            session.app.use(try HTTPEndpoint.transport(for: try input.words(1...1)[0], timeout: session.app.timeout))
        },
        DotCommand(name: "header", usage: "NAME: VALUE", help: "Add a header to every request to the HTTP endpoint, e.g. .header Authorization: Bearer abc") { session, input in
            guard var http = session.endpoint as? HTTPTransport else { throw CommandError("the endpoint is not an HTTP one: .endpoint URL first") }
            http.headers.append(try HTTPEndpoint.header(input.rest(after: 0)))
            session.endpoint = http
        },
        DotCommand(name: "timeout", usage: "[MS]", help: "How long to wait for an HTTP endpoint's whole answer, or a plugin's reply, in milliseconds (default 60000, URLSession's); alone, show it") { session, input in
            guard let word = try input.words(0...1).first else {
                let milliseconds = Int(session.app.timeout / .milliseconds(1))
                return session.printer.emit(.timeout(milliseconds: milliseconds))
            }
            session.app.timeout = try HTTPEndpoint.timeout(word)
        },
        DotCommand(name: "schema", usage: "[TYPE]", help: "The endpoint's schema as SDL (the plugin's manifest, or introspection over HTTP, which the endpoint's responses then go by); TYPE shows one type") { session, input in
            let type = try input.words(0...1).first
            let endpoint = try session.currentEndpoint()
            let sdl = try session.wait { try await endpoint.schema() }
            session.learnSchema(sdl)
            let shown = try type.map { type throws(CommandError) in try SchemaText.definition(of: type, in: sdl) } ?? sdl
            session.printer.emit(.schema(sdl: shown))
        },
        DotCommand(name: "project", usage: "[DIR]", help: "Load an app's GraphQL project (apollo-codegen-config.json, or the .graphqls/schema.json and .graphql files under DIR) and run on its endpoint; alone, show it") { session, input in
            guard let directory = try input.words(0...1).first else { return session.showProject() }
            try session.loadProject(directory)
        },
        DotCommand(name: "ops", help: "Named operations of the project (on its endpoint) or of the current plugin, with file and line") { session, input in
            _ = try input.words(0...0)
            if session.app.onProjectEndpoint, let project = session.app.project { return session.showProjectOperations(project) }
            let operations = try session.currentPlugin().manifest.operations.sorted { $0.key < $1.key }
            session.printer.emit(.pluginOperations(operations.map { ($0.key, $0.value) }))
        },
        DotCommand(name: "run", usage: "OP [JSON] [--write DATA]", help: "Run a named operation of the project (on its endpoint) or of the current plugin, with JSON variables (default: .vars); a local cache mutation (@apollo_client_ios_localCacheMutation) reads from the cache, or with --write writes DATA (its data, a JSON object that must fit its selection) into the cache and shows what it then reads; nothing is sent", completes: [.operation]) { session, input in
            guard let name = input.words.first else { throw CommandError("usage: \(input.synopsis)") }
            if let option = input.words.firstIndex(of: "--write") {
                guard option > 0 else { throw CommandError("usage: \(input.synopsis)") }
                let variables = input.text(ofWords: 1..<option)
                return try session.write(JSONArgument.object(input.rest(after: option + 1), for: ".run --write"),
                                         through: try session.operation(named: name),
                                         variables: variables.isEmpty ? nil : try JSONArgument.object(variables, for: ".run"))
            }
            let variables = try input.rest(after: 1).isEmpty ? nil : JSONArgument.object(input.rest(after: 1), for: ".run")
            try session.run(try session.operation(named: name), variables: variables)
        },
        DotCommand(name: "commands", help: "Service commands of the loaded plugins, and the refetches that follow each") { session, input in
            _ = try input.words(0...0)
            let commands = session.plugins.plugins.flatMap(\.manifest.commands)
            session.printer.emit(.pluginCommands(commands))
        },
        // operations
        DotCommand(name: "vars", usage: "[JSON]", help: "Set the variables of the next operations (a JSON object; each takes those it declares, and a value every project or plugin operation declaring it refuses is refused now), or show them") { session, input in
            let text = input.rest(after: 0)
            if text.isEmpty { return session.printer.emit(.variables(session.settings.variables)) }
            try session.setVariables(try JSONArgument.object(text, for: ".vars"))
        },
        DotCommand(name: "policy", usage: "[NAME]", help: "Set the fetch policy: cache-first (default), cache-only, network-only, no-cache, cache-and-network; Apollo iOS names too") { session, input in
            guard let name = try input.words(0...1).first else { return session.printer.emit(.policy(session.settings.policy)) }
            guard let policy = FetchPolicy(name: name) else {
                throw CommandError("unknown fetch policy \"\(name)\"; the policies are \(FetchPolicy.names.joined(separator: ", "))")
            }
            session.settings.policy = policy
        },
        DotCommand(name: "partial", usage: "on|off", help: "on: the next operations and watchers return what the cache holds when it cannot answer whole (Apollo Client's returnPartialData): nulls in the holes, the missing fields listed, and an error each at its path; a policy that fetches still fetches. off (the default): an incomplete read has no data") { session, input in
            session.settings.returnsPartialData = try input.onOff()
        },
        DotCommand(name: "optimistic", usage: "JSON", help: "The optimistic response (the mutation's data) for the next mutation") { session, input in
            session.settings.optimistic = try JSONArgument.object(input.rest(after: 0), for: ".optimistic")
        },
        // watching
        DotCommand(name: "watch", usage: "OPERATION|OP [JSON] [refetch=POLICY]", help: "Start a watcher of a query typed on the line or named (the project's or the current plugin's); emissions print live, as diffs. refetch=POLICY says what a change from elsewhere does: cache-first (the default, but cache-only for a cache-only watcher: show the new read, refetch when the cache can no longer answer), cache-only (show it, never fetch), network-only (fetch instead of showing it), cache-and-network (show it, then fetch)", completes: [.operation]) { session, input in
            guard let first = input.words.first else { throw CommandError("usage: \(input.synopsis)") }
            // refetch=POLICY, when it is the last word.
            let option = input.words.count > 1 ? input.words.last.flatMap { $0.hasPrefix("refetch=") ? String($0.dropFirst(8)) : nil } : nil
            let refetchPolicy = try option.map { name in
                guard let policy = FetchPolicy(name: name), FetchPolicy.refetchPolicies.contains(policy) else {
                    throw CommandError("refetch= takes one of \(FetchPolicy.refetchPolicies.map(\.name).joined(separator: ", ")), not \"\(name)\"")
                }
                return policy
            }
            let arguments = input.words.count - (option == nil ? 0 : 1)
            let text = input.text(ofWords: 0..<arguments)
            if GraphQLInput.starts(text[...]) { return try session.startWatch(try session.compile(text), variables: nil, refetchPolicy: refetchPolicy) }
            let json = input.text(ofWords: 1..<arguments)
            let variables = try json.isEmpty ? nil : JSONArgument.object(json, for: ".watch")
            try session.startWatch(try session.operation(named: first), variables: variables, refetchPolicy: refetchPolicy)
        },
        DotCommand(name: "watches", help: "Active watchers: id, operation, variables, policy, emissions, endpoint") { session, input in
            _ = try input.words(0...0)
            session.printer.emit(.watches(session.client.activeWatches.map(WatcherListing.init)))
        },
        DotCommand(name: "unwatch", usage: "ID|all", help: "Stop a watcher, or all of them; a pager's ID stops every page's watcher") { session, input in
            let word = try input.words(1...1)[0]
            if let pager = session.pager(word) { return session.stopPager(pager) }
            for watch in try session.watches(word) { watch.cancel() }
            if word == "all" { session.pagers = [:] }
        },
        DotCommand(name: "refetch", usage: "ID|all", help: "Refetch a watcher's query from the network (network-only); it emits if the data changed. A pager's ID goes back to its first page: the other pages' watchers stop, the first refetches, and the pager shows it") { session, input in
            let word = try input.words(1...1)[0]
            if let pager = session.pager(word) { return try session.refetchPager(pager) }
            let watches = try session.watches(word)
            try session.wait { for watch in watches { try await watch.refetch() } }
        },
        DotCommand(name: "setvars", usage: "ID JSON", help: "New variables for a watcher; a fetch in flight for the old ones is cancelled") { session, input in
            guard let id = input.words.first else { throw CommandError("usage: \(input.synopsis)") }
            let variables = try JSONArgument.object(input.rest(after: 1), for: ".setvars")
            for watch in try session.watches(id) { try watch.setVariables(variables) }
        },
        DotCommand(name: "watchlog", usage: "[N]", help: "Keep the last N emissions of each watcher for .expect watch ID #N (default \(SessionOptions.defaultWatchLog), --watch-log N); older ones are counted, not kept. Without N, show it") { session, input in
            let log = session.ledger.watchLog
            guard let word = try input.words(0...1).first else { return session.printer.emit(.watchLogLimit(log.limit)) }
            log.limit = try CountArgument.parse(word, command: ".watchlog", name: "N (how many emissions to keep)", least: 1)
        },
        // pagination
        DotCommand(name: "more", usage: "ID [next|previous|all]",
                   help: "The next page (next, the default), the one before the first shown (previous), or every page (all). "
                       + "Of watcher ID's paginated field (declared in the schema: @typePolicy(connectionFields:), @fieldPolicy(paginationArgs:)): fetched and merged into it, appended or prepended, so the watcher emits the longer list (cause page); all merges next pages until there is none, then previous ones. "
                       + "Of pager ID (.pager): a watcher more, after the last page or before the first; all is Apollo iOS's loadAll: back to the first page, refetched, then next pages to the end and previous ones to the start, shown once. "
                       + "The variables come from what is shown (after: pageInfo.endCursor or before: its startCursor with last:, or offset: moved by a page); when there is no such page, or a page is still loading, says why and sends nothing",
                   completes: [.watcher, .word(["next", "previous", "all"])]) { session, input in
            let words = try input.words(1...2)
            try session.more(words[0], asking: words.count > 1 ? words[1] : "next")
        },
        // cache
        DotCommand(name: "keys", usage: "[GLOB]", help: "List record keys, sorted; GLOB filters them (* any run, ? one character)") { session, input in
            let pattern = try input.words(0...1).first
            session.printer.emit(.keys(session.client.cache.keys(matching: pattern)))
        },
        DotCommand(name: "inspect", usage: "KEY", help: "Show one record: each field key and its value, references as → KEY; then, for the fields whose time is known, how long ago each was received, its max age and whether it is stale (.maxage)", completes: [.recordKey]) { session, input in
            let key = try input.words(1...1)[0]
            let cache = session.client.cache
            guard let record = try cache.inspect(key) else { throw CommandError("no record \"\(key)\"" + session.closeKeys(to: key)) }
            let ages = try cache.ages(of: key, schema: session.endpoint?.schemaKnowledge) ?? []
            session.printer.emit(.record(key: key, record: record, ages: ages, now: cache.clock.now()))
        },
        DotCommand(name: "refs", usage: "KEY", help: "The record fields that refer to record KEY (KEY.FIELD, e.g. QUERY_ROOT.trips)", completes: [.recordKey]) { session, input in
            let key = try input.words(1...1)[0]
            session.printer.emit(.refs(key: key, from: session.referringFields(to: key)))
        },
        DotCommand(name: "write", usage: "KEY JSON", help: "Set fields of a record from a JSON object; {\"$reference\":K} links to record K", completes: [.recordKey]) { session, input in
            guard let key = input.words.first, !input.rest(after: 1).isEmpty else { throw CommandError("usage: \(input.synopsis)") }
            let fields = try JSONArgument.object(input.rest(after: 1), for: ".write", references: .apollo)
            try session.client.cache.write(record: key, fields: fields)
        },
        DotCommand(name: "evict", usage: "KEY[.FIELD]", help: "Remove a record, or one field of it (KEY.FIELD; a bare field name takes every argument variant); under apollo-client semantics watchers hear it and cache-first ones refetch, under apollo-ios they are not told (.semantics)", completes: [.recordKey]) { session, input in
            let target = try input.words(1...1)[0]
            let cache = session.client.cache
            let (key, field) = RecordTarget.split(target, in: cache)
            let removed = try cache.evict(key, field: field)
            if removed.isEmpty { throw CommandError("nothing to evict at \"\(target)\"" + session.closeKeys(to: key)) }
            session.printer.emit(.evicted(removed))
        },
        DotCommand(name: "gc", usage: "[stale|dangling]", help: "Remove the records no reference chain reaches from the roots or the records an imported snapshot retained; with stale instead, the fields as old as their max age or older (.maxage; as .inspect judges them, from the record alone) and the records left empty; with dangling, the references to records that no longer exist (a field holding one, a list's items), then the records left empty, until none is left (Apollo Kotlin's removeDanglingReferences); watchers hear it under apollo-client semantics only (.semantics)") { session, input in
            switch try input.words(0...1).first {
            case nil: session.printer.emit(.gc(removed: try session.client.cache.gc()))
            case "stale": session.printer.emit(.staleRemoved(try session.client.cache.removeStaleFields(schema: session.endpoint?.schemaKnowledge)))
            case "dangling": session.printer.emit(.danglingRemoved(try session.client.cache.removeDanglingReferences()))
            case let word?: throw CommandError("unknown .gc argument \"\(word)\"; usage: \(input.synopsis)")
            }
        },
        DotCommand(name: "clear", help: "Remove every record (and from the cache file, leaving no trace of them); watchers hear it under apollo-client semantics only (.semantics)") { session, input in
            _ = try input.words(0...0)
            try session.client.cache.clear()
        },
        DotCommand(name: "keyfields", usage: "[TYPE [FIELD...]]", help: "Key TYPE's records by FIELDs (Type:a+b); no FIELD = never normalize TYPE; no TYPE lists the policies") { session, input in
            guard let type = input.words.first else { return session.showTypePolicies() }
            session.client.typePolicies[type] = input.words.count == 1 ? .notNormalized : .keyFields(Array(input.words.dropFirst()))
        },
        DotCommand(name: "semantics", usage: "[apollo-ios|apollo-client]", help: "Whose answers the cache and watchers give where Apollo iOS and Apollo Client differ (docs/engine.md lists each): apollo-ios (default, also --semantics) or apollo-client; without an argument, show it") { session, input in
            guard let word = try input.words(0...1).first else {
                return session.printer.emit(.semantics(session.client.semantics))
            }
            guard let semantics = Semantics(rawValue: word) else {
                throw CommandError("unknown semantics \"\(word)\"; they are " + Semantics.allCases.map(\.name).joined(separator: " and "))
            }
            session.client.semantics = semantics
        },
        DotCommand(name: "stats", help: "Records, fields, watchers, optimistic layers, bytes, and the cache's hit and miss counts") { session, input in
            _ = try input.words(0...0)
            session.printer.emit(.stats(session.client.cache.statistics))
        },
        DotCommand(name: "dump", usage: "[FILE]", help: "The cache as Apollo Client extract() JSON (ROOT_QUERY, __ref), printed or written to FILE") { session, input in
            try session.dump(to: try input.words(0...1).first)
        },
        DotCommand(name: "export", usage: "FILE", help: "Write the cache to FILE as Apollo Client extract() JSON") { session, input in
            try session.dump(to: try input.words(1...1)[0])
        },
        DotCommand(name: "import", usage: "FILE", help: "Load Apollo Client extract() JSON from FILE into the cache (restore); watchers hear it") { session, input in
            try session.importSnapshot(from: try input.words(1...1)[0])
        },
        DotCommand(name: "check", help: "Run SQLite's PRAGMA integrity_check over the cache file (opening loads records lazily and does not run it); fails naming what it finds") { session, input in
            _ = try input.words(0...0)
            guard let store = session.scope.store else { throw CommandError("the cache is in memory: there is no file to check") }
            let findings: [String]
            // On the store's connection, which a follower's thread uses too: under the cache's lock.
            let cache = session.scope.cache
            do { findings = try cache.usingStore { try store.integrityCheck() }.flatMap { $0.split(separator: "\n").map(String.init) }.filter { !$0.hasPrefix("*** in database") } } catch {
                findings = [(error as? StoreError)?.message ?? "\(error)"]   // too damaged for the check to run to its end
            }
            guard findings == ["ok"] else {
                throw CommandError("\(store.path): fails SQLite's integrity check: " + findings.joined(separator: "; "))
            }
            session.printer.emit(.integrityChecked(file: store.path))
        },
        DotCommand(name: "open", usage: "FILE", help: "Put the cache over a SQLite cache file (Apollo iOS format), loading what it holds; created if missing") { session, input in
            let file = try input.words(1...1)[0]
            try session.lifecycle(nil) { try session.scope.open(file, mode: .readWrite) }
            session.reportOpened()
        },
        // lifecycle
        DotCommand(name: "login", usage: "USER", help: "Switch to USER: their store DIR/USER.sqlite under --cache-dir (else a new memory cache); services hear it") { session, input in
            let user = try input.words(1...1)[0]
            try session.lifecycle(.login(user: user)) { try session.scope.login(user) }
            session.reportOpened()
        },
        DotCommand(name: "logout", help: "Services drop their state; the cache is cleared and the user's store deleted with its -wal and -shm files") { session, input in
            _ = try input.words(0...0)
            let described = session.scope.description
            let stored = session.scope.store != nil
            try session.lifecycle(.logout) { try session.scope.logout() }
            session.printer.emit(.loggedOut(deleted: stored ? described : nil))
        },
        DotCommand(name: "foreground", help: "Tell every service the app came to the foreground") { session, input in
            _ = try input.words(0...0)
            try session.lifecycle(.foreground)
        },
        // network
        DotCommand(name: "network", usage: "online|offline|latency MS|fail N|log", help: "Simulated network conditions on every endpoint, and the log of requests") { session, input in
            let words = try input.words(1...2)
            let network = session.client.network
            switch (words[0], words.count) {
            case ("online", 1): network.isOffline = false
            case ("offline", 1): network.isOffline = true
            case ("latency", 2):
                network.latency = .milliseconds(try CountArgument.parse(words[1], command: ".network latency", name: "MS"))
            case ("fail", 2):
                network.failNext(try CountArgument.parse(words[1], command: ".network fail", name: "N"))
            case ("log", 1):
                for event in network.log { session.printer.emit(.network(event)) }
            default: throw CommandError("usage: \(input.synopsis)")
            }
        },
        DotCommand(name: "clock", usage: "[+DURATION|ISO-8601|real]", help: "The session's clock, which commit times (.history, .why) and freshness go by: alone, its time; +DURATION moves it forward (+90s, +15m, +2h, +1d, +1h30m) and it keeps ticking; an ISO 8601 time (2026-12-01T10:00:00Z, not before its time now) stops it there; real returns to real time") { session, input in
            let cache = session.client.cache
            switch try ClockArgument(try input.words(0...1).first) {
            case .show: break
            case .real:
                let ahead = cache.clock.now().timeIntervalSince(Date())
                cache.clock.reset()
                // Times stamped while it was ahead are in the future now: those fields look younger.
                if ahead >= 1 { session.warn("the clock went back \(DurationText.of(ahead)) to real time: fields received while it was ahead look that much younger") }
            case .forward(let seconds): try cache.clock.advance(by: seconds)
            case .instant(let date): try cache.clock.set(to: date)
            }
            session.printer.emit(.clock(cache.clock))
        },
        DotCommand(name: "maxage", usage: "[TYPE[.FIELD]] SECONDS|inherit|off", help: "How long cached fields stay fresh, by the session's clock (.clock): TYPE for the fields that return it, TYPE.FIELD for one field (inherit: as long as the field holding its object), in place of the schema's @cacheControl for the same TYPE or TYPE.FIELD; SECONDS alone, the default for root fields and fields of object type that nothing names. A field as old as its max age is stale, a miss for cache-first and cache-only unless within .maxstale. Alone: every max age in force; off removes one") { session, input in
            let cache = session.client.cache
            let endpoint = session.endpoint?.schemaKnowledge
            switch try MaxAgeArgument(try input.words(0...2), schema: endpoint?.possibleTypes) {
            case .show: session.showMaxAges()
            case .defaultMaxAge(let seconds): cache.maxAges.defaultMaxAge = seconds
            case .rule(let coordinate, let rule): cache.maxAges[coordinate] = rule
            }
        },
        DotCommand(name: "maxstale", usage: "[SECONDS]", help: "How long past its max age a stale field is still read (listed as stale) before it is a miss (Apollo Kotlin's maxStale); 0, the default: a stale field is a miss. Alone: the max ages and max stale in force") { session, input in
            guard let word = try input.words(0...1).first else { return session.showMaxAges() }
            guard let seconds = Double(word), seconds >= 0, seconds.isFinite else { throw CommandError(".maxstale takes SECONDS (0 or more), not \"\(word)\"") }
            session.client.cache.maxStale = seconds
        },
        // explaining
        DotCommand(name: "why", usage: "[ID]", help: "With a watcher ID: each commit since its last emission (up to the last \(WatcherExplanation.kept)), whether it reached the watcher, and why not (a reason code, a sentence, what would bring the change in). Alone: why the last operation's result came from where it did, and each missing field's reason and nearest data") { session, input in
            guard let word = try input.words(0...1).first else { return try session.explainLastOperation() }
            guard let id = Int(word), let why = session.client.cache.explain(watcher: id) else {
                throw CommandError("no watcher \"\(word)\" (.watches lists them)")
            }
            session.printer.emit(.whyWatcher(why))
        },
        DotCommand(name: "graph", usage: "KEY|ID [DEPTH] [FILE]", help: "The records within DEPTH references of record KEY (default 1), or those watcher ID depends on (default depth 0), and the references between them as Graphviz DOT; written to FILE ending .dot, or rendered by Graphviz's dot to one ending .svg or .png", completes: [.recordKey]) { session, input in
            let words = try input.words(1...3)
            try session.graph(of: words[0], arguments: Array(words.dropFirst()))
        },
        // live
        DotCommand(name: "subscribe", usage: "OPERATION|OP [JSON]", help: "Start a GraphQL subscription typed on the line or named (the project's), over WebSocket to the current HTTP endpoint (ws: for http:, wss: for https:; graphql-transport-ws, or graphql-ws when the server chooses it), or in the current plugin. Returns once the server acknowledges; each event is written into the cache (SUBSCRIPTION_ROOT and its entities, cause subscription, so watchers emit) and prints as it arrives (in scripts, .wait for it). A dropped connection reconnects with a doubling wait and says so; a server error or complete ends the subscription with its message", completes: [.operation]) { session, input in
            guard let first = input.words.first else { throw CommandError("usage: \(input.synopsis)") }
            let text = input.text(ofWords: 0..<input.words.count)
            if GraphQLInput.starts(text[...]) { return try session.subscribe(try session.compile(text), variables: nil) }
            let json = input.rest(after: 1)
            let variables = try json.isEmpty ? nil : JSONArgument.object(json, for: ".subscribe")
            try session.subscribe(try session.operation(named: first), variables: variables)
        },
        DotCommand(name: "unsubscribe", usage: "ID|all", help: "Stop a subscription, or all of them: the server hears complete, and its end prints") { session, input in
            try session.unsubscribe(try input.words(1...1)[0])
        },
        DotCommand(name: "subscriptions", help: "Subscriptions running: id, operation, variables, events so far, WebSocket URL") { session, input in
            _ = try input.words(0...0)
            session.printer.emit(.subscriptions(session.subscriptions.active))
        },
        DotCommand(name: "wait", usage: "ID N", help: "Wait until subscription ID has had N events in all, or has ended, for up to the timeout (.timeout); fails, saying how many came, when the subscription failed or the time ran out") { session, input in
            let words = try input.words(2...2)
            try session.waitForEvents(words[0], count: try CountArgument.parse(words[1], command: ".wait", name: "N (events)", least: 1))
        },
        DotCommand(name: "follow", usage: "[on|off]", help: "on: follow the commits another process (the app) makes to the cache file the session is over (normcache inspect FILE, or .open FILE; also inspect --follow): within 250 ms each commit's changed records reload in one commit with cause external, print old → new (JSON: a follow event), and watchers emit; the file is never written. A file deleted, replaced or whose WAL is reset stops it with a warning. Refused over memory and over a user's store under --cache-dir. off: stop. Alone: whether a file is followed") { session, input in
            guard try !input.words(0...1).isEmpty else { return session.showFollowing() }
            if try input.onOff() { try session.startFollowing() } else { session.stopFollowing() }
        },
        DotCommand(name: "diff", usage: "FILE [GLOB]", help: "The current cache (A: what .keys lists) against a cache file (B, in Apollo iOS's format, opened read-only and never written; also normcache diff A B): in key order, - KEY for a record only in A, + KEY for one only in B, ~ KEY for one whose fields differ, each as FIELD: OLD → NEW ((absent) for a field a record lacks); values compare as Apollo iOS reads them, so member order and number formatting are no difference. GLOB narrows both sides to the record keys it matches (* any run, ? one character)") { session, input in
            let words = try input.words(1...2)
            try session.diff(against: words[0], keys: words.count == 2 ? words[1] : nil)
        },
        // debug
        DotCommand(name: "monitor", usage: "on|off", help: "Print every record write (the fields that changed, the watchers reached, those it did not reach that read a record it touched) as it happens") { session, input in
            session.settings.monitors = try input.onOff()
        },
        // tests
        DotCommand(name: "expect", usage: "CLAIM", help: "Check a claim (a failure prints where, expected and actual, and makes the run exit 1); CLAIM is one of: " + Expectation.forms, completes: [.claim, .claim]) { session, input in
            session.ledger.expecting()
            let expectation = try Expectation(input)
            if case .error = expectation { session.ledger.excuseLastFailure() }
            try session.check(expectation, claim: String(input.text.trimmingWhitespace))
        },
    ]

    /// The command called `name` (without the dot), by name or alias.
    package static func command(named name: String) -> DotCommand? {
        commands.first { $0.name == name || $0.aliases.contains(name) }
    }
}
