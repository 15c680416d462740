import GraphQL
import NormCache

/// One type's definition out of a schema's SDL, as `.schema TYPE` shows it. The SDL is
/// parsed with GraphQLSwift, as a project's schema is; the definition prints as written,
/// from the line that names the type to the line that closes it.
///
/// ```swift
/// try SchemaText.definition(of: "Trip", in: "type Query { trips: [Trip] }\ntype Trip { id: ID! }")
/// // "type Trip { id: ID! }"
/// try SchemaText.definition(of: "Trp", in: "type Trip { id: ID! }")
/// // throws: the schema has no type "Trp"; did you mean Trip?
/// ```
enum SchemaText {
    /// The definition of `type` (a type, interface, union, enum, input or scalar; not an
    /// `extend`); throws naming what is wrong when the SDL does not parse or has no such type.
    static func definition(of type: String, in sdl: String) throws(CommandError) -> String {
        let document: Document
        do {
            try GraphQLParserGuard.check(sdl)
            document = try parse(source: Source(body: sdl, name: "schema"))
        } catch let error as GraphQLError {
            let place = error.locations.first.map { "line \($0.line), column \($0.column): " } ?? ""
            throw CommandError("the schema does not parse (\(place)\(error.message)), so it cannot show \"\(type)\"")
        } catch {
            throw CommandError("the schema does not parse (\(error)), so it cannot show \"\(type)\"")
        }
        let definitions = document.definitions.compactMap { $0 as? TypeDefinition }
        guard let found = definitions.first(where: { $0.name.value == type }),
              let first = found.name.loc?.startToken.line, let last = found.loc?.endToken.line else {
            throw CommandError("the schema has no type \"\(type)\"" + DidYouMean(type, among: definitions.map(\.name.value)).hint)
        }
        return sdl.split(separator: "\n", omittingEmptySubsequences: false)[(first - 1)...(last - 1)].joined(separator: "\n")
    }
}
