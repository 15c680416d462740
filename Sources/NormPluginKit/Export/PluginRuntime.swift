import NormPluginABI
import Foundation

/// A loaded plugin, behind the `context` of its `nc_plugin`: it owns the plugin's
/// environment, executable schema, commands, subscriptions and C texts, and serves the
/// functions the host calls, each request in a task of its own that replies when done. A lifecycle event has
/// reached every service when the host's call returns.
final class PluginRuntime: Sendable {
    private let environment: Environment
    private let schema: ExecutableSchema<Environment>
    private let commands: [String: Command]
    private let subscriptions = PluginSubscriptions()
    private let host: Host
    /// `strdup` copies of the plugin's name, version and manifest, freed when the runtime
    /// goes (at destroy).
    private nonisolated(unsafe) let name, version, manifest: UnsafeMutablePointer<CChar>

    init<P: Plugin>(_ type: P.Type, host: Host) throws {
        let environment = Environment()
        environment.set(host)
        let plugin = try P(environment: environment)
        for service in plugin.services { try environment.register(service) }
        schema = try ExecutableSchema(sdl: P.schema, resolvers: plugin.resolvers)
        let manifest = try Manifest(plugin, schema: schema).json
        commands = Dictionary(plugin.commands.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.environment = environment
        self.host = host
        name = strdup(P.name)
        version = strdup(P.version)
        self.manifest = strdup(manifest)
    }

    deinit {
        free(name)
        free(version)
        free(manifest)
    }

    /// The `nc_plugin` the host gets; it holds a reference to the runtime until `destroy`.
    func export() -> nc_plugin {
        nc_plugin(
            abi_version: UInt32(NC_PLUGIN_ABI_VERSION),
            name: name, version: version, manifest: manifest,
            context: Unmanaged.passRetained(self).toOpaque(),
            execute: { context, request, reply, replyContext in
                runtime(context).execute(text(request), reply: Replier(reply, replyContext))
            },
            command: { context, request, reply, replyContext in
                runtime(context).command(text(request), reply: Replier(reply, replyContext))
            },
            lifecycle: { context, event in
                runtime(context).lifecycle(text(event))
            },
            subscribe: { context, request, event, eventContext in
                let runtime = runtime(context)
                runtime.subscriptions.start(text(request), on: runtime.schema, context: runtime.environment, event: event, eventContext: eventContext)
            },
            unsubscribe: { context, eventContext in
                runtime(context).subscriptions.stop(eventContext)
            },
            destroy: { context in
                context.map { Unmanaged<PluginRuntime>.fromOpaque($0).release() }
            }
        )
    }

    private func execute(_ request: String, reply: Replier) {
        Task { reply.succeed(await schema.execute(json: request, context: environment)) }
    }

    private func command(_ request: String, reply: Replier) {
        Task {
            do {
                guard let request = try? CodableJSON.decode(CommandRequest.self, from: request) else {
                    throw PluginError(#"not a command request: {"command": NAME, "arguments": [WORD, ...]} is expected"#)
                }
                guard let command = commands[request.command] else {
                    throw PluginError("unknown command \(request.command); the commands are \(commands.keys.sorted().joined(separator: ", "))")
                }
                reply.succeed(try CodableJSON.encode(CommandOutput(output: try await command.run(request.arguments ?? []))))
            } catch {
                reply.fail(error)
            }
        }
    }

    /// Delivers the event to every service and returns when they have handled it, so a
    /// request the host sends next sees its effect (the ABI lets this call block).
    private func lifecycle(_ event: String) {
        let parsed: LifecycleEvent
        do { parsed = try LifecycleEvent(json: event) } catch {
            return host.log(.warning, "ignored the lifecycle event \(event): \(error)")
        }
        let handled = DispatchSemaphore(value: 0)
        let environment = self.environment
        Task {
            await environment.broadcast(parsed)
            handled.signal()
        }
        handled.wait()
    }

    private struct CommandRequest: Decodable {
        let command: String
        let arguments: [String]?
    }

    private struct CommandOutput: Encodable {
        let output: [String]
    }
}

private func runtime(_ context: UnsafeMutableRawPointer?) -> PluginRuntime {
    Unmanaged<PluginRuntime>.fromOpaque(context!).takeUnretainedValue()
}

private func text(_ pointer: UnsafePointer<CChar>?) -> String {
    pointer.map { String(cString: $0) } ?? ""
}

extension LifecycleEvent {
    /// The event of `{"event": "login", "user": "ana"}`, `{"event": "logout"}` or `{"event": "foreground"}`.
    init(json: String) throws {
        struct Event: Decodable {
            let event: String
            let user: String?
        }
        switch try? CodableJSON.decode(Event.self, from: json) {
        case let event? where event.event == "login":
            guard let user = event.user else { throw PluginError("a login event needs a \"user\"") }
            self = .login(user: user)
        case let event? where event.event == "logout": self = .logout
        case let event? where event.event == "foreground": self = .foreground
        case let event?: throw PluginError("unknown event \(event.event)")
        case nil: throw PluginError(#"not a lifecycle event: {"event": NAME} is expected"#)
        }
    }
}
