import NormClient

/// What a session records for its verdict: the commands and expectations that failed (and
/// so the exit status of a batch run), and what `.expect` looks at: the last command's
/// failure and output, the last operation's result, every watcher emission and each
/// service's last state.
///
/// ```swift
/// let ledger = ExpectationLedger()
/// ledger.commandFailed()
/// ledger.exitStatus   // 2: a command failed
/// ledger.excuseLastFailure()   // `.expect error "…"` was written for it (once its message is recorded)
/// ```
final class ExpectationLedger {
    /// How many commands failed, and how many expectations.
    private(set) var failures = 0
    private(set) var failedExpectations = 0
    /// The last operation's result, for `.expect` and inspection.
    var lastResult: ClientResult?
    /// Every watcher emission so far, for `.expect watch` and `.expect emissions`.
    let watchLog = WatchLog()
    /// The state each service announced last, for `.expect state`.
    let serviceStates = ServiceStates()
    /// The message of the last command that failed, if the last command failed (`.expect error`).
    private(set) var lastFailure: String?
    /// What the last command printed, with what it set off (`.expect output`).
    private(set) var lastOutput: [Event] = []
    private var lastFailureExcused = false
    /// True while `.expect` lines run: they look past themselves to the last command.
    private(set) var isExpecting = false

    /// The exit status of a batch run: 2 when a command failed, 1 when only an expectation did, else 0.
    var exitStatus: Int32 { failures > 0 ? 2 : failedExpectations > 0 ? 1 : 0 }

    func commandFailed() { failures += 1 }

    /// A line that is not an `.expect` starts: expectations after it look at it.
    func lineStarted() { isExpecting = false }

    /// The command ended; unless it was an `.expect`, it is the one expectations look at.
    func commandFinished(failure: String?, output: [Event]) {
        guard !isExpecting else { return }
        lastFailure = failure
        lastFailureExcused = false
        lastOutput = output
    }

    /// An `.expect` runs: it is not a command of its own for `.expect error`, which looks
    /// past expectations to the last command.
    func expecting() { isExpecting = true }

    /// `.expect error` was written for the last failure: it no longer counts against the run.
    func excuseLastFailure() {
        isExpecting = true
        if lastFailure != nil, !lastFailureExcused {
            failures -= 1
            lastFailureExcused = true
        }
    }

    func expectationFailed() { failedExpectations += 1 }
}
