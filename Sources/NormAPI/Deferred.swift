/// A deferred part of a selection under `fragments`, as Apollo iOS's `@Deferred` wraps it:
/// an inline fragment under `@defer` (`fragments.deferredCat`) or a fragment spread under it
/// (`fragments.petDetails`). It reads as the part once the part has arrived, nil while it is
/// pending; `$deferredCat` says which.
///
/// ```swift
/// cat.fragments.deferredCat?.isJellicle                  // nil until the part arrives
/// if case .pending = cat.fragments.$deferredCat { showPlaceholder() }
/// ```
@propertyWrapper
public struct Deferred<Part: SelectionSet>: Hashable, Sendable {
    public enum State: Hashable, Sendable {
        /// The part has not arrived yet.
        case pending
        /// Apollo iOS's state of a part that can never arrive, its object being of another
        /// type; generated code puts a part inside the type case it needs, so decoded data
        /// never has it.
        case notExecuted
        /// The part has arrived.
        case fulfilled(Part)
    }

    public let state: State

    /// The part when it has arrived, else pending.
    public init(wrappedValue: Part?) {
        state = wrappedValue.map(State.fulfilled) ?? .pending
    }

    public var wrappedValue: Part? {
        if case .fulfilled(let part) = state { return part }
        return nil
    }

    public var projectedValue: State { state }
}
