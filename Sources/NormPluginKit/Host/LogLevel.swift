import NormPluginABI

/// How much a message logged through the host matters; the levels of swift-log, which the
/// host uses.
///
/// ```swift
/// host.log(.notice, "seeded the trips of ana")
/// ```
public enum LogLevel: Sendable {
    case trace, debug, info, notice, warning, error, critical

    var cValue: nc_log_level {
        switch self {
        case .trace: NC_LOG_TRACE
        case .debug: NC_LOG_DEBUG
        case .info: NC_LOG_INFO
        case .notice: NC_LOG_NOTICE
        case .warning: NC_LOG_WARNING
        case .error: NC_LOG_ERROR
        case .critical: NC_LOG_CRITICAL
        }
    }
}
