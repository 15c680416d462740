import GraphQL
import NormCache

/// A project's schema: its SDL files (or one introspection result) and the extension files
/// beside them, built into one GraphQLSwift schema that operations are validated against,
/// and what it tells the cache (possible types, @typePolicy, @fieldPolicy).
struct ProjectSchema: Sendable {
    let schema: GraphQLSchema
    let knowledge: SchemaKnowledge
    /// What loaded but deserves a word: a `@defer` declaration replaced by Apollo iOS's.
    let warnings: [ProjectError.Problem]
    /// The directives and types ``ApolloDirectives`` declared because the files did not
    /// (`@typePolicy`, `CacheControlScope`).
    let added: Set<String>
    /// The cache directives the files put on types and their fields, each type's as a type
    /// extension (`extend type Query @typePolicy(connectionFields: "feed")`), and the names
    /// of those directives (`@typePolicy`), for ``serverSDL``.
    let appliedCacheDirectives: (extensions: [String], names: Set<String>)

    /// The schema of the project's schema files; `nil` with the problems added when it has any.
    static func load(_ files: ProjectFiles, problems: inout [ProjectError.Problem]) -> ProjectSchema? {
        load(files.schema.compactMap { file in files.texts[file].map { (file, $0) } }, problems: &problems)
    }

    /// The schema of `sources`, each a file name (or a name for messages) and its text: SDL,
    /// or an introspection result in a `.json` file. `nil` with the problems added when it has any.
    static func load(_ sources: [(file: String, text: String)], problems: inout [ProjectError.Problem]) -> ProjectSchema? {
        let problemsBefore = problems.count
        var definitions: [Definition] = []
        let files = sources.map(\.file)
        let jsonFiles = files.filter { $0.hasSuffix(".json") }
        for file in jsonFiles.dropFirst() {
            problems.append(.init(file: file, message: "a second JSON schema (after \(jsonFiles[0])): give one introspection result, and extensions in .graphqls files"))
        }
        var sdlFiles: [(file: String, definitions: [Definition])] = []
        var introspected: Set<String> = []   // the types a JSON schema defines
        for (file, text) in sources {
            guard let fileSDL = Self.sdl(text, file: file, problems: &problems),
                  let document = Document.read(fileSDL, file: file, problems: &problems) else { continue }
            if file.hasSuffix(".json") {
                introspected.formUnion(document.definitions.compactMap { ($0 as? TypeDefinition)?.name.value })
            } else {
                sdlFiles.append((file, document.definitions))
            }
            definitions += document.definitions
        }
        if let json = jsonFiles.first, let problem = Self.schemaGivenTwice(json, introspected, sdlFiles) { problems.append(problem) }
        guard problems.count == problemsBefore else { return nil }
        var warnings: [ProjectError.Problem] = []
        let apolloDirectives = ApolloDirectives.definitions(missingFrom: definitions, warnings: &warnings)
        definitions = definitions.filter { !ApolloDirectives.replaces($0) } + apolloDirectives
        let added = Set(apolloDirectives.compactMap { definition in
            (definition as? DirectiveDefinition).map { "@" + $0.name.value } ?? (definition as? TypeDefinition)?.name.value
        })

        let outline = SchemaOutline(definitions)
        var directiveProblems: [CacheDirectives.Problem] = []
        let knowledge = SchemaKnowledge(schema: definitions, outline: outline, problems: &directiveProblems)
        problems += directiveProblems.map { .init(at: $0.location, $0.message) }
        // Our checks stand for GraphQLSwift's SDL rules, at a fraction of their cost; the
        // rules run only on what our checks cannot judge.
        let sdlProblems = SDLChecks.problems(of: definitions)
        problems += sdlProblems ?? []
        guard sdlProblems?.isEmpty ?? true else { return nil }
        let schema: GraphQLSchema
        do {
            schema = try buildASTSchema(documentAST: Document.of(definitions), assumeValidSDL: sdlProblems != nil)
        } catch let error as GraphQLError where error.nodes.isEmpty && error.locations.isEmpty {
            // The SDL rules' errors come joined, without places: each is placed at the first
            // type or directive it quotes.
            problems += error.message.components(separatedBy: "\n\n").map { message in
                outline.place(of: message).map { .init(at: $0, message) } ?? .init(file: files.joined(separator: ", "), message: message)
            }
            return nil
        } catch let error as GraphQLError {
            problems.append(.init(error))
            return nil
        } catch {
            problems.append(.init(file: files.first, message: "\(error)"))
            return nil
        }
        guard problems.count == problemsBefore else { return nil }
        return ProjectSchema(schema: schema, knowledge: knowledge, warnings: warnings, added: added,
                             appliedCacheDirectives: Self.appliedCacheDirectives(in: definitions))
    }

    /// The directives the cache reads from a type (``CacheDirectives``).
    static let cacheDirectives: Set<String> = ["typePolicy", "fieldPolicy", "connection", "embeddedField", "cacheControl", "cacheControlField"]

