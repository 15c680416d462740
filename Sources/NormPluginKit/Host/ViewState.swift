/// What a service's view shows, announced with ``Host/emitState(service:state:detail:)``
/// and printed by the workbench as a `state` event.
///
/// ```swift
/// host.emitState(service: "trips", state: .loading)
/// host.emitState(service: "trips", state: .error, detail: "the network is offline")
/// ```
public enum ViewState: String, Sendable {
    case loading, loaded, error
}
