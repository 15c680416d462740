import Foundation

/// A pipe whose ends other children of the test runner do not inherit: tests run in
/// parallel, and a child that inherited another child's pipe would hold it open, so that
/// pipe would not end when its own child exits. (A child's own copies on 0, 1 and 2 are
/// made by dup2, which clears the flag.)
///
/// ```swift
/// let output = privatePipe()
/// process.standardOutput = output
/// ```
package func privatePipe() -> Pipe {
    let pipe = Pipe()
    for handle in [pipe.fileHandleForReading, pipe.fileHandleForWriting] { _ = fcntl(handle.fileDescriptor, F_SETFD, FD_CLOEXEC) }
    return pipe
}