    /// Each object type's, interface's and union's cache directives in `definitions`, as a
    /// type extension carrying them; a printed schema shows no applied directive. Those on
    /// its fields come as the type's directive that says the same of the field by name:
    /// `@cacheControl(maxAge: 30)` on `barks` as `@cacheControlField(name: "barks", maxAge: 30)`,
    /// `@embedded` as `@embeddedField(name: "barks")`.
    private static func appliedCacheDirectives(in definitions: [Definition]) -> (extensions: [String], names: Set<String>) {
        var names: Set<String> = []
        let extensions = definitions.compactMap { definition -> String? in
            let (keyword, name, directives, fields): (String, String, [Directive], [FieldDefinition])
            switch definition {
            case let type as ObjectTypeDefinition: (keyword, name, directives, fields) = ("type", type.name.value, type.directives, type.fields)
            case let type as TypeExtensionDefinition:
                (keyword, name, directives, fields) = ("type", type.definition.name.value, type.definition.directives, type.definition.fields)
            case let type as InterfaceTypeDefinition: (keyword, name, directives, fields) = ("interface", type.name.value, type.directives, type.fields)
            case let type as InterfaceExtensionDefinition:
                (keyword, name, directives, fields) = ("interface", type.definition.name.value, type.definition.directives, type.definition.fields)
            case let type as UnionTypeDefinition: (keyword, name, directives, fields) = ("union", type.name.value, type.directives, [])
            case let type as UnionExtensionDefinition: (keyword, name, directives, fields) = ("union", type.definition.name.value, type.definition.directives, [])
            default: return nil
            }
            var kept = directives.filter { cacheDirectives.contains($0.name.value) }.map { (name: $0.name.value, text: print(ast: $0)) }
            for field in fields {
                for directive in field.directives {
                    let named = "name: \"\(field.name.value)\""
                    switch directive.name.value {
                    case "cacheControl":
                        let arguments = [named] + directive.arguments.map { print(ast: $0) }
                        kept.append(("cacheControlField", "@cacheControlField(" + arguments.joined(separator: ", ") + ")"))
                    case "embedded": kept.append(("embeddedField", "@embeddedField(\(named))"))
                    default: continue
                    }
                }
            }
            names.formUnion(kept.map { "@" + $0.name })
            return kept.isEmpty ? nil : "extend \(keyword) \(name) " + kept.map(\.text).joined(separator: " ")
        }
        return (extensions, names)
    }

    /// The schema as its server has it, as SDL: printed without the declarations
    /// ``ApolloDirectives`` added (the client directives Apollo's codegen adds, which a
    /// server declares none of, and the cache directives the files did not declare).
    /// The cache directives the files put on types and fields follow, as type extensions,
    /// with the declarations they need: a plugin's host reads them from the SDL it serves.
    var serverSDL: String {
        var used = appliedCacheDirectives.names
        if used.contains("@cacheControl") || used.contains("@cacheControlField") { used.insert("CacheControlScope") }
        let printed = printSchema(schema: schema).components(separatedBy: "\n\n").filter { definition in
            // `directive @typePolicy(keyFields: …`, `enum CacheControlScope {`: the second word, up to a parenthesis.
            let name = definition.split(separator: " ", maxSplits: 2).dropFirst().first?.prefix { $0 != "(" && $0 != "\n" }
            return !added.subtracting(used).contains(name.map(String.init) ?? "")
        }
        return (printed + appliedCacheDirectives.extensions).joined(separator: "\n\n")
    }

    /// One problem for SDL files that define again the types of the introspection result in
    /// `json` (`introspected`), as when a project's folder keeps both `schema.graphqls` and
    /// `schema.json`: SDL beside a JSON schema may only extend it, as in Apollo's codegen.
    private static func schemaGivenTwice(_ json: String, _ introspected: Set<String>,
                                         _ sdlFiles: [(file: String, definitions: [Definition])]) -> ProjectError.Problem? {
        var redefined: [(file: String, types: [TypeDefinition])] = []
        for (file, definitions) in sdlFiles {
            let types = definitions.compactMap { $0 as? TypeDefinition }.filter { introspected.contains($0.name.value) }
            if !types.isEmpty { redefined.append((file, types)) }
        }
        guard let first = redefined.first?.types.first else { return nil }
        let count = redefined.map(\.types.count).reduce(0, +)
        let files = redefined.map(\.file).joined(separator: ", ")
        return .init(at: first.loc, "\(files) define\(redefined.count == 1 ? "s" : "") \(count) type\(count == 1 ? "" : "s") that \(json) "
                     + "defines too (\(first.name.value)…): give the schema once, in SDL or as JSON (remove one, or leave it out of input.schemaSearchPaths); "
                     + "SDL beside a JSON schema may only extend its types")
    }

    /// The file's SDL: its text, or for a `.json` file the introspection result written as SDL.
    private static func sdl(_ text: String, file: String, problems: inout [ProjectError.Problem]) -> String? {
        guard file.hasSuffix(".json") else { return text }
        let json: CacheValue
        do { json = try JSON.parse(text) } catch {
            problems.append(.init(file: file, line: error.line, column: error.column, message: "not JSON: \(error.message)"))
            return nil
        }
        do { return try IntrospectionSDL.sdl(of: json) } catch {
            problems.append(.init(file: file, message: "not an introspection result: \(error.description)"))
            return nil
        }
    }
}
