import NormCache

/// What Tab completes at the workbench prompt, given the line up to the cursor:
/// dot-commands (`.he` → `.help`), command names after `.help`, plugin names after `.use`,
/// service commands (`tri` → `trips.`, `trips.re` → `trips.rename`), operation names after
/// `.run` and `.watch`, record keys after `.inspect`, `.refs`, `.evict`, `.write` and
/// `.expect record`, and inside a GraphQL operation what the endpoint's schema allows
/// there (``init(operation:schema:)``).
///
/// ```swift
/// let completion = Completion(for: "trips.re", in: session)
/// completion.word         // "trips.re"
/// completion.candidates   // ["trips.rename"]
/// completion.action       // .insert("name ")
/// ```
struct Completion {
    /// The part of the word before the cursor that the candidates complete.
    let word: String
    /// The choices that begin with ``word``, sorted, without repeats.
    let candidates: [String]

    init(word: String, choices: [String]) {
        self.word = word
        candidates = Set(choices.filter { $0.hasPrefix(word) }).sorted()
    }

    /// The completion of `line`, the text before the cursor, from what `session` holds now.
    init(for line: String, in session: Session) {
        if let operation = Self.operation(endingWith: line, in: session) {
            let fragments = session.app.onProjectEndpoint ? session.app.project?.fragments ?? [] : []
            self.init(operation: operation, schema: session.endpoint?.schemaKnowledge?.possibleTypes,
                      fragments: fragments.map { ($0.name, $0.typeCondition ?? "") })
        } else {
            let word = String(line.reversed().prefix { !$0.isWhitespace }.reversed())
            let before = line.dropLast(word.count).split(whereSeparator: \.isWhitespace).map(String.init)
            self.init(word: word, choices: Self.choices(after: before, typing: word, in: session))
        }
    }

    /// The completion of the name before the cursor in `operation`, the GraphQL typed so
    /// far, from the endpoint's `schema` (none: nothing completes): the fields of the
    /// innermost selection's type and `__typename`, the types after `... on`, after `...`
    /// the `fragments` (name, type condition: a project's) that can apply there, a field's
    /// argument names, the variables the header declares after `$`.
    ///
    /// ```swift
    /// Completion(operation: "{ trips { destination { ci", schema: trips).candidates   // ["city"]
    /// Completion(operation: "{ trip(i", schema: trips).action                         // .insert("d: ")
    /// Completion(operation: "{ trips { ...Tr", schema: trips, fragments: [("TripHeader", "Trip")]).candidates   // ["TripHeader"]
    /// ```
    init(operation: String, schema: PossibleTypes?, fragments: [(name: String, typeCondition: String)] = []) {
        let word = String(operation.reversed().prefix(while: GraphQLTokens.isNameCharacter).reversed())
        guard let schema else {
            self.init(word: word, choices: [])
            return
        }
        let cursor = OperationCursor(before: operation.dropLast(word.count), schema: schema)
        self.init(word: word, choices: Self.choices(at: cursor, in: schema, fragments: fragments))
    }

    /// What Tab does.
    enum Action: Equatable {
        /// Insert this text at the cursor.
        case insert(String)
        /// Show these candidates: they share nothing more than what was typed.
        case list([String])
        /// Nothing completes the word.
        case none
    }

    /// One candidate: the rest of it, and a space unless it ends with a dot (`trips.` goes
    /// on into a command name). Several: as much as they share, or when that adds nothing
    /// (a second Tab), a list of them.
    var action: Action {
        guard let first = candidates.first else { return .none }
        if candidates.count == 1 { return .insert(String(first.dropFirst(word.count)) + (first.hasSuffix(".") ? "" : " ")) }
        let shared = candidates.reduce(first) { shared, candidate in String(zip(shared, candidate).prefix { $0 == $1 }.map(\.0)) }
        return shared.count > word.count ? .insert(String(shared.dropFirst(word.count))) : .list(candidates)
    }

    /// Candidates laid out in rows of columns that fit in `width` characters.
    static func columns(_ candidates: [String], width: Int) -> [String] {
        let columnWidth = (candidates.map(\.count).max() ?? 0) + 2
        let perRow = max(1, width / columnWidth)
        return stride(from: 0, to: candidates.count, by: perRow).map { start in
            let row = candidates[start..<min(start + perRow, candidates.count)]
            return row.dropLast().map { $0 + String(repeating: " ", count: columnWidth - $0.count) }.joined() + row.last!
        }
    }

    /// The GraphQL typed so far when the cursor is in an operation: the lines taken in of
    /// one continued over lines, then `line`; or `line` alone (after `.watch`) when it begins one.
    private static func operation(endingWith line: String, in session: Session) -> String? {
        if let earlier = session.operationSoFar { return earlier + "\n" + line }
        let text = line.trimmingWhitespace
        let watched = text.hasPrefix(".watch ") ? text.dropFirst(".watch ".count).trimmingWhitespace : text
        return GraphQLInput.starts(watched) ? String(watched) : nil
    }

    /// The names that may stand at `cursor`, as `schema` tells them.
    private static func choices(at cursor: OperationCursor, in schema: PossibleTypes,
                                fragments: [(name: String, typeCondition: String)]) -> [String] {
        switch cursor.place {
        case .selection(let type):
            let fields = schema.outputFields(of: type).map { Array($0.keys) } ?? []
            return fields.isEmpty && schema.types(satisfying: type).isEmpty ? [] : fields + ["__typename"]
        case .typeCondition(let type): return [type] + schema.types(satisfying: type)
        case .fragmentSpread(let type):
            // A spread applies where the fragment's possible types and the selection's meet.
            let possible = { (type: String) in Set([type] + schema.types(satisfying: type)) }
            return ["on"] + fragments.filter { !possible($0.typeCondition).isDisjoint(with: possible(type)) }.map(\.name)
        case .argument(let field, let type): return (schema.arguments(of: field, on: type) ?? []).map { $0 + ":" }
        case .variable: return cursor.variables
        case .elsewhere: return []
        }
    }

    /// The words that may stand where `word` is being typed, after the words `before` it.
    private static func choices(after before: [String], typing word: String, in session: Session) -> [String] {
        let plugins = session.plugins.plugins
        guard let first = before.first else {
            let serviceCommands = plugins.flatMap(\.manifest.commands).map { word.contains(".") ? $0.name : $0.domain + "." }
            return commandNames.map { "." + $0 } + serviceCommands
        }
        // What the command table says its argument at this place names.
        guard first.hasPrefix("."), let command = CommandTable.command(named: String(first.dropFirst())),
              command.completes.indices.contains(before.count - 1) else { return [] }
        switch command.completes[before.count - 1] {
        case .command: return commandNames.map { word.hasPrefix(".") ? "." + $0 : $0 }
        case .plugin: return plugins.map(\.name)
        case .operation: return session.operationNames
        case .recordKey: return session.client.cache.keys()
        case .claim: return before.last == "record" ? session.client.cache.keys() : []
        case .watcher: return session.client.activeWatches.map { "\($0.id)" }
        case .word(let words): return words
        }
    }

    /// Every dot-command's name and alias, without the dot.
    private static var commandNames: [String] { CommandTable.commands.flatMap { [$0.name] + $0.aliases } }
}
