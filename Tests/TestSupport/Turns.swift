import Synchronization

/// A fixed number of turns, handed out in the order they were asked for.
///
/// ```swift
/// let turns = Turns(2)
/// await turns.take()   // suspends while both turns are taken
/// defer { turns.give() }
/// ```
public final class Turns: Sendable {
    private let state: Mutex<(free: Int, waiting: [CheckedContinuation<Void, Never>])>

    public init(_ count: Int) { state = Mutex((free: max(count, 1), waiting: [])) }

    public func take() async {
        await withCheckedContinuation { (turn: CheckedContinuation<Void, Never>) in
            let free = state.withLock { state in
                if state.free > 0 {
                    state.free -= 1
                    return true
                }
                state.waiting.append(turn)
                return false
            }
            if free { turn.resume() }
        }
    }

    public func give() {
        let next = state.withLock { state in
            if state.waiting.isEmpty {
                state.free += 1
                return nil as CheckedContinuation<Void, Never>?
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
