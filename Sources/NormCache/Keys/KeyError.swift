import CCore

/// Why the C key core refused a key, and which key it was building.
///
/// ```swift
/// do {
///     _ = try interner.intern("bad\u{0}key")
/// } catch let error as KeyError {
///     print(error)   // cannot intern "bad\u{0}key": text contains a NUL byte
/// }
/// ```
public struct KeyError: Error, Equatable, CustomStringConvertible {
    /// What went wrong, as the C core reports it.
    public enum Reason: Equatable, Sendable {
        case outOfMemory, invalidUTF8, embeddedNUL, tooLong, tooDeep, full, malformed, duplicateName
        case notFound, invalidArgument, other(Int32)

        init(_ status: nc_status) {
            switch status {
            case NC_ERR_NOMEM: self = .outOfMemory
            case NC_ERR_INVALID_UTF8: self = .invalidUTF8
            case NC_ERR_EMBEDDED_NUL: self = .embeddedNUL
            case NC_ERR_TOO_LONG: self = .tooLong
            case NC_ERR_TOO_DEEP: self = .tooDeep
            case NC_ERR_FULL: self = .full
            case NC_ERR_MALFORMED: self = .malformed
            case NC_ERR_DUPLICATE_NAME: self = .duplicateName
            case NC_ERR_NOT_FOUND: self = .notFound
            case NC_ERR_INVALID_ARGUMENT: self = .invalidArgument
            default: self = .other(Int32(status.rawValue))
            }
        }
    }

    public let reason: Reason
    /// What was being done, e.g. `field key "search"` or `intern "Human:1000"`.
    public let context: String
    /// The C core's sentence for the reason.
    public let message: String

    @usableFromInline init(_ status: nc_status, _ context: String) {
        self.reason = Reason(status)
        self.context = context
        self.message = String(cString: nc_status_message(status))
    }

    public var description: String { "cannot \(context): \(message)" }

    /// Throws unless `status` is `NC_OK`; `context` is only built on failure. Inlinable, so
    /// the success path costs one comparison in hot callers.
    @inlinable static func check(_ status: nc_status, _ context: @autoclosure () -> String) throws(KeyError) {
        if status != NC_OK { throw KeyError(status, context()) }
    }
}

extension String {
    /// A short quoted preview for error messages: long keys are cut, control characters escaped.
    @usableFromInline var quotedPreview: String {
        let cut = count > 60 ? String(prefix(60)) + "…" : self
        return "\"" + cut.unicodeScalars.map { $0.properties.generalCategory == .control ? $0.escaped(asASCII: true) : String($0) }.joined() + "\""
    }
}
