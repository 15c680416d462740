/// A callback and the emission to hand it, delivered once the engine's lock is released.
struct WatchDelivery {
    let callback: @Sendable (WatchEmission) -> Void
    let emission: WatchEmission
}
