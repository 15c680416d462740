import Foundation
import NormCache
@testable import NormProject
import TestSupport
import Testing

/// A project's schema knowledge is what variables are checked against on its endpoint
/// (the engine's `VariableCoercion` decides): enum values, input objects' fields and
/// `@oneOf`, from `.graphqls` files or an introspection `schema.json`.
@Suite struct ProjectVariableTests {
    /// The team's copy of Apollo iOS's StarWarsAPI (outside this repository, in the shared
    /// folder beside the checkout: see PROVENANCE.md there), loaded as an app's project.
    static let starWars = ProjectDirectory.repository + "/../shared/fixtures/real-projects/StarWarsAPI"
    /// Where the shared folder is not beside the checkout, the test says it did not run.
    static let hasStarWars = FileManager.default.fileExists(atPath: starWars)

    /// The message of the variable error that running `operation` of `project` with
    /// `variables` meets, or the coerced variables as JSON.
    func check(_ variables: CacheObject, _ operation: String, of project: Project) throws -> String {
        let cache = NormalizedCache()
        let compiled = try cache.operation(try project.document(forOperation: operation), name: operation)
        do { return JSON.string(.object(try cache.coerceVariables(variables, for: compiled, schema: project.schemaKnowledge))) } catch {
            guard case .variable(let refusal) = error else { return "not a variable error: \(error)" }
            return refusal.description
        }
    }

    @Test(.enabled(if: hasStarWars, "no ../shared/fixtures/real-projects beside the checkout"))
    func aRealProjectsSchemaRefusesWhatItDoesNotTake() throws {
        let project = try Project(directory: Self.starWars)
        #expect(try check(["episode": "JEDIX"], "HeroName", of: project) == #"$episode: "JEDIX" is not a value of Episode (NEWHOPE, EMPIRE, JEDI)"#)
        #expect(try check(["episode": "JEDI", "review": ["commentary": "Great"]], "CreateReviewForEpisode", of: project)
            == "$review.stars: missing; ReviewInput requires stars: Int!")
        #expect(try check(["episode": "JEDI", "review": ["stars": 5, "favorite_color": ["red": 1, "green": 2]]], "CreateReviewForEpisode", of: project)
            == "$review.favorite_color.blue: missing; ColorInput requires blue: Int!")
        #expect(try check(["episode": "JEDI", "review": ["stars": 5, "starz": 5]], "CreateReviewForEpisode", of: project)
            == "$review.starz: ReviewInput has no field starz (its fields: stars, commentary, favorite_color)")
        #expect(try check(["episode": "JEDI", "review": ["stars": 5.0, "commentary": nil]], "CreateReviewForEpisode", of: project)
            == #"{"episode":"JEDI","review":{"stars":5,"commentary":null}}"#)
    }

    /// An introspection `schema.json` keeps its enum values, its input fields' defaults and
    /// `isOneOf` (written `@oneOf` in the SDL the project builds).
    @Test func anIntrospectedProjectChecksTheSame() throws {
        let string = #"{"kind": "SCALAR", "name": "String"}"#
        let directory = try ProjectDirectory([
            "schema.json": """
                {"__schema": {"queryType": {"name": "Query"}, "types": [
                  {"kind": "OBJECT", "name": "Query", "interfaces": [], "fields": [
                    {"name": "pets", "type": \(string), "args": [
                      {"name": "search", "type": {"kind": "INPUT_OBJECT", "name": "PetSearch"}, "defaultValue": null},
                      {"name": "kind", "type": {"kind": "ENUM", "name": "Kind"}, "defaultValue": null}]}]},
                  {"kind": "INPUT_OBJECT", "name": "PetSearch", "isOneOf": true, "inputFields": [
                    {"name": "name", "type": \(string), "defaultValue": null}, {"name": "id", "type": \(string), "defaultValue": null}]},
                  {"kind": "ENUM", "name": "Kind", "enumValues": [{"name": "CAT"}, {"name": "DOG"}]},
                  {"kind": "SCALAR", "name": "String"}
                ], "directives": []}}
                """,
            "App/Pets.graphql": "query Pets($search: PetSearch, $kind: Kind) { pets(search: $search, kind: $kind) }",
        ])
        let project = try Project(directory: directory.path)
        #expect(try check(["search": ["name": "Rex", "id": "7"]], "Pets", of: project) == "$search: @oneOf PetSearch takes exactly one field, got 2 (name, id)")
        #expect(try check(["kind": "BIRD"], "Pets", of: project) == #"$kind: "BIRD" is not a value of Kind (CAT, DOG)"#)
        #expect(try check(["search": ["id": "7"], "kind": "CAT"], "Pets", of: project) == #"{"search":{"id":"7"},"kind":"CAT"}"#)
    }
}
