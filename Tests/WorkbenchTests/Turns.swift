import Synchronization

/// A fixed number of turns, handed out in the order they were asked for.
///
/// ```swift
/// let turns = Turns(2)
/// await turns.take()   // suspends while both turns are taken
/// defer { turns.give() }
/// ```
final class Turns: Sendable {
    private let state: Mutex<(free: Int, waiting: [CheckedContinuation<Void, Never>])>

    init(_ count: Int) { state = Mutex((free: max(count, 1), waiting: [])) }

    func take() async {
        await withCheckedContinuation { (turn: CheckedContinuation<Void, Never>) in
            let free = state.withLock { turns in
                if turns.free > 0 {
                    turns.free -= 1
                    return true
                }
                turns.waiting.append(turn)
                return false
            }
            if free { turn.resume() }
        }
    }

    func give() {
        let next = state.withLock { turns in
            if turns.waiting.isEmpty {
                turns.free += 1
                return nil as CheckedContinuation<Void, Never>?
            }
            return turns.waiting.removeFirst()
        }
        next?.resume()
    }
}
