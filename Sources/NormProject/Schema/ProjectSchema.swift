import GraphQL
import NormCache

/// A project's schema: its SDL files (or one introspection result) and the extension files
/// beside them, built into one GraphQLSwift schema that operations are validated against,
/// and what it tells the cache (possible types, @typePolicy, @fieldPolicy).
struct ProjectSchema: Sendable {
    let schema: GraphQLSchema
    let knowledge: SchemaKnowledge

    /// The name of the source that declares the cache directives when the files do not.
    static let declarationsSourceName = "(cache directive declarations)"

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
        for (file, text) in sources {
            guard let fileSDL = Self.sdl(text, file: file, problems: &problems),
                  let document = Document.read(fileSDL, file: file, problems: &problems) else { continue }
            definitions += document.definitions
        }
        let declared = Set(definitions.compactMap { ($0 as? DirectiveDefinition)?.name.value })
        if !declared.contains("typePolicy") || !declared.contains("fieldPolicy"),
           let declarations = Document.read(CacheDirectives.declarations, file: declarationsSourceName, problems: &problems) {
            definitions += declarations.definitions.filter { !declared.contains(($0 as? DirectiveDefinition)?.name.value ?? "") }
        }
        guard problems.count == problemsBefore else { return nil }

        let outline = SchemaOutline(definitions)
        let directives = CacheDirectives(definitions, outline: outline)
        problems += directives.problems
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
        let knowledge = SchemaKnowledge(possibleTypes: PossibleTypes(schema: definitions), typePolicies: directives.typePolicies,
                                        fieldPolicies: directives.fieldPolicies)
        return ProjectSchema(schema: schema, knowledge: knowledge)
    }

    /// The file's SDL: its text, or for a `.json` file the introspection result written as SDL.
    private static func sdl(_ text: String, file: String, problems: inout [ProjectError.Problem]) -> String? {
        guard file.hasSuffix(".json") else { return text }
        do {
            guard let sdl = IntrospectionSDL.sdl(try JSON.parse(text)) else {
                problems.append(.init(file: file, message: "not an introspection result: it has no __schema.types list"))
                return nil
            }
            return sdl
        } catch {
            problems.append(.init(file: file, line: error.line, column: error.column, message: "not JSON: \(error.message)"))
            return nil
        }
    }
}
