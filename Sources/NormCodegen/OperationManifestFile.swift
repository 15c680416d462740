import NormCache
import NormProject

/// The persisted query manifest Apollo iOS's codegen writes (`operationManifest` with
/// `generateManifestOnCodeGeneration`): each
/// operation's identifier with the text it hashes, in Apollo's `persistedQueries` format
/// (what GraphOS and a persisted-queries server take) or its `legacy` one.
///
/// ```json
/// { "format": "apollo-persisted-query-manifest", "version": 1, "operations": [
///     { "id": "b9d49e88…", "body": "query HeroName($episode: Episode) { … }", "name": "HeroName", "type": "query" } ] }
/// ```
struct OperationManifestFile {
    let version: CodegenConfiguration.OperationManifest.Version
    let operations: [ProjectDefinition]
    let identifiers: OperationIdentifier

    var text: String {
        get throws(ProjectError) {
            var entries: [String] = []
            for operation in operations {
                let source = try identifiers.source(of: operation)
                let id = SHA256.hex(of: source)
                switch version {
                case .persistedQueries:
                    entries.append("""
                            {
                              "id": \(quoted(id)),
                              "body": \(quoted(source)),
                              "name": \(quoted(operation.name)),
                              "type": \(quoted(operation.kind.rawValue))
                            }
                        """)
                case .legacy:
                    entries.append("""
                          \(quoted(id)) : {
                            "name": \(quoted(operation.name)),
                            "source": \(quoted(source))
                          }
                        """)
                }
            }
            switch version {
            case .persistedQueries:
                return "{\n  \"format\": \"apollo-persisted-query-manifest\",\n  \"version\": 1,\n  \"operations\": [\n"
                    + entries.joined(separator: ",\n") + "\n  ]\n}\n"
            case .legacy:
                return "{\n" + entries.joined(separator: ",\n") + "\n}\n"
            }
        }
    }

    private func quoted(_ text: String) -> String { JSON.string(.string(text)) }
}
