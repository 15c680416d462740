import Foundation

// libFuzzer's two callbacks. libFuzzer supplies `main` (`swift build --sanitize=fuzzer`),
// so this module has none; the environment variable NORMFUZZ_TARGET names the target.

/// The target this process fuzzes.
let selectedTarget: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["NORMFUZZ_TARGET"] ?? ""
    if let target = FuzzTarget.all.first(where: { $0.name == name }) { return target }
    let targets = FuzzTarget.all.map { "  \($0.name): \($0.feeds)" }.joined(separator: "\n")
    FileHandle.standardError.write(Data("NormFuzz: set NORMFUZZ_TARGET to one of\n\(targets)\n".utf8))
    exit(2)
}()

@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    _ = selectedTarget
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    selectedTarget.run(UnsafeBufferPointer(start: data, count: size))
    return 0
}
