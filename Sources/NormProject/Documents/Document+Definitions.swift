import GraphQL
import NormCache

extension Document {
    /// A document of these definitions, each keeping the source (the file) it was parsed
    /// from, so errors in it are placed in the right file. (GraphQLSwift's `Document`
    /// initializer is internal; `set(value:key:)` is its public way to build one.)
    static func of(_ definitions: [Definition]) -> Document {
        emptyDocument.set(value: NodeResult.array(definitions.map { $0 as any Node }), key: "definitions")
    }

    private static let emptyDocument = try! GraphQL.parse(source: "scalar Placeholder")

    /// Parses `text`, read from `file`; a syntax error, or what GraphQLSwift's parser cannot
    /// take (``GraphQLParserGuard``), is a problem in that file.
    static func read(_ text: String, file: String, problems: inout [ProjectError.Problem]) -> Document? {
        do throws(OperationError) { try GraphQLParserGuard.check(text) } catch {
            problems.append(.init(error, in: file))
            return nil
        }
        do { return try GraphQL.parse(source: Source(body: text, name: file)) } catch let error as GraphQLError {
            problems.append(ProjectError.Problem(error))
        } catch {
            problems.append(.init(file: ProjectError.Problem.file(named: file), message: "\(error)"))
        }
        return nil
    }
}
