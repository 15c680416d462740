import CCore

/// Exports a ``Plugin`` through the C ABI: the one call a plugin's `nc_plugin_init` makes.
///
/// ```swift
/// @_cdecl("nc_plugin_init")
/// public func nc_plugin_init(_ host: UnsafePointer<nc_host_api>?, _ plugin: UnsafeMutablePointer<nc_plugin>?,
///                            _ error: UnsafeMutablePointer<CChar>?, _ size: Int) -> Int32 {
///     PluginExport.initialize(TripsPlugin.self, host: host, plugin: plugin, error: error, errorSize: size)
/// }
/// ```
public enum PluginExport {
    /// Checks the host's ABI version, makes the plugin, and fills `plugin`; returns 0. On a
    /// failure (another ABI version, an error the plugin throws, a manifest the kit finds
    /// wrong) returns 1 with the message in `error`, cut to `errorSize` bytes on a character
    /// boundary and NUL-terminated.
    public static func initialize<P: Plugin>(
        _ type: P.Type, host: UnsafePointer<nc_host_api>?, plugin: UnsafeMutablePointer<nc_plugin>?,
        error buffer: UnsafeMutablePointer<CChar>?, errorSize: Int
    ) -> Int32 {
        do {
            guard let host, let plugin else { throw PluginError("nc_plugin_init needs a host API and a plugin to fill") }
            let version = UInt32(NC_PLUGIN_ABI_VERSION)
            guard host.pointee.abi_version == version else {
                throw PluginError("\(P.name) \(P.version) speaks plugin ABI version \(version), the host version \(host.pointee.abi_version)")
            }
            plugin.pointee = try PluginRuntime(P.self, host: Host(host.pointee)).export()
            return 0
        } catch {
            write(String(describing: error), to: buffer, size: errorSize)
            return 1
        }
    }

    private static func write(_ message: String, to buffer: UnsafeMutablePointer<CChar>?, size: Int) {
        guard let buffer, size > 0 else { return }
        let bytes = Array(message.utf8)
        var count = min(bytes.count, size - 1)
        // Never end inside a character: back off while the first byte left out continues one.
        while count > 0, count < bytes.count, bytes[count] & 0xC0 == 0x80 { count -= 1 }
        for index in 0..<count { buffer[index] = CChar(bitPattern: bytes[index]) }
        buffer[count] = 0
    }
}
