import NormPluginKit

/// The donuts plugin: an in-process donut shop (orders per user, numbered from 1 at every
/// start), the operations of its views (GraphQL/Operations, generated into Generated/ by
/// `normcache codegen --embed-schema`), and four stateless services, each under its domain,
/// that find what they depend on (each other, the ``Log``, the ``DonutAPI``) in the plugin's
/// environment.
///
/// ```
/// orders.create 1,2     order 1: Glazed, Chocolate, $3.50, not paid
/// payments.pay 1        order 1: Glazed, Chocolate, $3.50, paid
/// payments.pay 1        error: payment failed: order 1 is paid already
/// ```
@main
struct DonutsPlugin: Plugin {
    static let name = "donuts"
    static let version = "1.0.0"
    static let schema = DonutSchema.sdl
    static let typePolicies = DonutSchema.typePolicies
    static let operations = [
        NamedOperation(MenuQuery.self), NamedOperation(OrderDetailQuery.self), NamedOperation(MeQuery.self),
        NamedOperation(CreateOrderMutation.self), NamedOperation(PayOrderMutation.self),
    ]

    let resolvers: Resolvers<Environment>
    let services: [any Service]
    let commands: [Command]

    init(environment: Environment) throws {
        let host = try environment.get(Host.self)
        let server = DonutServer()
        environment.set(server)
        environment.set(Log(host: host))
        environment.set(DonutAPI(host: host))
        let donuts = try DonutService(environment: environment)
        let orders = try OrderService(environment: environment)
        let payments = try PaymentService(environment: environment)
        let users = try UserService(environment: environment)
        resolvers = server.resolvers
        services = [donuts, orders, payments, users]
        commands = donuts.commands + orders.commands + payments.commands + users.commands
    }
}
