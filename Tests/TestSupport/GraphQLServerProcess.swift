import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// The GraphQL server of `Tests/Support/graphql_server/server.py` (ariadne on uvicorn, from
/// the venv that `make graphql-server` makes), the one that answers `@defer` in parts,
/// `Tests/Support/incremental_server/server.py` (graphql-core 3.3.0a6 in the same venv), or
/// the endpoint that answers badly on purpose, `Tests/Support/fault_server/server.py` (the
/// standard library's http.server), running as a child process on a free port of
/// 127.0.0.1. A suite gets one with the ``GraphQLServerTrait`` trait, `.graphQLServer`,
/// `.incrementalServer` or `.faultServer`:
///
/// ```swift
/// @Suite(.graphQLServer) struct HTTPTests {
///     @Test func trips() async throws {
///         let server = try #require(GraphQLServerProcess.current)
///         let transport = HTTPTransport(url: server.url())
///     }
/// }
/// ```
package final class GraphQLServerProcess: Sendable {
    /// The server of the suite that is running, set by ``GraphQLServerTrait``.
    @TaskLocal package static var current: GraphQLServerProcess?

    package let port: Int
    private let process: Process
    private let input: FileHandle
    private let output: PipeReader

    private static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Which server: ariadne's, the one that answers `@defer` in parts, or the one that answers badly.
    package enum Kind: Sendable {
        case graphQL, incremental, faults

        var python: URL {
            switch self {
            case .graphQL, .incremental: repositoryRoot.appendingPathComponent(".build/graphql-server/bin/python")
            case .faults: URL(fileURLWithPath: "/usr/bin/python3")
            }
        }

        var script: URL {
            let folder = switch self {
            case .graphQL: "graphql_server"
            case .incremental: "incremental_server"
            case .faults: "fault_server"
            }
            return repositoryRoot.appendingPathComponent("Tests/Support/\(folder)/server.py")
        }
    }

    /// Starts the server and returns once it listens; ``stop()`` it in a `defer`.
    package static func start(_ kind: Kind = .graphQL, timeout: TimeInterval = 10) throws -> GraphQLServerProcess {
        let python = kind.python
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw ServerError("the test server's Python is missing (\(python.path)): "
                + (kind == .faults ? "install python3" : "run `make graphql-server` first"))
        }
        let process = Process()
        process.executableURL = python
        process.arguments = [kind.script.path, "0"]   // 0: the server picks a free port and prints it
        let inputPipe = privatePipe(), outputPipe = privatePipe()
        process.standardInput = inputPipe
        process.standardOutput = outputPipe
        process.standardError = outputPipe
        let output = PipeReader(outputPipe)
        try process.run()   // closes the server's ends of the pipes here

        output.waitHere(timeout: timeout) { listeningPort(in: $0) != nil }
        guard let port = listeningPort(in: output.text) else {
            let failure = process.isRunning ? "did not listen within \(Int(timeout)) s" : "exited"
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            throw ServerError("the GraphQL test server \(failure); it printed:\n\(output.text)")
        }
        return GraphQLServerProcess(port: port, process: process, input: inputPipe.fileHandleForWriting, output: output)
    }

    /// The port in the line `listening on 127.0.0.1:PORT` that the server prints once it listens.
    private static func listeningPort(in output: String) -> Int? {
        let prefix = "listening on 127.0.0.1:"
        guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) else { return nil }
        return Int(line.dropFirst(prefix.count))
    }

    private init(port: Int, process: Process, input: FileHandle, output: PipeReader) {
        self.port = port
        self.process = process
        self.input = input
        self.output = output
    }

    /// The URL of `path` on the server; GraphQL is served at `/graphql`.
    package func url(_ path: String = "/graphql") -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// Everything the server printed (its errors and tracebacks), for failure messages.
    var log: String { output.text }

    var isRunning: Bool { process.isRunning }

    /// Renames trip `id` as another app would (`renameTrip`), once a `tripRenamed`
    /// subscription hears that trip (`renameListeners`): a subscription starts at the
    /// server a moment after the client has sent it.
    package func renameTrip(_ id: String, to name: String) async throws {
        let deadline = Date(timeIntervalSinceNow: 10)
        while try await post("query($id: ID!) { renameListeners(id: $id) }", ["id": id]).contains(#""renameListeners":0"#) {
            guard Date() < deadline else { throw ServerError("no tripRenamed subscription hears trip \(id) after 10 s") }
            try await Task.sleep(for: .milliseconds(10))
        }
        _ = try await post("mutation($id: ID!, $name: String!) { renameTrip(id: $id, name: $name) { id } }", ["id": id, "name": name])
    }

    /// POSTs `query` with `variables` to /graphql and returns the answer's text.
    private func post(_ query: String, _ variables: [String: String]) async throws -> String {
        var request = URLRequest(url: url())
        request.httpMethod = "POST"
        request.httpBody = try JSONSerialization.data(withJSONObject: ["query": query, "variables": variables] as [String: Any])
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let (data, _) = try await URLSession.shared.data(for: request)
        return String(decoding: data, as: UTF8.self)
    }

    /// Ends the server: closing its standard input asks it to exit, SIGTERM does too, and
    /// SIGKILL ends it if it is still running after a few seconds.
    package func stop() {
        try? input.close()
        if process.isRunning { process.terminate() }
        let deadline = Date(timeIntervalSinceNow: 5)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}

/// Runs a suite's tests with a ``GraphQLServerProcess`` of their own, started once before
/// them and stopped after them: `@Suite(.graphQLServer)`.
package struct GraphQLServerTrait: SuiteTrait, TestScoping {
    let kind: GraphQLServerProcess.Kind

    package func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        let server = try GraphQLServerProcess.start(kind)
        defer { server.stop() }
        try await GraphQLServerProcess.$current.withValue(server, operation: function)
        if !server.isRunning { Issue.record("the GraphQL test server exited during the tests; it printed:\n\(server.log)") }
    }
}

extension Trait where Self == GraphQLServerTrait {
    package static var graphQLServer: Self { Self(kind: .graphQL) }
    /// Tests/Support/incremental_server/server.py: `@defer` answered in parts.
    package static var incrementalServer: Self { Self(kind: .incremental) }
    /// Tests/Support/fault_server/server.py: every fault picked by the operation's name.
    package static var faultServer: Self { Self(kind: .faults) }
}

/// Why the test server could not be used, saying what to do.
package struct ServerError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
