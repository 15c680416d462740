/// Why records changed, and so why a watcher emits.
public enum ChangeCause: String, Sendable, Equatable {
    case initial, write, refetch, evict, optimistic, rollback, gc, clear
}
