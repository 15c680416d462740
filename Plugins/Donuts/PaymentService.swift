import NormPluginKit

/// The `payments` service: pays an order the ``OrderService`` (resolved from the
/// environment) finds unpaid on the server. It keeps no state of its own.
///
/// ```swift
/// let payments = try environment.service(PaymentService.self)
/// try await payments.pay(orderID: "1")   // order 1: Glazed, Chocolate, $3.50, paid
/// try await payments.pay(orderID: "1")   // throws: order 1 is paid already
/// ```
final class PaymentService: Service {
    let domain = "payments"
    private unowned let environment: Environment
    private let api: DonutAPI
    private let log: Log

    init(environment: Environment) throws {
        self.environment = environment
        api = try environment.get(DonutAPI.self)
        log = try environment.get(Log.self)
    }

    func handle(_ event: LifecycleEvent) async {}

    /// Pays order `id`, checked first against the server's copy: an error when it does not
    /// exist or is paid already (the server checks again).
    func pay(orderID id: String) async throws -> OrderFields {
        let order = try await environment.service(OrderService.self).order(id: id, policy: .networkOnly)
        guard !order.paid else { throw PluginError("order \(id) is paid already") }
        let paid = try await api.perform(PayOrderMutation(id: id)).payOrder.fragments.orderFields
        log.info("received \(Price(cents: paid.total)) for order \(paid.id)")
        return paid
    }

    var commands: [Command] {
        [
            // The paid order comes back with its id: its record changes, and every view of it
            // updates by itself; nothing to refetch.
            Command("payments.pay", usage: "ORDER", help: "Pays an order.") { [self] arguments in
                let id = try OrderService.orderID(arguments[0])
                return try await log.failure(of: "payment") { [try await pay(orderID: id).summary] }
            },
        ]
    }
}
