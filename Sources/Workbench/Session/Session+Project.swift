import NormCache
import NormClient
import NormProject

/// What the session does with an app's GraphQL project: `.project` to load or show it,
/// `.ops` of it, and the validation of every operation typed (against its schema, or the
/// endpoint's).
extension Session {
    /// `.project DIR` and `--project`: loads the project in `directory` (relative to the
    /// script running) and runs on its endpoint. A project that does not load changes
    /// nothing; the error names every file, line and column at fault.
    func loadProject(_ directory: String) throws {
        let project = try App.project(in: resolve(directory))
        app.use(project)
        for warning in project.warnings { warn("\(warning)") }
        showProject()
        applyKeyFieldsTheFileShows()
    }

    /// With a project and a cache file (`inspect FILE --project DIR`, `.open`), the key
    /// fields the file's keys show for each type the project leaves without `@typePolicy`
    /// (the app keys it in code, with `cacheKeyInfo`) key that type here too, as `.keyfields`
    /// would, and are said in one line. Types keyed so by `.keyfields` keep theirs.
    func applyKeyFieldsTheFileShows() {
        guard let project = app.project, scope.store != nil, scope.user == nil else { return }
        let own = client.typePolicies
        let shown = ImpliedKeyFields.find(in: scope.cache).filter { found in
            project.schemaKnowledge.typePolicies[found.typename] == nil && own[found.typename] == nil
        }
        guard !shown.isEmpty else { return }
        for found in shown { client.typePolicies[found.typename] = found.policy }
        let described = shown.map { found in
            "\(found.typename) by \(found.fields.joined(separator: "+"))" + (found.group.map { " in \($0)'s key space" } ?? "")
        }
        warn("keyed as the file's keys show (the app configures this in code; the project has no @typePolicy for them): "
             + described.joined(separator: ", "))
    }

    /// `.project` alone: what is loaded.
    func showProject() {
        printer.emit(.project(app.project, endpoint: app.onProjectEndpoint ? endpoint?.name ?? "none" : nil))
    }

    /// `.ops` on the project's endpoint: its operations and fragments, with file and line.
    func showProjectOperations(_ project: Project) {
        printer.emit(.projectOperations(project.operations + project.fragments))
    }

    /// The compiled operation of `document` typed at the REPL, first validated against the
    /// schema it answers to: the project's, always; off a project, the endpoint's when one is
    /// known (a plugin's manifest, an HTTP endpoint's after `.schema`) and the policy may
    /// send it there. An invalid one is refused before any request, with its line and
    /// column. (A cache-only read off a project goes by the cache alone, so that what
    /// `.write` put there can be read whatever the endpoint's schema says.)
    func compile(_ document: String, name: String? = nil) throws -> CompiledOperation {
        if app.onProjectEndpoint || settings.policy != .cacheOnly, let validator = app.validator(warn: warn) {
            let problems = validator.validate(document: document)
            if !problems.isEmpty { throw InvalidOperation(problems: problems) }
        }
        return try client.cache.operation(document, name: name)
    }
}

/// An operation the schema rejects, with every problem's line and column in its text.
struct InvalidOperation: Error, CustomStringConvertible {
    let problems: [ProjectError.Problem]

    var description: String {
        problems.map { problem in
            let place = problem.line.map { line in "GraphQL error at line \(line)" + (problem.column.map { ", column \($0)" } ?? "") + ": " } ?? "GraphQL error: "
            return place + problem.message
        }.joined(separator: "\n")
    }
}
