import NormPluginKit

/// The plugin the export tests load in-process: a greeting endpoint, one service that tells
/// the host's log what happens to it, and a command for each path a command can take.
struct GreetingsPlugin: Plugin {
    static let name = "greetings"
    static let version = "0.1.0"
    static let schema = "type Query { greeting(name: String!): Greeting } type Greeting { id: ID! text: String! }"
    static let typePolicies = ["Greeting": ["id"]]
    static let greetingText = NamedFragment("fragment GreetingText on Greeting { id text }")
    static let operations = [
        NamedOperation("query Greeting($name: String!) { greeting(name: $name) { ...GreetingText } }", fragments: [greetingText]),
    ]

    let resolvers = Resolvers<Environment>(query: [
        "greeting": { arguments, _ in ["id": "1", "text": "Hello, \(try arguments["name"].stringValue())!"] },
    ])
    let services: [any Service]
    let commands: [Command]

    init(environment: Environment) throws {
        let greetings = try GreetingService(environment: environment)
        services = [greetings]
        commands = greetings.commands
    }
}

final class GreetingService: Service {
    let domain = "greetings"
    private let host: Host

    init(environment: Environment) throws {
        host = try environment.get(Host.self)
    }

    deinit { host.log(.debug, "greetings released") }

    func handle(_ event: LifecycleEvent) async {
        host.log(.info, "heard \(event)")
    }

    var commands: [Command] {
        [
            Command("greetings.say", usage: "NAME", help: "Greets NAME.") { arguments in
                ["Hello, \(arguments[0])!"]
            },
            Command("greetings.fetch", help: "Fetches Ana's greeting through the host.", refetch: ["Greeting"]) { [host] _ in
                let reply = try await host.run(.operation("Greeting"), variables: ["name": "Ana"], policy: .networkOnly)
                return [try reply["data", "greeting", "text"].stringValue()]
            },
            Command("greetings.fail", help: "Fails.") { _ in
                throw PluginError("greetings.fail failed, as it should")
            },
        ]
    }
}

/// A plugin whose making fails, with a message longer than a small error buffer.
struct BrokenPlugin: Plugin {
    static let name = "broken"
    static let version = "0.0.1"
    static let schema = "type Query { nothing: String }"
    static let typePolicies: [String: [String]] = [:]
    static let operations: [NamedOperation] = []

    let resolvers = Resolvers<Environment>()
    let services: [any Service] = []
    let commands: [Command] = []

    init(environment: Environment) throws {
        throw PluginError("the database of café ☕ cannot be opened")
    }
}

/// A plugin whose manifest the kit refuses: its operation asks for a field the schema lacks.
struct MisspelledPlugin: Plugin {
    static let name = "misspelled"
    static let version = "0.0.1"
    static let schema = "type Query { greeting: String }"
    static let typePolicies: [String: [String]] = [:]
    static let operations = [NamedOperation("query Greeting { greting }")]

    let resolvers = Resolvers<Environment>()
    let services: [any Service] = []
    let commands: [Command] = []

    init(environment: Environment) throws {}
}
