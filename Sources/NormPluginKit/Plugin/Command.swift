/// A command of a service, run from the workbench (`trips.rename 2 Porto`): its name starts
/// with the service's domain, its usage names one argument word per placeholder, and after
/// it succeeds the host refetches the named operations in `refetch` (an entity a mutation
/// returns updates its watchers by itself; a new object never lands in a list by itself).
///
/// ```swift
/// Command("trips.create", usage: "NAME", help: "Creates a trip.", refetch: ["TripList"]) { arguments in
///     let reply = try await host.run(.operation("CreateTrip"), variables: ["name": .string(arguments[0])])
///     return ["created trip \(reply["data", "createTrip", "id"])"]
/// }
/// ```
public struct Command: Sendable, Encodable {
    public let name: String
    /// The arguments, one placeholder word each: `"ID NAME"`; empty when there are none.
    public let usage: String
    public let help: String
    /// The named operations the host refetches after the command succeeds.
    public let refetch: [String]
    private let body: @Sendable ([String]) async throws -> [String]

    /// A command whose `body` takes the argument words, as many as `usage` has, and returns
    /// the lines of its output.
    public init(
        _ name: String, usage: String = "", help: String, refetch: [String] = [],
        body: @escaping @Sendable (_ arguments: [String]) async throws -> [String]
    ) {
        self.name = name
        self.usage = usage
        self.help = help
        self.refetch = refetch
        self.body = body
    }

    /// Runs the body, or throws the usage when the number of arguments is not the usage's:
    /// one word per placeholder, and one or more for a last placeholder ending in `...`.
    func run(_ arguments: [String]) async throws -> [String] {
        let placeholders = usage.split(separator: " ")
        let fits = placeholders.last?.hasSuffix("...") == true
            ? arguments.count >= placeholders.count : arguments.count == placeholders.count
        guard fits else {
            throw PluginError(usage.isEmpty ? "usage: \(name) (no arguments)" : "usage: \(name) \(usage)")
        }
        return try await body(arguments)
    }

    private enum CodingKeys: String, CodingKey { case name, usage, help, refetch }
}
