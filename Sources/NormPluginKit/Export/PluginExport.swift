import NormPluginABI

/// Exports a ``Plugin`` through the C ABI: what the kit's `nc_plugin_init` does with the
/// type a plugin marks `@main`, and what a test does to load a plugin type in-process.
///
/// ```swift
/// let status = PluginExport.initialize(GreetingsPlugin.self, host: host, plugin: plugin,
///                                      error: buffer, errorSize: 256)   // 0: `plugin` is filled
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

    /// Writes `message` into the ABI's error buffer: cut on a character boundary, NUL-terminated.
    static func write(_ message: String, to buffer: UnsafeMutablePointer<CChar>?, size: Int) {
        guard let buffer, size > 0 else { return }
        let bytes = Array(message.utf8)
        var count = min(bytes.count, size - 1)
        // Never end inside a character: back off while the first byte left out continues one.
        while count > 0, count < bytes.count, bytes[count] & 0xC0 == 0x80 { count -= 1 }
        for index in 0..<count { buffer[index] = CChar(bitPattern: bytes[index]) }
        buffer[count] = 0
    }
}
