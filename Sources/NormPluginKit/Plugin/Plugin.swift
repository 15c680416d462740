/// A service plugin: what it is (name, version), the endpoint it serves (SDL and the
/// resolvers of its root fields), how the host's cache keys its types, the named operations
/// of its views, its services and their commands. ``PluginExport`` turns it into the C ABI.
///
/// A plugin library marks its plugin type `@main`, and that is all it exports: the kit,
/// linked into the library, exports the ABI's `nc_plugin_init`, which makes the type that
/// `@main` names. (A library without a `@main` type fails to load, saying so.)
///
/// The kit makes the plugin once, when the host loads it, with an ``Environment`` that holds
/// the ``Host``; the plugin puts in what its services need, and the kit registers the services
/// there, so lifecycle events reach them.
///
/// ```swift
/// @main
/// struct NotesPlugin: Plugin {
///     static let name = "notes"
///     static let version = "1.0.0"
///     static let schema = "type Query { notes: [Note!]! } type Note { id: ID! text: String! }"
///     static let typePolicies: [String: [String]] = [:]
///     static let operations = [NamedOperation("query NoteList { notes { id text } }")]
///
///     let resolvers: Resolvers<Environment>
///     let services: [any Service]
///     let commands: [Command]
///
///     init(environment: Environment) throws {
///         let notes = try NoteService(environment: environment)   // domain "notes"
///         resolvers = Resolvers(query: ["notes": { _, _ in await notes.all() }])
///         services = [notes]
///         commands = notes.commands
///     }
/// }
/// ```
public protocol Plugin {
    /// Unique among the host's plugins, e.g. `trips`.
    static var name: String { get }
    /// e.g. `1.0.0`.
    static var version: String { get }
    /// The SDL of the plugin's endpoint.
    static var schema: String { get }
    /// The key fields of each type that is not keyed by `id`; an empty list: never normalized.
    static var typePolicies: [String: [String]] { get }
    /// The named operations the host can run by name, each written beside its view.
    static var operations: [NamedOperation] { get }

    /// Makes the plugin; a thrown error fails the host's load with its message.
    init(environment: Environment) throws

    /// The resolvers of the endpoint's root fields; the context of a request is the plugin's environment.
    var resolvers: Resolvers<Environment> { get }
    /// The services, each under its own domain.
    var services: [any Service] { get }
    /// The commands of the services.
    var commands: [Command] { get }
}
