/// A service owns one domain of an app's business logic (trips, orders, payments) and the
/// state that goes with it; it hears the app's lifecycle through its ``Environment``.
///
/// ```swift
/// final class OrderService: Service {
///     let domain = "orders"
///     func handle(_ event: LifecycleEvent) async {
///         if event == .logout { /* drop the user's orders */ }
///     }
/// }
/// ```
public protocol Service: AnyObject, Sendable {
    /// The name commands are grouped under, e.g. `orders` for `orders.create`.
    var domain: String { get }
    /// Reacts to a lifecycle event; on ``LifecycleEvent/logout`` drop all per-user state.
    func handle(_ event: LifecycleEvent) async
}

/// What happens to the app as a whole, delivered to every service.
///
/// ```swift
/// await environment.broadcast(.login(user: "ana"))
/// LifecycleEvent.logout.name   // "logout"
/// ```
public enum LifecycleEvent: Sendable, Equatable, CustomStringConvertible {
    case login(user: String)
    case logout
    case foreground

    /// The event's name, as the plugin ABI writes it.
    public var name: String {
        switch self {
        case .login: "login"
        case .logout: "logout"
        case .foreground: "foreground"
        }
    }

    public var description: String {
        if case .login(let user) = self { return "login \(user)" }
        return name
    }
}
