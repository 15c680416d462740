import Foundation

/// A typed registry of the utilities and services an app is made of, in the spirit of
/// SwiftUI's `Environment`: the host puts in the client and the shared utilities, each
/// service is registered under its domain, and services resolve what they depend on from
/// here instead of constructing it. Lifecycle events reach every service.
///
/// ```swift
/// let environment = Environment()
/// environment.set(Logger(label: "app"))
/// environment.register(OrderService(environment: environment))   // domain "orders"
/// let logger = try environment.get(Logger.self)
/// await environment.broadcast(.logout)                             // every service drops its state
/// ```
public final class Environment: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [ObjectIdentifier: Any] = [:]
    private var services: [(domain: String, service: any Service)] = []

    public init() {}

    /// Puts `value` in, replacing any earlier value of the same type.
    public func set<Value>(_ value: Value, as type: Value.Type = Value.self) {
        lock.withLock { values[ObjectIdentifier(type)] = value }
    }

    /// The value of `type`; throws, naming the type, when none was put in.
    public func get<Value>(_ type: Value.Type = Value.self) throws(EnvironmentError) -> Value {
        guard let value = lock.withLock({ values[ObjectIdentifier(type)] }) as? Value else {
            throw EnvironmentError("no \(type) in the environment")
        }
        return value
    }

    /// Registers `service` under its domain; a second service of the same domain is refused.
    public func register(_ service: any Service) throws(EnvironmentError) {
        let domain = service.domain
        let added = lock.withLock {
            guard !services.contains(where: { $0.domain == domain }) else { return false }
            services.append((domain, service))
            return true
        }
        guard added else { throw EnvironmentError("a service for domain \"\(domain)\" is registered already") }
    }

    /// Removes the services of `domains` (a plugin being unloaded).
    public func unregister(domains: Set<String>) {
        lock.withLock { services.removeAll { domains.contains($0.domain) } }
    }

    /// The service registered for `domain`.
    public func service(for domain: String) -> (any Service)? {
        lock.withLock { services.first { $0.domain == domain }?.service }
    }

    /// The service of type `type`, found among the registered ones.
    public func service<S: Service>(_ type: S.Type) throws(EnvironmentError) -> S {
        guard let service = lock.withLock({ services.lazy.compactMap { $0.service as? S }.first }) else {
            throw EnvironmentError("no \(type) registered")
        }
        return service
    }

    /// The registered domains, in registration order.
    public var domains: [String] { lock.withLock { services.map(\.domain) } }

    /// Delivers `event` to every service, in registration order, one after another.
    public func broadcast(_ event: LifecycleEvent) async {
        for service in lock.withLock({ services.map(\.service) }) { await service.handle(event) }
    }
}

/// Something the environment could not provide.
public struct EnvironmentError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
