import NormCache

/// Where the cursor stands in a GraphQL operation being typed, found by walking the text
/// before it with the endpoint's schema: from the root type (or a fragment's type) through
/// each open selection set, past aliases (`first: trips`), arguments in parentheses,
/// directives and inline fragments (`... on Station {`), to the type of the innermost
/// selection. Text that is half-typed or malformed gives a place all the same (at worst
/// ``Place/elsewhere``); a field the schema does not know leaves the type unknown.
///
/// ```swift
/// let schema = try PossibleTypes(sdl: "type Query { trips: [Trip!]! } type Trip { id: ID! destination: Destination } type Destination { city: String! }")
/// OperationCursor(before: "{ trips { destination { ", schema: schema).place   // .selection(type: "Destination")
/// OperationCursor(before: "query ($n: Int) { trips(first: $", schema: schema).variables   // ["n"]
/// ```
struct OperationCursor {
    /// What may be typed at the cursor.
    enum Place: Equatable {
        /// A field of `type`, in its selection set.
        case selection(type: String)
        /// The type condition after `... on`, inside a selection of `type`.
        case typeCondition(type: String)
        /// After `...` inside a selection of `type`: `on`, or a fragment's name.
        case fragmentSpread(type: String)
        /// An argument name of `field` of `type`, inside the field's parentheses.
        case argument(field: String, type: String)
        /// A variable's name, after `$` in the operation's body.
        case variable
        /// Nothing this knows of: the operation's header, an argument's value, a directive,
        /// a field the schema does not know, a string or a comment.
        case elsewhere
    }

    private(set) var place = Place.elsewhere
    /// The variables the header of the operation declares, in order.
    private(set) var variables: [String] = []

    /// The type of each selection set open at the cursor, innermost last; `nil` for one the
    /// schema does not know.
    private var selections: [String?] = []
    /// The type the next `{` opens: the last field's, a type condition's, the root type.
    private var opening: String?
    /// The field whose arguments follow, should a `(` come.
    private var field: (name: String, type: String)?
    /// Inside parentheses: the field they give arguments to (`nil` for a directive's or
    /// the header's), and how deep in brackets of any kind the cursor is.
    private var arguments: (field: (name: String, type: String)?, depth: Int)?
    /// Where a fragment spread (`...`, `... on`) has got to.
    private var spread = Spread.none
    /// Whether the last token named a directive (`@include`): its parentheses hold no field's arguments.
    private var directive = false
    private enum Spread { case none, started, on }

    init(before text: Substring, schema: PossibleTypes) {
        guard let tokens = GraphQLTokens.of(text) else { return }
        for index in tokens.indices {
            let previous = index > 0 ? tokens[index - 1] : nil
            take(tokens[index], after: previous, in: schema)
        }
        place = place(after: tokens.last)
    }

    /// Moves past one token; `previous` is the one before it.
    private mutating func take(_ token: Substring, after previous: Substring?, in schema: PossibleTypes) {
        guard arguments == nil else { return inArguments(token, after: previous) }
        let current = selections.last ?? nil
        switch token {
        case "{":
            selections.append(selections.isEmpty ? opening ?? schema.rootTypes[.query] : opening)
            opening = nil
            spread = .none
        case "}":
            _ = selections.popLast()
            opening = nil
            field = nil
        case "(":
            // The header's variables, a directive's arguments, or the last field's.
            arguments = (selections.isEmpty || directive ? nil : field, 1)
        case "...":
            spread = .started
            opening = current   // `... {` and `... @include(if: $x) {` stay in the type
            field = nil
        case "@":
            spread = .none
        case _ where !Self.isName(token) || previous == "@":
            break
        case _ where selections.isEmpty:
            header(token, after: previous, in: schema)
        case _ where spread == .started:
            spread = token == "on" ? .on : .none
            if spread == .none { opening = nil }   // a fragment's name
        case _ where spread == .on:
            opening = String(token)
            spread = .none
        default:
            // A field's name; an alias (`first: trips`) is taken for one until the field's name follows.
            let name = String(token)
            field = current.map { (name, $0) }
            opening = current.flatMap { schema.outputFields(of: $0)?[name]?.namedType }
        }
        directive = previous == "@" && Self.isName(token)
    }

    /// A token of the operation's header: `query`, `mutation`, `subscription` choose the
    /// root type; `fragment NAME on TYPE` the fragment's.
    private mutating func header(_ token: Substring, after previous: Substring?, in schema: PossibleTypes) {
        switch token {
        case "query": opening = schema.rootTypes[.query]
        case "mutation": opening = schema.rootTypes[.mutation]
        case "subscription": opening = schema.rootTypes[.subscription]
        case "fragment": opening = nil
        case _ where previous == "on": opening = String(token)
        default: return
        }
        variables = []
    }

    /// A token inside parentheses: brackets nest, the `)` that matches the first `(` closes
    /// them, and `$NAME` in the header declares a variable.
    private mutating func inArguments(_ token: Substring, after previous: Substring?) {
        switch token {
        case "(", "[", "{": arguments?.depth += 1
        case ")", "]", "}":
            arguments?.depth -= 1
            if arguments?.depth == 0 { arguments = nil }
        case _ where previous == "$" && selections.isEmpty: variables.append(String(token))
        default: break
        }
    }

    /// Where the cursor is once every token before it was taken; `last` is the last of them.
    private func place(after last: Substring?) -> Place {
        guard let current = selections.last else { return .elsewhere }
        if last == "$" { return .variable }
        if let arguments {
            guard arguments.depth == 1, last != ":", let field = arguments.field else { return .elsewhere }
            return .argument(field: field.name, type: field.type)
        }
        guard let current, last != "@" else { return .elsewhere }
        switch spread {
        case .started: return .fragmentSpread(type: current)
        case .on: return .typeCondition(type: current)
        case .none: return .selection(type: current)
        }
    }

    private static func isName(_ token: Substring) -> Bool { token.first.map(GraphQLTokens.isNameCharacter) == true }
}
