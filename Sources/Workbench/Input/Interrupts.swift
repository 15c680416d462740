import CEdit
import Foundation

/// Ctrl-C in the interactive workbench, where it no longer ends the process: while a
/// command runs, `onInterrupt` cancels it (called on a thread of its own); at the prompt,
/// the ``LineEditor`` gives up the line being typed. SIGINT's handler only notes the
/// signal and writes a byte to a pipe, which that thread reads. Releasing the value
/// restores the default.
///
/// ```swift
/// let interrupts = Interrupts { session.interrupt() }   // Ctrl-C: "error: interrupted"
/// ```
final class Interrupts {
    /// The pipe's end that the handler writes to.
    private let writeEnd: Int32

    /// `nil` when no pipe could be made: Ctrl-C then ends the process, as by default.
    init?(onInterrupt: @escaping @Sendable () -> Void) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        let (reader, writer) = (ends[0], ends[1])
        _ = fcntl(writer, F_SETFL, O_NONBLOCK)   // a handler must never block
        writeEnd = writer
        Thread.detachNewThread {
            nc_edit_block_signals_here()   // SIGINT and the editor's signals go to the thread reading the terminal
            var bytes = [UInt8](repeating: 0, count: 64)
            while true {
                let count = read(reader, &bytes, bytes.count)
                if count > 0 { onInterrupt() } else if count == 0 || errno != EINTR { break }
            }
            close(reader)
        }
        nc_edit_catch_interrupts(writer)
    }

    deinit {
        nc_edit_catch_interrupts(-1)
        close(writeEnd)   // the thread reads the end of the pipe and stops
    }
}
